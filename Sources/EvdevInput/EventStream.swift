internal import CLibevdev
import InputInterception
import SystemCalls
import TouchInput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One evdev node's events, read below libevdev: `read(2)` into a buffer of
/// `struct input_event`, cut into frames at their `SYN_REPORT`; the kernel's
/// `SYN_DROPPED` handled as its documentation asks (events dropped up to
/// the next `SYN_REPORT`, then the state read with `EVIOCGKEY`, `EVIOCGABS`
/// and `EVIOCGMTSLOTS`); and the state the frames handed out leave the
/// device in (``KernelState``), which a resync's difference starts from.
///
/// An intercepted device's stream also forwards: while
/// ``forwardsMotion`` is set and it has a ``cloneFileDescriptor``, a frame
/// of motion alone (no `EV_KEY`, no `ABS_MT_TRACKING_ID`) is written to the
/// clone as soon as it is read, before any Swift runs on it
/// (`gestures_evdev_take_frame`), and handed out as forwarded. A failed or
/// short write hands the frame out as not forwarded, so that the loop
/// writes it and, when that fails too, releases the device.
///
/// A partial frame stays in the buffer until the rest of it is read. A
/// frame longer than the buffer (``capacity`` events without a
/// `SYN_REPORT`, which no device sends) is treated as lost: the reader
/// resyncs.
final class EventStream {
    /// Events the buffer holds.
    static let capacity = 512

    /// What ``next()`` found.
    enum Next {
        /// A frame ending in its `SYN_REPORT`; `forwarded` when it went to the clone already.
        case frame([InputEvent], forwarded: Bool)
        /// The resync after `SYN_DROPPED`: the events from the state before to the
        /// kernel's, ending in `SYN_REPORT`.
        case resynced([InputEvent])
        /// The read failed (`.deviceGone` when the device went away).
        case failed(EvdevError)
        /// Nothing more to read now (`EAGAIN`).
        case empty
    }

    /// The uinput descriptor of the device's clone, or -1: set while the
    /// device is grabbed, cleared before the clone is destroyed.
    var cloneFileDescriptor: Int32 = -1
    /// Whether frames of motion alone go to the clone as they are read.
    var forwardsMotion = false
    /// The state the frames handed out so far leave the device in.
    private(set) var state: KernelState

    private let fileDescriptor: Int32
    private let path: String
    private let description: DeviceDescription
    private let buffer: UnsafeMutablePointer<input_event>
    /// Events in the buffer, from its start.
    private var count = 0
    /// After `SYN_DROPPED`, until the next `SYN_REPORT`.
    private var dropping = false

    /// A stream over the open node `fileDescriptor`, starting from the device's state now.
    /// The corresponding C function is `ioctl` (``KernelState/read(_:of:)``).
    convenience init(fileDescriptor: Int32, path: String, description: DeviceDescription) throws(EvdevError) {
        let state = try KernelState.read(fileDescriptor, of: description, path: path, operation: "read the state of")
        self.init(fileDescriptor: fileDescriptor, path: path, description: description, state: state)
    }

    /// A stream over `fileDescriptor` starting from `state` (a test's pipe, which has no state to read).
    init(fileDescriptor: Int32, path: String, description: DeviceDescription, state: KernelState) {
        self.fileDescriptor = fileDescriptor
        self.path = path
        self.description = description
        self.state = state
        buffer = .allocate(capacity: Self.capacity)
        buffer.initialize(repeating: input_event(), count: Self.capacity)
    }

    deinit { buffer.deallocate() }

    /// The next frame, resync, failure or `EAGAIN`: from what was read
    /// before, else from one `read`.
    /// The corresponding C functions are `read`, `write` and `ioctl`.
    func next() -> Next {
        while true {
            if count > 0 {
                var end = 0
                var forwarded: Int32 = 0
                let clone = forwardsMotion && !dropping ? cloneFileDescriptor : -1
                let found = gestures_evdev_take_frame(buffer, count, clone, &end, &forwarded)
                if found == Int32(GESTURES_EVDEV_DROPPED.rawValue) {
                    consume(end)
                    dropping = true
                    continue
                }
                if found == Int32(GESTURES_EVDEV_FRAME.rawValue) {
                    let time = Self.microseconds(buffer[end - 1])
                    if dropping {
                        consume(end)
                        dropping = false
                        return resync(at: time)
                    }
                    var frame: [InputEvent] = []
                    frame.reserveCapacity(end)
                    for index in 0..<end {
                        let event = buffer[index]
                        state.apply(type: event.type, code: event.code, value: event.value)
                        frame.append(
                            InputEvent(type: event.type, code: event.code, value: event.value, microseconds: Self.microseconds(event)))
                    }
                    consume(end)
                    return .frame(frame, forwarded: forwarded != 0)
                }
                if count == Self.capacity {
                    count = 0
                    dropping = true  // no frame ends in the whole buffer: resync at the next one
                }
            }
            let stride = MemoryLayout<input_event>.stride
            let free = UnsafeMutableRawBufferPointer(start: buffer + count, count: (Self.capacity - count) * stride)
            let bytes: Int
            do {
                bytes = try FileDescriptor(rawValue: fileDescriptor).read(into: free)
            } catch  where error == .wouldBlock {
                return .empty
            } catch {
                return .failed(EvdevError(errno: error.rawValue, operation: "read", path: path))
            }
            guard bytes > 0 else { return .failed(.deviceGone(path: path)) }
            count += bytes / stride
        }
    }

    /// Drops the first `events` of the buffer.
    private func consume(_ events: Int) {
        count -= events
        if count > 0 { memmove(buffer, buffer + events, count * MemoryLayout<input_event>.stride) }
    }

    /// Reads the kernel's state and gives the events from the state before to it.
    private func resync(at time: Int64) -> Next {
        do {
            let kernel = try KernelState.read(fileDescriptor, of: description, path: path, operation: "resync")
            let events = state.state(of: description).events(reaching: kernel.state(of: description))
            state = kernel
            return .resynced(
                events.map { InputEvent(type: $0.type, code: $0.code, value: $0.value, microseconds: time) }
                    + [InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: time)])
        } catch {
            return .failed(error)
        }
    }

    private static func microseconds(_ event: input_event) -> Int64 {
        Int64(event.time.tv_sec) * 1_000_000 + Int64(event.time.tv_usec)
    }
}

/// A device's keys, absolute axes and multitouch slots as the kernel keeps
/// them (key bits, one value an axis, one a slot and per-slot axis), in
/// fixed arrays that a frame updates without allocating.
struct KernelState {
    /// `KEY_CNT` bits.
    private(set) var keys = [UInt8](repeating: 0, count: 0x300 / 8)
    /// One value per `ABS_*` code (per-slot ones aside).
    private(set) var axes = [Int32](repeating: 0, count: 0x40)
    /// The per-slot axes, `perSlot` values a slot.
    private(set) var slots: [Int32]
    /// The slot `ABS_MT_*` events update.
    private(set) var currentSlot: Int32 = 0
    private let slotCount: Int

    /// `ABS_MT_TOUCH_MAJOR` ... `ABS_MT_TOOL_Y`.
    static let firstPerSlotAxis = ABS.MT_SLOT + 1
    static let perSlot = Int(EvdevState.lastPerSlotAxis - firstPerSlotAxis) + 1

    init(slotCount: Int) {
        self.slotCount = slotCount
        slots = [Int32](repeating: 0, count: slotCount * Self.perSlot)
        if slotCount > 0 {
            for slot in 0..<slotCount { slots[slot * Self.perSlot + Int(ABS.MT_TRACKING_ID - Self.firstPerSlotAxis)] = -1 }
        }
    }

    /// Applies one event, as the kernel does (a key is down for any value but 0).
    mutating func apply(type: UInt16, code: UInt16, value: Int32) {
        if type == EV.KEY {
            guard Int(code) < keys.count * 8 else { return }
            let bit = UInt8(1) << (code % 8)
            if value != 0 { keys[Int(code / 8)] |= bit } else { keys[Int(code / 8)] &= ~bit }
        } else if type == EV.ABS {
            if EvdevState.isPerSlot(code) {
                guard currentSlot >= 0, Int(currentSlot) < slotCount else { return }
                slots[Int(currentSlot) * Self.perSlot + Int(code - Self.firstPerSlotAxis)] = value
            } else if Int(code) < axes.count {
                axes[Int(code)] = value
                if code == ABS.MT_SLOT { currentSlot = value }
            }
        }
    }

    /// The value of `code`, in `slot` for per-slot axes.
    func value(type: UInt16, code: UInt16, slot: Int32 = -1) -> Int32 {
        if type == EV.KEY { return Int(code) < keys.count * 8 && keys[Int(code / 8)] & (1 << (code % 8)) != 0 ? 1 : 0 }
        guard type == EV.ABS else { return 0 }
        if EvdevState.isPerSlot(code) {
            guard slot >= 0, Int(slot) < slotCount else { return code == ABS.MT_TRACKING_ID ? -1 : 0 }
            return slots[Int(slot) * Self.perSlot + Int(code - Self.firstPerSlotAxis)]
        }
        return Int(code) < axes.count ? axes[Int(code)] : 0
    }

    /// The same state as an `EvdevState`: every key, axis and slot value of
    /// the codes `description` has, then the current slot.
    func state(of description: DeviceDescription) -> EvdevState {
        var state = EvdevState()
        func apply(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            state.apply(InputEvent(type: type, code: code, value: value, microseconds: 0))
        }
        for code in (description.codes[EV.KEY] ?? []).sorted() { apply(EV.KEY, code, value(type: EV.KEY, code: code)) }
        let axisCodes = (description.codes[EV.ABS] ?? []).sorted()
        for code in axisCodes where !EvdevState.isPerSlot(code) && code != ABS.MT_SLOT {
            apply(EV.ABS, code, value(type: EV.ABS, code: code))
        }
        if slotCount > 0 {
            for slot in 0..<Int32(slotCount) {
                apply(EV.ABS, ABS.MT_SLOT, slot)
                for code in axisCodes where EvdevState.isPerSlot(code) { apply(EV.ABS, code, value(type: EV.ABS, code: code, slot: slot)) }
            }
            apply(EV.ABS, ABS.MT_SLOT, currentSlot)
        }
        return state
    }

    /// The device's state now, from the kernel; a failure says `operation` and `path`.
    /// The corresponding C function is `ioctl` (`EVIOCGKEY`, `EVIOCGABS`, `EVIOCGMTSLOTS`).
    static func read(_ fd: Int32, of description: DeviceDescription, path: String, operation: String) throws(EvdevError) -> KernelState {
        var state = KernelState(slotCount: description.slotCount)
        if description.codes[EV.KEY].map({ !$0.isEmpty }) ?? false {
            let rc = state.keys.withUnsafeMutableBufferPointer { gestures_evdev_get_keys(fd, $0.baseAddress, Int32($0.count)) }
            guard rc == 0 else { throw EvdevError(errno: rc, operation: operation, path: path) }
        }
        let axisCodes = (description.codes[EV.ABS] ?? []).sorted()
        for code in axisCodes where !EvdevState.isPerSlot(code) && Int(code) < state.axes.count {
            var info = input_absinfo()
            let rc = gestures_evdev_get_abs(fd, UInt32(code), &info)
            guard rc == 0 else { throw EvdevError(errno: rc, operation: operation, path: path) }
            state.axes[Int(code)] = info.value
            if code == ABS.MT_SLOT { state.currentSlot = info.value }
        }
        if state.slotCount > 0 {
            var values = [Int32](repeating: 0, count: state.slotCount + 1)
            for code in axisCodes where EvdevState.isPerSlot(code) {
                values[0] = Int32(code)
                let rc = gestures_evdev_get_mt_slots(fd, &values, Int32(state.slotCount))
                guard rc == 0 else { throw EvdevError(errno: rc, operation: operation, path: path) }
                for slot in 0..<state.slotCount { state.slots[slot * perSlot + Int(code - firstPerSlotAxis)] = values[slot + 1] }
            }
        }
        return state
    }
}
