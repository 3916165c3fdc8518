import InputInterception
import Testing
import TouchInput

/// A `DeviceIO` over scripted input, with a clock of its own: what the kernel
/// does for `DeviceLoop` in the VM suite, done by a host test. The clock jumps
/// to the next scripted input, or to the loop's deadline when that comes
/// first; past ``end`` (or with nothing left and no deadline) the reader is
/// woken, and the loop finishes its devices.
///
/// It keeps the rules a real kernel keeps for the loop: a device's state is
/// what its frames left it in (a resync sets it), a clone exists only while
/// its device is grabbed, and every frame written is recorded with the
/// clock's time; an armed device's frames of motion alone are written as
/// they are read and handed out as `.forwarded`, as the kernel's reader does.
final class FakeDevices: DeviceIO {
    typealias Handle = Int

    /// A failure, as the kernel would say it.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What the script makes a device do at a time.
    enum Action {
        case frame([InputEvent])
        /// Events were lost; the device is now in this state (the resync frame is the difference).
        case resync(to: EvdevState)
        case remove
        /// The device appears (it is reported as opened).
        case plug
    }

    struct Written {
        var time: Int64
        var device: Int
        var events: [InputEvent]
        /// Whether it was written after the reader was woken (while the loop finished).
        var atStop: Bool
        /// Whether the reader wrote it as it read it (the device was armed), not the loop.
        var forwarded = false
    }

    private(set) var now: Int64
    /// When the reader is woken at the latest.
    var end: Int64
    private var script: [(time: Int64, device: Int, action: Action)]
    private var descriptions: [Int: DeviceFacts] = [:]
    private var states: [Int: EvdevState] = [:]
    /// The devices whose clone exists (and which are grabbed).
    private(set) var grabbed: Set<Int> = []
    private(set) var closed: Set<Int> = []
    private(set) var written: [Written] = []
    private(set) var stopped = false
    /// The devices whose reader forwards motion to the clone (``forwardMotion(_:of:)``).
    private(set) var armed: Set<Int> = []
    /// Every arming and disarming, in order.
    private(set) var armings: [(device: Int, armed: Bool)] = []
    /// Writes to these devices' clones fail.
    var failingClones: Set<Int> = []
    /// How long the CPU is elsewhere after each of the next writes to a
    /// clone (µs, one a write: the readers the write woke ran): the frames
    /// are stamped when written, as the kernel stamps them, then the clock
    /// moves on by it.
    var writeDelays: [Int64] = []
    /// Devices that cannot be taken from the desktop (no uinput).
    var unclonable: Set<Int> = []
    /// A read at or after this time fails.
    var readFailsAt: Int64?
    private(set) var reads = 0

    init(start: Int64, end: Int64) {
        now = start
        self.end = end
        script = []
    }

    /// Adds a device, open from the start (unless it is plugged in later by the script).
    func add(_ id: Int, _ facts: DeviceFacts, state: EvdevState = EvdevState()) {
        descriptions[id] = facts
        states[id] = state
    }

    /// Schedules `action` on device `id` at `time` (kept in time order, ties in the order given).
    func schedule(_ action: Action, device id: Int, at time: Int64) {
        let index = script.firstIndex { $0.time > time } ?? script.endIndex
        script.insert((time, id, action), at: index)
    }

    /// Schedules each frame at its `SYN_REPORT`'s time.
    func schedule(frames: [[InputEvent]], device id: Int) {
        for frame in frames { schedule(.frame(frame), device: id, at: frame.last!.microseconds) }
    }

    func nowMicroseconds() -> Int64 { now }

    func read(until deadline: Int64?) throws(Failure) -> DeviceInput<Int, Failure> {
        reads += 1
        guard reads < 1_000_000 else {
            Issue.record("the loop kept reading")
            stopped = true
            return DeviceInput(woken: true)
        }
        if let failing = readFailsAt, now >= failing { throw Failure(description: "the devices could not be read") }
        let next = script.first?.time
        if let deadline, next.map({ deadline < $0 }) ?? true {
            guard deadline <= end else { return wake() }
            if let failing = readFailsAt, deadline >= failing {
                now = max(now, failing); throw Failure(description: "the devices could not be read")
            }
            now = max(now, deadline)
            return DeviceInput()
        }
        guard let next, next <= end else { return wake() }
        if let failing = readFailsAt, next >= failing {
            now = max(now, failing); throw Failure(description: "the devices could not be read")
        }
        now = max(now, next)
        var input = DeviceInput<Int, Failure>()
        while let item = script.first, item.time <= now {
            script.removeFirst()
            switch item.action {
            case .frame(let events):
                states[item.device]?.apply(events)
                if armed.contains(item.device) && InterceptedDevice.isMotion(events) && !failingClones.contains(item.device) {
                    // Written to the clone as it is read, as the kernel's reader does
                    // (a failed write hands the frame out as an ordinary one).
                    record([events], of: item.device, forwarded: true)
                    input.items.append(.forwarded(item.device, events))
                } else {
                    input.items.append(.frame(item.device, events))
                }
            case .resync(let target):
                let difference = (states[item.device] ?? EvdevState()).events(reaching: target).map {
                    InputEvent(type: $0.type, code: $0.code, value: $0.value, microseconds: item.time)
                }
                states[item.device] = target
                input.items.append(
                    .resynced(item.device, difference + [InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: item.time)]))
            case .remove:
                grabbed.remove(item.device)
                input.items.append(.removed(item.device, Failure(description: "The device \(item.device) is gone.")))
            case .plug:
                input.items.append(.opened(item.device))
            }
        }
        return input
    }

    private func wake() -> DeviceInput<Int, Failure> {
        stopped = true
        now = max(now, end)
        return DeviceInput(woken: true)
    }

    func facts(of device: Int) -> DeviceFacts { descriptions[device]! }

    func state(of device: Int) -> EvdevState { states[device] ?? EvdevState() }

    func close(_ device: Int) {
        #expect(!grabbed.contains(device), "device \(device) closed while grabbed")
        closed.insert(device)
    }

    func intercept(_ device: Int) -> String? {
        guard !unclonable.contains(device) else { return nil }
        grabbed.insert(device)
        return "/dev/input/clone\(device)"
    }

    func writeClone(_ frames: [[InputEvent]], of device: Int) throws(Failure) {
        #expect(grabbed.contains(device), "written to the clone of device \(device), which has none")
        if failingClones.contains(device) { throw Failure(description: "Cannot write to /dev/uinput: No such device.") }
        record(frames, of: device, forwarded: false)
    }

    /// Records frames written to the clone (by the loop, or forwarded by the reader).
    private func record(_ frames: [[InputEvent]], of device: Int, forwarded: Bool) {
        for frame in frames {
            written.append(
                Written(time: now, device: device, events: frame.filter { !$0.isSynReport }, atStop: stopped, forwarded: forwarded))
        }
        if !writeDelays.isEmpty { now += writeDelays.removeFirst() }
    }

    func forwardMotion(_ armed: Bool, of device: Int) {
        #expect(!armed || grabbed.contains(device), "device \(device) armed without a clone")
        if armed { self.armed.insert(device) } else { self.armed.remove(device) }
        armings.append((device, armed))
    }

    func release(_ device: Int) {
        grabbed.remove(device)
        armed.remove(device)
    }
}
