import DeviceScripts
import GestureRecognition
import InputInterception
import TestSupport
import Testing
import TouchInput

/// What the daemon's own loop (`DeviceLoop`, with its `InterceptedDevice`:
/// pipeline, hand-over filter, pacer, resync and the policy asked between
/// touches) did with a scripted device, read through ``ScriptedDevices``.
struct LoopRecording {
    /// The gestures of the device itself.
    var gestures: [GestureEvent] = []
    /// The frames written to the clone while reading, with the time they were written (µs).
    var written: [(time: Int64, events: [InputEvent])] = []
    /// The frames written when the loop finished (the reader woken).
    var writtenAtStop: [[InputEvent]] = []
    /// The modes the hand-over went through, without repeats.
    var modes: [PassThroughFilter.Mode] = [.passing]
    /// Why the hand-over changed mode, each time it did.
    var reasons: [PassThroughFilter.Reason] = []
    /// Everything the loop handed out, in order.
    var outputs: [DeviceLoop<ScriptedDevices>.Output] = []
    /// The warnings it gave.
    var warnings: [String] = []
    /// The devices, after the loop returned.
    var io: ScriptedDevices

    /// Device 1 of `frames`, intercepted under `policy` (or what `claims`
    /// gives at the fake clock's time, asked between touches), read by the loop until 2 s after the last frame, so that
    /// every timer fires. `prepare` may script more (a resync, an unplug).
    static func run(
        _ frames: [[InputEvent]], device: DeviceDescription, policy: PassThroughFilter.Policy,
        engine: GestureEngine.Configuration = GestureEngine.Configuration(),
        claims: ((_ nowMicroseconds: Int64) -> PassThroughFilter.Policy)? = nil,
        prepare: (ScriptedDevices) -> Void = { _ in }
    ) -> LoopRecording {
        // The clock starts at 0, so gesture times (counted from the loop's start) are the events' times.
        let io = ScriptedDevices(start: 0, end: (frames.last?.last?.microseconds ?? 0) + 2_000_000)
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
                case .handOver(let mode, let reason, _):
                    if recording.modes.last != mode { recording.modes.append(mode) }
                    recording.reasons.append(reason)
                case .opened, .removed, .stroke, .decision, .frame, .events: break
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
        #expect(io.armed.isEmpty, "the loop ended with a device's forwarding armed")
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

    /// Whether a frame turns contacts into palms (the hand-over cancelling the clone's contacts).
    static func cancels(_ frame: [InputEvent]) -> Bool {
        frame.contains { $0.type == EV.ABS && $0.code == ABS.MT_TOOL_TYPE && $0.value == MT_TOOL.PALM }
    }

    /// How many times the hand-over cancelled the clone's contacts.
    var cancelCount: Int { written.filter { Self.cancels($0.events) }.count }

    /// The distinct states the clone went through as the device's states
    /// read: its contact tool axis (which the device lacks) left out, and so
    /// are its cancels (the palm frame and the lift after it), so that what
    /// is left can be compared with the device's states.
    var cloneStatesLeavingOutCancels: [EvdevState] {
        var state = EvdevState()
        var states: [EvdevState] = []
        var afterCancel = false
        for frame in written.map(\.events) {
            let cancel = Self.cancels(frame)
            state.apply(frame.filter { !($0.type == EV.ABS && $0.code == ABS.MT_TOOL_TYPE) })
            defer { afterCancel = cancel }
            if cancel || afterCancel { continue }
            if states.last != state { states.append(state) }
        }
        return states
    }

    /// The distinct states `frames` lead through, from an empty state.
    static func states(_ frames: [[InputEvent]]) -> [EvdevState] { EvdevState.distinctStates(frames) }

    /// What a replay of the clone's stream gives: what a desktop reading it could see.
    /// The gestures the engine makes of the clone's events
    /// (``oracleGestures(of:device:)``).
    func cloneGestures(device: DeviceDescription) -> [GestureEvent] {
        Self.oracleGestures(of: cloneEvents, device: device)
    }

    /// The gestures the engine makes of `events`, as the judge of what a
    /// clone gives: the clone ends the contacts it had sent, as palms, when
    /// a claimed count lands, and sends them again as new contacts if the
    /// gesture turns out unclaimed. The engine's own rules for pads that
    /// lose a palm and find it again (``GestureEngine/Configuration/relandingGap``)
    /// would read those as palms, so they are off here, for the device's
    /// events and the clone's alike. libinput, which reads the clone on a
    /// desktop, has no such rule; the VM suite's fidelity checks read the
    /// clone with libinput itself.
    static func oracleGestures(of events: [InputEvent], device: DeviceDescription) -> [GestureEvent] {
        var configuration = GestureEngine.Configuration()
        configuration.relandingGap = .zero
        var clone = GesturePipeline(device: device, originMicroseconds: 0, setup: .init(configuration: configuration))!
        var result: [GestureEvent] = []
        for event in events {
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
