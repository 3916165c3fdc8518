import GestureRecognition
import InputInterception
import Testing
import TouchInput

/// Protocol-B frames of fingers scripted in millimetres and milliseconds, as
/// a kernel would send them: only changed values, fingers beyond the slots
/// in `BTN_TOOL_*` only, `ABS_X`/`ABS_Y` following the first finger.
struct TouchScript {
    /// One finger: when it lands and lifts (ms from the start) and where it is (mm).
    struct Finger {
        var down: Int64
        var up: Int64
        var path: (Int64) -> Point

        /// A finger resting at `x`, `y` (mm) from `down` to `up`.
        static func still(_ x: Double, _ y: Double, down: Int64, up: Int64) -> Finger {
            Finger(down: down, up: up) { _ in Point(x: x, y: y) }
        }

        /// A finger at `x`, `y` moving `dx`, `dy` mm per 10 ms from `moveFrom` (ms) on.
        static func moving(_ x: Double, _ y: Double, dx: Double, dy: Double, down: Int64, up: Int64, moveFrom: Int64? = nil) -> Finger {
            Finger(down: down, up: up) { t in
                let steps = Double(max(0, t - (moveFrom ?? down))) / 10
                return Point(x: x + dx * steps, y: y + dy * steps)
            }
        }
    }

    var device: DeviceDescription
    var fingers: [Finger] = []
    /// When the clickpad button is held (ms from the start).
    var clicks: [ClosedRange<Int64>] = []
    var frameInterval: Int64 = 10
    /// The first frame's time, in microseconds.
    var start: Int64 = 5_000_000

    /// The frames, each ending in `SYN_REPORT`, until 20 ms after the last lift.
    func frames() -> [[InputEvent]] {
        let end = max(fingers.map(\.up).max() ?? 0, clicks.map(\.upperBound).max() ?? 0) + 20
        let slotCount = max(device.slotCount, 1)
        let x = device.absInfo[ABS.MT_POSITION_X] ?? device.absInfo[ABS.X]!
        let y = device.absInfo[ABS.MT_POSITION_Y] ?? device.absInfo[ABS.Y]!
        func units(_ point: Point) -> (Int32, Int32) {
            (
                x.minimum + Int32((point.x * Double(max(x.resolution, 1))).rounded()),
                y.minimum + Int32((point.y * Double(max(y.resolution, 1))).rounded())
            )
        }
        var state = EvdevState()
        var slotOf: [Int: Int] = [:]
        var nextTrackingID: Int32 = 100
        var frames: [[InputEvent]] = []
        var t: Int64 = 0
        while t <= end {
            let time = start + t * 1000
            var events: [InputEvent] = []
            func set(_ type: UInt16, _ code: UInt16, _ value: Int32, slot: Int32 = -1) {
                guard device.supports(type, code) else { return }
                if slot >= 0 {
                    guard state.value(type: type, code: code, slot: slot) != value else { return }
                    if state.currentSlot != slot {
                        let select = InputEvent(type: EV.ABS, code: ABS.MT_SLOT, value: slot, microseconds: time)
                        events.append(select)
                        state.apply(select)
                    }
                } else if state.value(type: type, code: code) == value {
                    return
                }
                let event = InputEvent(type: type, code: code, value: value, microseconds: time)
                events.append(event)
                state.apply(event)
            }
            let active = fingers.indices.filter { fingers[$0].down <= t && t < fingers[$0].up }
            for (index, slot) in slotOf.sorted(by: { $0.value < $1.value }) where !active.contains(index) {
                if slot >= 0 { set(EV.ABS, ABS.MT_TRACKING_ID, -1, slot: Int32(slot)) }
                slotOf[index] = nil
            }
            for index in active where slotOf[index] == nil {
                if let free = (0..<slotCount).first(where: { !slotOf.values.contains($0) }) {
                    slotOf[index] = free
                    set(EV.ABS, ABS.MT_TRACKING_ID, nextTrackingID, slot: Int32(free))
                    nextTrackingID += 1
                } else {
                    slotOf[index] = -1 - index  // beyond the slots: counted only
                }
            }
            for index in active {
                guard let slot = slotOf[index], slot >= 0 else { continue }
                let (px, py) = units(fingers[index].path(t))
                set(EV.ABS, ABS.MT_POSITION_X, px, slot: Int32(slot))
                set(EV.ABS, ABS.MT_POSITION_Y, py, slot: Int32(slot))
            }
            if let first = active.first(where: { (slotOf[$0] ?? -1) >= 0 }) {
                let (px, py) = units(fingers[first].path(t))
                set(EV.ABS, ABS.X, px)
                set(EV.ABS, ABS.Y, py)
            }
            set(EV.KEY, BTN.TOUCH, active.isEmpty ? 0 : 1)
            let tools: [UInt16] = [BTN.TOOL_FINGER, BTN.TOOL_DOUBLETAP, BTN.TOOL_TRIPLETAP, BTN.TOOL_QUADTAP, BTN.TOOL_QUINTTAP]
            for (index, tool) in tools.enumerated() where index + 1 != active.count { set(EV.KEY, tool, 0) }
            if active.count >= 1 && active.count <= 5 { set(EV.KEY, tools[active.count - 1], 1) }
            set(EV.KEY, BTN.LEFT, clicks.contains { $0.contains(t) } ? 1 : 0)
            events.append(InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: time))
            frames.append(events)
            t += frameInterval
        }
        return frames
    }
}

/// What the daemon's own loop (`DeviceLoop`, with its `InterceptedDevice`:
/// pipeline, hand-over filter, pacer, resync and the policy asked between
/// touches) did with a scripted device, read through ``FakeDevices``.
struct LoopRecording {
    /// The gestures of the device itself.
    var gestures: [GestureEvent] = []
    /// The frames written to the clone while reading, with the time they were written (µs).
    var written: [(time: Int64, events: [InputEvent])] = []
    /// The frames written when the loop finished (the reader woken).
    var writtenAtStop: [[InputEvent]] = []
    /// The modes the hand-over went through, without repeats.
    var modes: [PassThroughFilter.Mode] = [.passing]
    /// Everything the loop handed out, in order.
    var outputs: [DeviceLoop<FakeDevices>.Output] = []
    /// The warnings it gave.
    var warnings: [String] = []
    /// The devices, after the loop returned.
    var io: FakeDevices

    /// Device 1 of `frames`, intercepted under `policy` (or what `claims`
    /// gives at the fake clock's time, asked between touches), read by the loop until 2 s after the last frame, so that
    /// every timer fires. `prepare` may script more (a resync, an unplug).
    static func run(
        _ frames: [[InputEvent]], device: DeviceDescription, policy: PassThroughFilter.Policy,
        engine: GestureEngine.Configuration = GestureEngine.Configuration(),
        claims: ((_ nowMicroseconds: Int64) -> PassThroughFilter.Policy)? = nil,
        prepare: (FakeDevices) -> Void = { _ in }
    ) -> LoopRecording {
        // The clock starts at 0, so gesture times (counted from the loop's start) are the events' times.
        let io = FakeDevices(start: 0, end: (frames.last?.last?.microseconds ?? 0) + 2_000_000)
        io.add(1, DeviceFacts(node: "/dev/input/event1", description: device))
        io.schedule(frames: frames, device: 1)
        prepare(io)
        var recording = LoopRecording(io: io)
        let loop = DeviceLoop(
            io: io, devices: [1], intercepts: true,
            setup: { _ in GesturePipeline.Setup(configuration: engine) },
            claims: { _ in claims?(io.now) ?? policy },
            warn: { recording.warnings.append($0) })
        do {
            try loop.run { output in
                recording.outputs.append(output)
                switch output {
                case .gesture(let event, _): recording.gestures.append(event)
                case .handOver(let mode, _): if recording.modes.last != mode { recording.modes.append(mode) }
                case .opened, .removed, .stroke, .decision: break
                }
                return true
            }
        } catch {
            Issue.record("the loop failed: \(error)")
        }
        for write in io.written {
            if write.atStop { recording.writtenAtStop.append(write.events) } else { recording.written.append((write.time, write.events)) }
        }
        #expect(io.grabbed.isEmpty, "the loop ended with a device grabbed")
        return recording
    }

    /// The clone's events, each frame closed by a `SYN_REPORT` stamped with the time it was written.
    var cloneEvents: [InputEvent] {
        written.flatMap { time, events in
            events.map { InputEvent(type: $0.type, code: $0.code, value: $0.value, microseconds: time) }
                + [InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: time)]
        }
    }

    /// The distinct states the clone went through, frame by frame.
    var cloneStates: [EvdevState] { Self.states(written.map(\.events)) }

    /// The distinct states `frames` lead through, from an empty state.
    static func states(_ frames: [[InputEvent]]) -> [EvdevState] {
        var state = EvdevState()
        var states: [EvdevState] = []
        for frame in frames {
            state.apply(frame)
            if states.last != state { states.append(state) }
        }
        return states
    }

    /// What a replay of the clone's stream gives: what a desktop reading it could see.
    func cloneGestures(device: DeviceDescription) -> [GestureEvent] {
        var clone = GesturePipeline(device: device, originMicroseconds: 0)!
        var result: [GestureEvent] = []
        for event in cloneEvents {
            if let due = clone.nextDeadlineMicroseconds, due < event.microseconds {
                result += clone.fireTimers(dueByMicroseconds: event.microseconds - 1)
            }
            result += clone.process(event)
        }
        return result + clone.finish()
    }

    /// The most contacts the clone had down at once.
    var mostCloneContacts: Int { cloneStates.map(\.activeSlots.count).max() ?? 0 }
}

extension GestureEvent {
    /// `swipe begin 3`, `tap 2`: kind, phase and fingers, for comparing streams.
    var outline: String { [type.rawValue, phase?.rawValue, String(fingers)].compactMap { $0 }.joined(separator: " ") }
}

/// A seeded generator (SplitMix64's steps), so random scripts repeat.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
