import InputInterception
import TouchInput

/// A ``DeviceIO`` over scripted input, with a clock of its own: what the
/// kernel does for `DeviceLoop`, done without one. The host tests run the
/// loop over it, and `gestures bench` times the daemon's forwarding over it;
/// the one fake of the seam, so that the kernel's rules are enacted once.
///
/// The clock jumps to the next scripted action, or to the loop's deadline
/// when that comes first; past ``end`` (or with nothing left and no
/// deadline) the reader is woken, and the loop finishes its devices.
///
/// It keeps the rules a real kernel keeps for the loop: a device's state is
/// what its frames left it in (a resync sets it), a clone exists only while
/// its device is grabbed, and every frame written is recorded with the
/// clock's time; an armed device's frames of motion alone
/// (`InterceptedDevice.isMotion`, the rule the reader forwards by in C) are
/// written as they are read and handed out as `.forwarded`, as the kernel's
/// reader does. A caller that breaks a rule (closes a grabbed device,
/// writes to a clone that does not exist, arms a device without one, keeps
/// reading with nothing coming) is told through `brokenRule`, one sentence
/// each.
///
///     let io = ScriptedDevices(start: 0, end: 2_000_000, brokenRule: { print($0) })
///     io.add(1, DeviceFacts(node: "/dev/input/event1", description: pad))
///     io.schedule(frames: frames, device: 1)
///     let loop = DeviceLoop(io: io, devices: [1], intercepts: true, setup: { _ in .init() }, warn: { print($0) })
///     try loop.run { _ in true }
///     io.written.count   // the frames the clone got
///
/// - Complexity: each read O(actions handed out); scheduling in time order
///   is O(1) a frame (O(actions) for one out of order); a device's state is
///   brought up to date when asked, O(frames since it was last asked).
public final class ScriptedDevices: DeviceIO {
    public typealias Handle = Int

    /// A failure, as the kernel would say it.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// What the script makes a device do at a time.
    public enum Action {
        /// A frame, ending in its `SYN_REPORT`.
        case frame([InputEvent])
        /// Events were lost; the device is now in this state (the resync frame is the difference).
        case resync(to: EvdevState)
        /// The device goes away.
        case remove
        /// The device appears (it is reported as opened).
        case plug
    }

    /// One frame written to a clone.
    public struct Written {
        /// The clock's time when it was written (µs).
        public var time: Int64
        /// The device whose clone got it.
        public var device: Int
        /// The frame as it was written.
        public var frame: [InputEvent]
        /// Whether it was written after the reader was woken (while the loop finished).
        public var atStop: Bool
        /// Whether the reader wrote it as it read it (the device was armed), not the loop.
        public var forwarded: Bool

        /// Its events without the `SYN_REPORT` (a forwarded frame has one, the loop's have none).
        public var events: [InputEvent] { frame.filter { !$0.isSynReport } }
    }

    /// The clock (µs).
    public private(set) var now: Int64
    /// When the reader is woken at the latest.
    public var end: Int64
    /// Whether every written frame is kept in ``written`` (a benchmark keeps the counts alone).
    public var keepsWritten = true
    /// Writes to these devices' clones fail.
    public var failingClones: Set<Int> = []
    /// How long the CPU is elsewhere after each of the next writes to a
    /// clone (µs, one a write: the readers the write woke ran): the frames
    /// are stamped when written, as the kernel stamps them, then the clock
    /// moves on by it.
    public var writeDelays: [Int64] = []
    /// Devices that cannot be taken from the desktop (no uinput).
    public var unclonable: Set<Int> = []
    /// A read at or after this time fails.
    public var readFailsAt: Int64?

    /// The devices whose clone exists (and which are grabbed).
    public private(set) var grabbed: Set<Int> = []
    /// The devices closed.
    public private(set) var closed: Set<Int> = []
    /// Every frame written to a clone, in order (while ``keepsWritten``).
    public private(set) var written: [Written] = []
    /// Events written to clones, summed over the frames as they were given.
    public private(set) var writtenEvents = 0
    /// Whether the reader was woken.
    public private(set) var stopped = false
    /// The devices whose reader forwards motion to the clone (``forwardMotion(_:of:)``).
    public private(set) var armed: Set<Int> = []
    /// Every arming and disarming, in order.
    public private(set) var armings: [(device: Int, armed: Bool)] = []
    /// The reads so far.
    public private(set) var reads = 0
    /// Nanoseconds from each read that handed out a frame to the first write
    /// to a clone after it, summed: what a reader makes the desktop wait.
    public private(set) var nanosecondsBeforeWrite: Int64 = 0

    private let brokenRule: (String) -> Void
    /// The script, in time order; what is before ``cursor`` has happened.
    private var script: [(time: Int64, device: Int, action: Action)] = []
    private var cursor = 0
    private var descriptions: [Int: DeviceFacts] = [:]
    /// Each device's state, as the script's actions before `through` left it.
    private var states: [Int: (state: EvdevState, through: Int)] = [:]
    /// Reads in a row that handed out nothing and left the clock where it was.
    private var idleReads = 0
    private let clock = ContinuousClock()
    private var readAt: ContinuousClock.Instant?

    /// Devices whose clock starts at `start` (µs) and whose reader is woken
    /// at `end` at the latest; a broken rule is said to `brokenRule`.
    public init(start: Int64, end: Int64, brokenRule: @escaping (String) -> Void) {
        now = start
        self.end = end
        self.brokenRule = brokenRule
    }

    /// Adds a device, open from the start (unless it is plugged in later by the script).
    public func add(_ id: Int, _ facts: DeviceFacts, state: EvdevState = EvdevState()) {
        descriptions[id] = facts
        states[id] = (state, cursor)
    }

    /// Schedules `action` on device `id` at `time` (kept in time order, ties in the order given).
    public func schedule(_ action: Action, device id: Int, at time: Int64) {
        if let last = script.last, last.time > time {
            let index = script[cursor...].firstIndex { $0.time > time } ?? script.endIndex
            script.insert((time, id, action), at: index)
        } else {
            script.append((time, id, action))
        }
    }

    /// Schedules each frame at its `SYN_REPORT`'s time.
    public func schedule(frames: [[InputEvent]], device id: Int) {
        script.reserveCapacity(script.count + frames.count)
        for frame in frames { schedule(.frame(frame), device: id, at: frame.last?.microseconds ?? now) }
    }

    public func nowMicroseconds() -> Int64 { now }

    public func read(until deadline: Int64?) throws(Failure) -> DeviceInput<Int, Failure> {
        reads += 1
        let clockBefore = now
        let input = try take(until: deadline)
        if input.items.isEmpty && !input.woken && now == clockBefore {
            idleReads += 1
            if idleReads > 10_000 {
                brokenRule("the loop kept reading at \(now) µs with nothing coming")
                return wake()
            }
        } else {
            idleReads = 0
        }
        return input
    }

    private func take(until deadline: Int64?) throws(Failure) -> DeviceInput<Int, Failure> {
        if let failing = readFailsAt, now >= failing { throw Failure(description: "the devices could not be read") }
        let next = cursor < script.count ? script[cursor].time : nil
        if let deadline, next.map({ deadline < $0 }) ?? true {
            guard deadline <= end else { return wake() }
            if let failing = readFailsAt, deadline >= failing {
                now = max(now, failing)
                throw Failure(description: "the devices could not be read")
            }
            now = max(now, deadline)
            return DeviceInput()
        }
        guard let next, next <= end else { return wake() }
        if let failing = readFailsAt, next >= failing {
            now = max(now, failing)
            throw Failure(description: "the devices could not be read")
        }
        now = max(now, next)
        var input = DeviceInput<Int, Failure>()
        while cursor < script.count, script[cursor].time <= now {
            let item = script[cursor]
            cursor += 1
            switch item.action {
            case .frame(let events):
                let forwarded = readFrame(events, of: item.device)
                input.items.append(forwarded ? .forwarded(item.device, events) : .frame(item.device, events))
            case .resync(let target):
                let before = stateBringingUpToDate(item.device, through: cursor - 1)
                let difference = before.events(reaching: target).map {
                    InputEvent(type: $0.type, code: $0.code, value: $0.value, microseconds: item.time)
                }
                states[item.device] = (target, cursor)
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

    /// The next scripted frame, read as a reader without a loop reads it
    /// (no deadline): the clock moves to its time, and an armed device's
    /// frame of motion alone is written to its clone first (`forwarded`).
    /// Nil when the script's next action is no frame, or comes after ``end``.
    public func nextFrame() -> (device: Int, events: [InputEvent], forwarded: Bool)? {
        guard cursor < script.count, script[cursor].time <= end, case .frame(let events) = script[cursor].action else { return nil }
        let device = script[cursor].device
        now = max(now, script[cursor].time)
        cursor += 1
        return (device, events, readFrame(events, of: device))
    }

    /// A frame read: timed from now to the next write; written to the
    /// clone as it is read when the device is armed and it is motion alone.
    private func readFrame(_ events: [InputEvent], of device: Int) -> Bool {
        readAt = clock.now
        guard !armed.isEmpty, armed.contains(device), InterceptedDevice.isMotion(events), !failingClones.contains(device) else {
            return false
        }
        // A failed write hands the frame out as an ordinary one, as the kernel's reader does.
        record(events, of: device, forwarded: true)
        return true
    }

    private func wake() -> DeviceInput<Int, Failure> {
        stopped = true
        now = max(now, end)
        return DeviceInput(woken: true)
    }

    public func facts(of device: Int) -> DeviceFacts {
        descriptions[device] ?? DeviceFacts(node: "", description: DeviceDescription(name: ""))
    }

    public func state(of device: Int) -> EvdevState { stateBringingUpToDate(device, through: cursor) }

    /// The device's state once the script's actions before `index` are applied.
    private func stateBringingUpToDate(_ device: Int, through index: Int) -> EvdevState {
        guard var (state, through) = states[device] else { return EvdevState() }
        while through < index {
            if script[through].device == device {
                switch script[through].action {
                case .frame(let events): state.apply(events)
                case .resync(let target): state = target
                case .remove, .plug: break
                }
            }
            through += 1
        }
        states[device] = (state, through)
        return state
    }

    public func close(_ device: Int) {
        if grabbed.contains(device) { brokenRule("device \(device) closed while grabbed") }
        closed.insert(device)
    }

    public func intercept(_ device: Int) -> String? {
        guard !unclonable.contains(device) else { return nil }
        grabbed.insert(device)
        return "/dev/input/clone\(device)"
    }

    public func writeClone(_ frames: [[InputEvent]], of device: Int) throws(Failure) {
        if !grabbed.contains(device) { brokenRule("written to the clone of device \(device), which has none") }
        if failingClones.contains(device) { throw Failure(description: "Cannot write to /dev/uinput: No such device.") }
        for frame in frames { record(frame, of: device, forwarded: false) }
        if !writeDelays.isEmpty { now += writeDelays.removeFirst() }
    }

    /// Writes one frame to a device's clone by hand (what a plain
    /// forwarder does, no loop): counted, timed and recorded as
    /// ``writeClone(_:of:)`` records it.
    public func write(_ frame: [InputEvent], toCloneOf device: Int) {
        if !grabbed.contains(device) { brokenRule("written to the clone of device \(device), which has none") }
        record(frame, of: device, forwarded: false)
    }

    /// Records one frame written to a clone (by the loop, or forwarded by the reader).
    private func record(_ frame: [InputEvent], of device: Int, forwarded: Bool) {
        if let readAt {
            let (seconds, attoseconds) = (clock.now - readAt).components
            nanosecondsBeforeWrite += seconds * 1_000_000_000 + attoseconds / 1_000_000_000
            self.readAt = nil
        }
        writtenEvents += frame.count
        if keepsWritten {
            written.append(Written(time: now, device: device, frame: frame, atStop: stopped, forwarded: forwarded))
        }
        if forwarded, !writeDelays.isEmpty { now += writeDelays.removeFirst() }
    }

    public func forwardMotion(_ armed: Bool, of device: Int) {
        if armed && !grabbed.contains(device) { brokenRule("device \(device) armed without a clone") }
        if armed { self.armed.insert(device) } else { self.armed.remove(device) }
        armings.append((device, armed))
    }

    public func release(_ device: Int) {
        grabbed.remove(device)
        armed.remove(device)
    }
}
