import GestureRecognition

/// The whole way from one device's kernel events to gestures: a
/// ``MultitouchDecoder`` feeding a `GestureEngine`.
///
/// `GestureReplay` runs one per device of a trace and the live reader
/// (`LiveGestures`) one per open device, so a live device gives exactly what
/// a replay of its recording gives. Events after `SYN_DROPPED` cancel the
/// gesture in progress (the frame they complete has `followsDroppedEvents`).
///
/// ```swift
/// var pipeline = GesturePipeline(device: pad, originMicroseconds: 0)!
/// for event in events { for gesture in pipeline.process(event) { print(gesture.jsonLine) } }
/// for gesture in pipeline.finish() { print(gesture.jsonLine) }
/// ```
public struct GesturePipeline: Sendable {
    /// The device the events come from.
    public let device: DeviceDescription
    /// The time, in the events' clock (microseconds), that gesture times count from.
    public let originMicroseconds: Int64
    /// The decoder: events in, touch frames out.
    public private(set) var decoder: MultitouchDecoder
    /// The engine: touch frames in, gestures out.
    public private(set) var engine: GestureEngine

    /// What a pipeline's engine is built with: the one description of it that
    /// replay (`GestureReplay`), live input (`LiveGestures`) and the daemon share.
    public struct Setup: Sendable {
        /// The engine's thresholds, sequences and stroke trigger.
        public var configuration: GestureEngine.Configuration
        /// The templates drawn strokes are recognised against.
        public var templates: TemplateLibrary

        /// A setup; the defaults are the engine's and the bundled $1 shapes.
        public init(configuration: GestureEngine.Configuration = GestureEngine.Configuration(),
                    templates: TemplateLibrary = .dollarShapes) {
            self.configuration = configuration
            self.templates = templates
        }
    }

    /// A pipeline for `device`, or nil when it is neither a touchpad nor a
    /// touchscreen (see ``surface(for:)``).
    public init?(device: DeviceDescription, originMicroseconds: Int64, setup: Setup = Setup()) {
        guard let surface = Self.surface(for: device) else { return nil }
        self.device = device
        self.originMicroseconds = originMicroseconds
        decoder = MultitouchDecoder(device: device)
        engine = GestureEngine(surface: surface, configuration: setup.configuration, templates: setup.templates)
    }

    /// The surface the engine sees for `device`, or nil when the device is
    /// neither a touchpad nor a touchscreen. Semi-MT pads are read as one
    /// contact plus the BTN_TOOL count, so their positions are approximate.
    public static func surface(for device: DeviceDescription) -> GestureSurface? {
        let kind: GestureSurface.Kind
        switch device.kind {
        case .touchpad: kind = .touchpad
        case .touchscreen: kind = .touchscreen
        case .mouse, .tablet, .other: return nil
        }
        guard let size = device.sizeMillimeters else { return nil }
        return GestureSurface(kind: kind, widthMillimeters: size.width, heightMillimeters: size.height,
                              positionsAreApproximate: device.isSemiMT)
    }

    /// The engine's input for one decoded frame; times count from `origin` (microseconds).
    /// Each contact carries its pressure, else its touch size (device units),
    /// and the frame whether a button is held (any of BTN_LEFT ... BTN_TASK).
    public static func gestureFrame(_ frame: TouchFrame, origin: Int64) -> GestureFrame {
        GestureFrame(
            time: EventTime.duration(from: origin, to: frame.microseconds),
            contacts: frame.contacts.map {
                GestureFrame.Contact(id: $0.id, position: $0.position, isPalm: $0.isPalm,
                                     pressure: ($0.pressure ?? $0.touchMajor).map(Double.init))
            },
            fingerCount: max(frame.fingerCount, frame.contacts.count),
            isButtonDown: !frame.buttons.isEmpty)
    }

    /// Takes the device's state when reading starts or after a resync
    /// (``MultitouchDecoder/seed(currentSlot:value:)``); the engine sees it at the next frame.
    public mutating func seed(currentSlot: Int32, value: (_ type: UInt16, _ code: UInt16, _ slot: Int32) -> Int32) {
        decoder.seed(currentSlot: currentSlot, value: value)
    }

    /// Takes one kernel event; at a `SYN_REPORT` the frame goes to the engine
    /// (after `cancel()` when the frame follows dropped events).
    public mutating func process(_ event: InputEvent) -> [GestureEvent] {
        guard let touch = decoder.process(event) else { return [] }
        return process(touch)
    }

    private mutating func process(_ touch: TouchFrame) -> [GestureEvent] {
        var events: [GestureEvent] = []
        if touch.followsDroppedEvents { events += engine.cancel() }
        events += engine.process(Self.gestureFrame(touch, origin: originMicroseconds))
        return events
    }

    /// The earliest time (microseconds, in the events' clock) at which the
    /// engine has a timer due, or nil.
    public var nextDeadlineMicroseconds: Int64? {
        engine.nextDeadline.map { EventTime.adding(EventTime.microseconds(roundingUp: $0), to: originMicroseconds) }
    }

    /// Lets time pass to `microseconds` (the events' clock) without a frame:
    /// fires the timers due by then.
    public mutating func advance(toMicroseconds microseconds: Int64) -> [GestureEvent] {
        engine.advance(to: EventTime.duration(from: originMicroseconds, to: microseconds))
    }

    /// Fires the timers due by `microseconds` (the events' clock), each at
    /// its own time, without moving the engine's clock past the last of them
    /// (`GestureEngine.fireTimers(dueBy:)`): what a live reader calls when it
    /// wakes, since frames it reads next may be stamped a little earlier.
    public mutating func fireTimers(dueByMicroseconds microseconds: Int64) -> [GestureEvent] {
        engine.fireTimers(dueBy: .microseconds(microseconds - originMicroseconds))
    }

    /// Cancels the gesture in progress: events were lost or the device went away.
    public mutating func cancel() -> [GestureEvent] {
        engine.cancel()
    }

    /// Ends the input: a trailing frame without `SYN_REPORT` is processed,
    /// then the engine finishes (a gesture in progress ends cancelled).
    public mutating func finish() -> [GestureEvent] {
        var events: [GestureEvent] = []
        if let last = decoder.finish() { events += process(last) }
        return events + engine.finish()
    }
}
