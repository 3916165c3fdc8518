import GestureRecognition
import TouchInput

/// One live device, everything between its kernel events and what reaches
/// its clone: its `GesturePipeline` (the decoder and engine a replay runs)
/// and, when it is intercepted, what decides what reaches the clone. For a
/// touchpad or touchscreen that is the ``PassThroughFilter``, which keeps
/// claimed gestures from the clone, and the ``ClonePacer``, which spaces
/// what goes out; for a mouse it is the pipeline's own `StrokeButtonFilter`
/// (an intercepted mouse withholds a press of its stroke button when the
/// policy asked as it goes down claims mouse strokes, and passes it at once
/// otherwise), whose frames go out as it gives them, with its `MouseDecision`s.
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
///     if device.forwardsMotion && InterceptedDevice.isMotion(frame) {
///         try clone.writeFrame(frame)   // what an armed reader does as it reads
///         device.noteForwarded(frame, nowMicroseconds: now)
///     }
///     let step = device.process(frame, nowMicroseconds: now)
///     let writing = clock()
///     for out in step.cloneFrames { try clone.writeFrame(out) }
///     device.noteCloneWritten(atMicroseconds: writing)
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
        /// A mouse's decisions in the call, in order (`GesturePipeline.takeDecisions()`):
        /// what became of each press of its stroke button.
        public var decisions: [MouseDecision] = []
        /// The frame the decoder made of the call's events (the last, when
        /// they closed more than one), or nil: what a watcher of the device
        /// draws (`DeviceLoop.Output.frame`).
        public var touch: TouchFrame?
    }

    /// The pipeline: decoder and engine.
    public private(set) var pipeline: GesturePipeline
    /// The filter deciding what reaches a touch device's clone, or nil when
    /// the device is not intercepted (read beside the desktop) or is a mouse.
    public private(set) var filter: PassThroughFilter?
    private var pacer = ClonePacer()
    /// Whether a mouse's clone gets what its pipeline withholds and passes on.
    private var clonesMouse = false

    /// A device described by `device` in `state` now (the reader's state: what
    /// a device opened while in use already holds), its gesture times counted
    /// from `originMicroseconds`; intercepted under `policy`, or read beside
    /// the desktop when it is nil (any policy intercepts a mouse: the
    /// claims of each press are asked as it happens, in
    /// ``process(_:nowMicroseconds:claims:)``). Nil when the pipeline takes no such device
    /// (`GesturePipeline.init(device:originMicroseconds:setup:)`).
    public init?(
        device: DeviceDescription, state: EvdevState = EvdevState(), setup: GesturePipeline.Setup,
        originMicroseconds: Int64, policy: PassThroughFilter.Policy?
    ) {
        var setup = setup
        setup.mouse.withholdsButton = policy != nil
        guard var pipeline = GesturePipeline(device: device, originMicroseconds: originMicroseconds, setup: setup) else { return nil }
        if let engine = pipeline.engine {
            pipeline.seed(from: state)  // contacts and keys already down when reading starts
            filter = policy.map { PassThroughFilter(device: device, deviceState: state, policy: $0, engine: engine.configuration) }
        } else {
            // A mouse starts from its events alone, as a replay of its recording does.
            clonesMouse = policy != nil
        }
        self.pipeline = pipeline
    }

    /// Whether a device described so can be read: it has a pipeline (a
    /// touchpad, a touchscreen or a mouse, `GesturePipeline.reads(_:)`).
    public static func reads(_ device: DeviceDescription) -> Bool {
        GesturePipeline.reads(device)
    }

    /// The device.
    public var device: DeviceDescription { pipeline.device }
    /// Whether the device is a mouse (its pipeline runs a `MouseStrokeEngine`).
    public var isMouse: Bool { pipeline.mouse != nil }
    /// Whether frames go to a clone.
    public var isIntercepted: Bool { filter != nil || clonesMouse }

    /// Whether a frame of motion alone (``isMotion(_:)``) read next would go
    /// to the clone verbatim whatever the engine makes of it: a touchpad's
    /// pointer motion while its frames pass (`PassThroughFilter.forwardsMotion`)
    /// and no frame waits in the pacer. While it holds, the reader may write
    /// such a frame to the clone as it reads it, before any recognition work
    /// (``DeviceIO/forwardMotion(_:of:)``); ``noteForwarded(_:nowMicroseconds:)``
    /// then tells the session, and ``process(_:nowMicroseconds:claims:)``
    /// takes the same frame next. Asked after every step.
    public var forwardsMotion: Bool {
        filter?.forwardsMotion == true && pacer.isEmpty
    }

    /// Whether `frame` (its events, ending in `SYN_REPORT`) is motion alone,
    /// which an armed reader forwards: no `EV_KEY` (no finger count, button
    /// or touch changes), no `ABS_MT_TRACKING_ID` (no contact lands or
    /// lifts), no `SYN_DROPPED` (events were lost: the reader resyncs), and
    /// some event besides `EV_SYN` before the `SYN_REPORT` that ends it
    /// (without one it is no frame yet). `EvdevInput`'s reader forwards by
    /// the same rule in C (`gestures_evdev_scan_frame` in `CLibevdev/shim.h`);
    /// `ForwardingRuleTests` holds the two to the same answer on every frame
    /// of `Recordings/` and on frames made at the rule's edges.
    ///
    ///     InterceptedDevice.isMotion([x, y, report])          // true
    ///     InterceptedDevice.isMotion([trackingID, x, report]) // false: a contact lands
    public static func isMotion(_ frame: [InputEvent]) -> Bool {
        var moves = false
        for event in frame {
            if event.type == EV.SYN {
                if event.code == SYN.REPORT { return moves }
                if event.code == SYN.DROPPED { return false }
            } else if event.type == EV.KEY || (event.type == EV.ABS && event.code == ABS.MT_TRACKING_ID) {
                return false
            } else {
                moves = true
            }
        }
        return false
    }

    /// Notes that `frame` went to the clone verbatim already, as the reader
    /// read it at `nowMicroseconds` (the device was armed,
    /// ``forwardsMotion``): the clone's state has it, the pacer spaces the
    /// next frame from it, and ``process(_:nowMicroseconds:claims:)`` with the
    /// same frame, which comes next, writes it no second time.
    public mutating func noteForwarded(_ frame: [InputEvent], nowMicroseconds now: Int64) {
        guard filter != nil else { return }
        filter!.noteForwarded(frame)
        pacer.passed(frame, nowMicroseconds: now)  // spaced from its time, which its SYN_REPORT shares
        pacer.noteWritten(atMicroseconds: now)
    }

    /// Takes one frame read from the device (its events, ending in
    /// `SYN_REPORT`) at `nowMicroseconds` (the events' clock). Between
    /// touches the filter takes the policy `claims` gives (a reload applies
    /// from the next touch); an intercepted mouse asks it when its stroke
    /// button goes down, and withholds the press only when the policy
    /// claims mouse strokes (``PassThroughFilter/Policy/claimsMouseStrokes``;
    /// else the press passes at once, a `MouseDecision.Kind.passed`). It is
    /// not asked for a device not intercepted.
    public mutating func process(
        _ frame: [InputEvent], nowMicroseconds now: Int64,
        claims: () -> PassThroughFilter.Policy = { PassThroughFilter.Policy() }
    ) -> Step {
        var step = Step()
        for event in frame {
            if let decoded = pipeline.process(event, into: &step.gestures, claimsButton: { claims().claimsMouseStrokes }) {
                step.touch = decoded
            }
        }
        takeDrawn(into: &step)
        // The filter changes in place (`filter!`): a copy changed and put back
        // would copy every buffer it changes, each frame.
        guard filter != nil, let status = pipeline.engine?.status else { return step }
        let before = filter!.mode
        if filter!.isIdle { filter!.policy = claims() }
        let out = filter!.process(frame, touch: step.touch, gestures: step.gestures, status: status)
        step.cloneFrames = pace(out, now: now)
        step.note(filter!, before: before)
        return step
    }

    /// Takes the reader's resync after `SYN_DROPPED` (the frame that brings the
    /// state up to date, ending in `SYN_REPORT`, and the state it leaves):
    /// the gesture in progress ends cancelled, as a replay of the recording
    /// cancels it (`EvdevReader.Output.traceEvents`), and the clone is brought
    /// to the device's state.
    public mutating func resynchronize(_ frame: [InputEvent], state: EvdevState, nowMicroseconds now: Int64) -> Step {
        var step = Step()
        if !isMouse { pipeline.seed(from: state) }
        let time = frame.first?.microseconds ?? now
        let marker = [
            InputEvent(type: EV.SYN, code: SYN.DROPPED, value: 0, microseconds: time),
            InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: time),
        ]
        for event in marker + frame {
            if let decoded = pipeline.process(event, into: &step.gestures) { step.touch = decoded }
        }
        takeDrawn(into: &step)
        guard filter != nil, let status = pipeline.engine?.status else { return step }
        let before = filter!.mode
        let out = filter!.resynchronize(frame, touch: step.touch, status: status)
        step.cloneFrames = pace(out, now: now)
        step.note(filter!, before: before)
        return step
    }

    /// The earliest time (microseconds, the events' clock) at which a timer
    /// is due: the engine's, the filter's or the pacer's; nil when none is.
    public var nextDeadlineMicroseconds: Int64? {
        var earliest = pipeline.nextDeadlineMicroseconds
        if let due = filter?.nextDeadlineMicroseconds, due < earliest ?? .max { earliest = due }
        if let due = pacer.nextDueMicroseconds, due < earliest ?? .max { earliest = due }
        return earliest
    }

    /// Fires the timers due by `now` (the events' clock): the engine's, each
    /// at its own time; the filter's, with what the engine gave; and the
    /// pacer lets out what may go now.
    public mutating func fireTimers(dueBy now: Int64) -> Step {
        var step = Step()
        step.gestures = pipeline.fireTimers(dueByMicroseconds: now)
        takeDrawn(into: &step)
        guard filter != nil, let status = pipeline.engine?.status else { return step }
        let before = filter!.mode
        var out: [[InputEvent]] = []
        if !step.gestures.isEmpty || filter!.nextDeadlineMicroseconds.map({ $0 <= now }) ?? false {
            out = filter!.advance(toMicroseconds: now, gestures: step.gestures, status: status)
        }
        step.cloneFrames = pace(out, now: now)
        step.note(filter!, before: before)
        return step
    }

    /// Ends the input (the reader stops): a gesture in progress ends
    /// cancelled, and the clone gets every frame still waiting and is brought
    /// to the device's state, at once, before it goes.
    public mutating func finish() -> Step {
        var step = Step()
        step.gestures = pipeline.finish()
        takeDrawn(into: &step)
        guard filter != nil else { return step }
        step.cloneFrames = pacer.drain() + filter!.finish()
        return step
    }

    /// The device went away: its gesture in progress ends cancelled (its
    /// clone goes with it, so nothing is written).
    public mutating func cancel() -> Step {
        var step = Step()
        step.gestures = pipeline.cancel()
        step.decisions = pipeline.takeDecisions()
        _ = pipeline.takeCloneFrames()
        filter = nil
        clonesMouse = false
        pacer = ClonePacer()
        return step
    }

    /// Notes that the latest step's clone frames were written at
    /// `microseconds` (the events' clock, read just before the write): the pacer
    /// spaces the next frame from the time the kernel stamped these
    /// (``ClonePacer/noteWritten(atMicroseconds:)``).
    public mutating func noteCloneWritten(atMicroseconds microseconds: Int64) {
        pacer.noteWritten(atMicroseconds: microseconds)
    }

    /// Stops intercepting (the clone could not be written to): from now on
    /// the device is read beside the desktop, and nothing is kept back.
    public mutating func stopIntercepting() {
        filter = nil
        pacer = ClonePacer()
        clonesMouse = false
        pipeline.stopWithholdingButton()
    }

    /// Takes what the pipeline drew and decided in the call: the strokes
    /// with their verdicts, a mouse's decisions and, when it is cloned, the
    /// frames its stroke button filter lets out.
    private mutating func takeDrawn(into step: inout Step) {
        step.strokes = pipeline.takeDrawnStrokes()
        step.decisions = pipeline.takeDecisions()
        let frames = pipeline.takeCloneFrames()
        if clonesMouse { step.cloneFrames = frames }
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
