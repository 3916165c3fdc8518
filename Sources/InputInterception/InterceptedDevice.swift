import GestureRecognition
import TouchInput

/// One live device, everything between its kernel events and what reaches
/// its clone: its `GesturePipeline` (the decoder and engine a replay runs)
/// and, when it is intercepted, the ``PassThroughFilter`` that keeps claimed
/// gestures from the clone and the ``ClonePacer`` that spaces what goes out.
///
/// Pure: events and times in, gestures and the frames to write to the clone
/// out; it reads no clock and makes no system call. ``DeviceLoop`` runs one
/// per device over the kernel (`EvdevInput`'s `EvdevDevices`) or over a
/// test's fake devices: the same type either way.
///
/// The order is fixed here, once: a frame goes through the pipeline; the
/// filter takes the frame the pipeline decoded, the gestures and the
/// engine's `GestureEngine/Status`; what the filter lets out goes to the
/// pacer; the pacer gives what may be written now. Timers (the engine's,
/// the filter's, the pacer's) fire through ``fireTimers(dueBy:)`` at
/// ``nextDeadlineMicroseconds``.
///
///     var device = InterceptedDevice(device: pad, setup: .init(), originMicroseconds: 0,
///                                    policy: .init(claims: [.init(gesture: .swipe, fingers: 3)]))!
///     let step = device.process(frame, nowMicroseconds: now)
///     for out in step.cloneFrames { try clone.writeFrame(out) }
///     for gesture in step.gestures { print(gesture.jsonLine) }
///     let wake = device.nextDeadlineMicroseconds
public struct InterceptedDevice: Sendable {
    /// What one call gives.
    public struct Step: Sendable {
        /// The gestures, in order.
        public var gestures: [GestureEvent] = []
        /// The frames to write to the clone now, in order, each without its
        /// `SYN_REPORT` (empty when the device is not intercepted).
        public var cloneFrames: [[InputEvent]] = []
        /// The hand-over's mode after the call, when the call changed it.
        public var mode: PassThroughFilter.Mode?
        /// Why the mode changed (with ``mode``), from the engine's finger
        /// count and decision: what a log says about the hand-over.
        public var reason: PassThroughFilter.Reason?
        /// The strokes the engine drew in the call, with the verdict of the
        /// stroke rule (`GesturePipeline.takeDrawnStrokes()`): a rejected one
        /// fired nothing, and says why.
        public var strokes: [DrawnStroke] = []
    }

    /// The pipeline: decoder and engine.
    public private(set) var pipeline: GesturePipeline
    /// The filter deciding what reaches the clone, or nil when the device is
    /// not intercepted (read beside the desktop).
    public private(set) var filter: PassThroughFilter?
    private var pacer = ClonePacer()

    /// A device described by `device` in `state` now (libevdev's state: what
    /// a device opened while in use already holds), its gesture times counted
    /// from `originMicroseconds`; intercepted under `policy`, or read beside
    /// the desktop when it is nil. Nil when the pipeline takes no such device
    /// (`GesturePipeline.init(device:originMicroseconds:setup:)`).
    public init?(
        device: DeviceDescription, state: EvdevState = EvdevState(), setup: GesturePipeline.Setup,
        originMicroseconds: Int64, policy: PassThroughFilter.Policy?
    ) {
        // A touch surface's: a mouse's pipeline (no GestureEngine) is read by LiveMouseStrokes for now.
        guard var pipeline = GesturePipeline(device: device, originMicroseconds: originMicroseconds, setup: setup),
            let engine = pipeline.engine
        else {
            return nil
        }
        pipeline.seed(from: state)  // contacts and keys already down when reading starts
        self.pipeline = pipeline
        filter = policy.map { PassThroughFilter(device: device, deviceState: state, policy: $0, engine: engine.configuration) }
    }

    /// Whether a device described so can be read: it has a pipeline (a
    /// touchpad or a touchscreen, `GesturePipeline.surface(for:)`).
    public static func reads(_ device: DeviceDescription) -> Bool {
        GesturePipeline.surface(for: device) != nil
    }

    /// The device.
    public var device: DeviceDescription { pipeline.device }
    /// What the engine is doing (the init takes only pipelines with a `GestureEngine`).
    private var engineStatus: GestureEngine.Status { pipeline.engine!.status }
    /// Whether frames go to a clone.
    public var isIntercepted: Bool { filter != nil }

    /// Takes one frame read from the device (its events, ending in
    /// `SYN_REPORT`) at `nowMicroseconds` (the events' clock). Between
    /// touches the filter takes the policy `claims` gives (a reload applies
    /// from the next touch); it is not asked for a device not intercepted.
    public mutating func process(
        _ frame: [InputEvent], nowMicroseconds now: Int64,
        claims: () -> PassThroughFilter.Policy = { PassThroughFilter.Policy() }
    ) -> Step {
        var step = Step()
        var touch: TouchFrame?
        for event in frame {
            if let decoded = pipeline.process(event, into: &step.gestures) { touch = decoded }
        }
        step.strokes = pipeline.takeDrawnStrokes()
        guard var filter else { return step }
        let before = filter.mode
        if filter.isIdle { filter.policy = claims() }
        let out = filter.process(frame, touch: touch, gestures: step.gestures, status: engineStatus)
        self.filter = filter
        step.cloneFrames = pace(out, now: now)
        step.note(filter, before: before)
        return step
    }

    /// Takes libevdev's resync after `SYN_DROPPED` (the frame that brings the
    /// state up to date, ending in `SYN_REPORT`, and the state it leaves):
    /// the gesture in progress ends cancelled, as a replay of the recording
    /// cancels it (`EvdevReader.Output.traceEvents`), and the clone is brought
    /// to the device's state.
    public mutating func resynchronize(_ frame: [InputEvent], state: EvdevState, nowMicroseconds now: Int64) -> Step {
        var step = Step()
        pipeline.seed(from: state)
        let time = frame.first?.microseconds ?? now
        let marker = [
            InputEvent(type: EV.SYN, code: SYN.DROPPED, value: 0, microseconds: time),
            InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: time),
        ]
        var touch: TouchFrame?
        for event in marker + frame {
            if let decoded = pipeline.process(event, into: &step.gestures) { touch = decoded }
        }
        step.strokes = pipeline.takeDrawnStrokes()
        guard var filter else { return step }
        let before = filter.mode
        let out = filter.resynchronize(frame, touch: touch, status: engineStatus)
        self.filter = filter
        step.cloneFrames = pace(out, now: now)
        step.note(filter, before: before)
        return step
    }

    /// The earliest time (microseconds, the events' clock) at which a timer
    /// is due: the engine's, the filter's or the pacer's; nil when none is.
    public var nextDeadlineMicroseconds: Int64? {
        [pipeline.nextDeadlineMicroseconds, filter?.nextDeadlineMicroseconds, pacer.nextDueMicroseconds].compactMap { $0 }.min()
    }

    /// Fires the timers due by `now` (the events' clock): the engine's, each
    /// at its own time; the filter's, with what the engine gave; and the
    /// pacer lets out what may go now.
    public mutating func fireTimers(dueBy now: Int64) -> Step {
        var step = Step()
        step.gestures = pipeline.fireTimers(dueByMicroseconds: now)
        guard var filter else { return step }
        let before = filter.mode
        var out: [[InputEvent]] = []
        if !step.gestures.isEmpty || filter.nextDeadlineMicroseconds.map({ $0 <= now }) ?? false {
            out = filter.advance(toMicroseconds: now, gestures: step.gestures, status: engineStatus)
        }
        self.filter = filter
        step.cloneFrames = pace(out, now: now)
        step.note(filter, before: before)
        return step
    }

    /// Ends the input (the reader stops): a gesture in progress ends
    /// cancelled, and the clone gets every frame still waiting and is brought
    /// to the device's state, at once, before it goes.
    public mutating func finish() -> Step {
        var step = Step()
        step.gestures = pipeline.finish()
        step.strokes = pipeline.takeDrawnStrokes()
        guard var filter else { return step }
        step.cloneFrames = pacer.drain() + filter.finish()
        self.filter = filter
        return step
    }

    /// The device went away: its gesture in progress ends cancelled (its
    /// clone goes with it, so nothing is written).
    public mutating func cancel() -> Step {
        var step = Step()
        step.gestures = pipeline.cancel()
        filter = nil
        pacer = ClonePacer()
        return step
    }

    /// Stops intercepting (the clone could not be written to): from now on
    /// the device is read beside the desktop, and nothing is kept back.
    public mutating func stopIntercepting() {
        filter = nil
        pacer = ClonePacer()
    }

    /// The description the device's clone is made from
    /// (`PassThroughFilter.cloneDescription(of:)`: the device's, and the
    /// contact tool axis the hand-over cancels the clone's contacts with).
    public static func cloneDescription(of device: DeviceDescription) -> DeviceDescription {
        GesturePipeline.surface(for: device) == nil ? device : PassThroughFilter.cloneDescription(of: device)
    }

    /// Queues what the filter let out behind what waits, and takes what may go at `now`.
    private mutating func pace(_ frames: [[InputEvent]], now: Int64) -> [[InputEvent]] {
        pacer.enqueue(frames, atOriginalPace: filter?.releasedWholeTouch ?? false)
        return pacer.take(nowMicroseconds: now)
    }
}

extension InterceptedDevice.Step {
    /// Notes the filter's mode and reason when the call changed the mode.
    fileprivate mutating func note(_ filter: PassThroughFilter, before: PassThroughFilter.Mode) {
        guard filter.mode != before else { return }
        mode = filter.mode
        reason = filter.reason
    }
}
