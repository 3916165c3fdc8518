import GestureRecognition

/// The whole way from one device's kernel events to gestures: one
/// ``MultitouchDecoder`` feeding the device's engine, a `GestureEngine` for a
/// touchpad or touchscreen, a ``MouseStrokeEngine`` for a mouse.
///
/// `GestureReplay` runs one per device of a trace and the live reader one
/// per open device (InputInterception's `InterceptedDevice` on its
/// `DeviceLoop`, touch surfaces and mice alike), so a live device gives exactly what a replay of its recording gives. Events after
/// `SYN_DROPPED` cancel the gesture in progress (the frame they complete has
/// `followsDroppedEvents`). A mouse's pipeline also decides what became of
/// each press of its stroke button (``takeDecisions()``) and, when the button
/// is withheld from the desktop, what reaches its clone (``takeCloneFrames()``).
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
    /// The engine of a touchpad or touchscreen: touch frames in, gestures out; nil for a mouse.
    public private(set) var engine: GestureEngine?
    /// The engine of a mouse: frames in, strokes and decisions out; nil for a touch surface.
    public private(set) var mouse: MouseStrokeEngine?
    /// The engine's input, refilled at every frame: its contact buffer is reused.
    private var engineInput = GestureFrame(time: .zero, contacts: [])
    /// A mouse whose button is withheld: the events of the frame being read, to pass on.
    private var mouseEvents: [InputEvent] = []

    /// What a pipeline's engine is built with: the one description of it that
    /// replay (`GestureReplay`), live input (`LiveGestures`) and the daemon share.
    public struct Setup: Sendable {
        /// The engine's thresholds, sequences and stroke trigger.
        public var configuration: GestureEngine.Configuration
        /// The templates drawn strokes are recognised against (on touch surfaces and mice).
        public var templates: TemplateLibrary
        /// How a mouse draws strokes and how they are recognised.
        public var mouse: MouseStrokeEngine.Settings

        /// A setup; the defaults are the engine's, the bundled $1 shapes and
        /// the daemon's `mouse: {}` with the button withheld.
        public init(
            configuration: GestureEngine.Configuration = GestureEngine.Configuration(),
            templates: TemplateLibrary = .dollarShapes,
            mouse: MouseStrokeEngine.Settings = MouseStrokeEngine.Settings()
        ) {
            self.configuration = configuration
            self.templates = templates
            self.mouse = mouse
        }
    }

    /// A pipeline for `device`, or nil when it is neither a touchpad, a
    /// touchscreen (see ``surface(for:)``) nor a mouse (a relative pointer with buttons).
    public init?(device: DeviceDescription, originMicroseconds: Int64, setup: Setup = Setup()) {
        if let surface = Self.surface(for: device) {
            engine = GestureEngine(surface: surface, configuration: setup.configuration, templates: setup.templates)
        } else if device.kind == .mouse {
            mouse = MouseStrokeEngine(settings: setup.mouse, templates: setup.templates, originMicroseconds: originMicroseconds)
        } else {
            return nil
        }
        self.device = device
        self.originMicroseconds = originMicroseconds
        decoder = MultitouchDecoder(device: device)
    }

    /// Whether `device` has a pipeline: a touchpad, a touchscreen or a mouse.
    public static func reads(_ device: DeviceDescription) -> Bool {
        surface(for: device) != nil || device.kind == .mouse
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
        return GestureSurface(
            kind: kind, widthMillimeters: size.width, heightMillimeters: size.height,
            positionsAreApproximate: device.isSemiMT, pressureRange: device.contactPressureRange)
    }

    /// The engine's input for one decoded frame; times count from `origin` (microseconds).
    /// Each contact carries its pressure, else its touch size (device units),
    /// and the frame whether a button is held (any of BTN_LEFT ... BTN_TASK).
    public static func gestureFrame(_ frame: TouchFrame, origin: Int64) -> GestureFrame {
        var gestureFrame = GestureFrame(time: .zero, contacts: [])
        fill(&gestureFrame, from: frame, origin: origin)
        return gestureFrame
    }

    /// Makes `gestureFrame` the engine's input for `frame`, reusing its
    /// contact buffer (``gestureFrame(_:origin:)`` without the allocation).
    static func fill(_ gestureFrame: inout GestureFrame, from frame: TouchFrame, origin: Int64) {
        gestureFrame.time = EventTime.duration(from: origin, to: frame.microseconds)
        let count = frame.contacts.count
        if gestureFrame.contacts.count > count { gestureFrame.contacts.removeLast(gestureFrame.contacts.count - count) }
        for index in 0..<count {
            let contact = frame.contacts[index]
            let converted = GestureFrame.Contact(
                id: contact.id, position: contact.position, isPalm: contact.isPalm,
                pressure: (contact.pressure ?? contact.touchMajor).map(Double.init))
            // Written over the previous frame's contacts: no clearing, no reallocation.
            if index < gestureFrame.contacts.count {
                gestureFrame.contacts[index] = converted
            } else {
                gestureFrame.contacts.append(converted)
            }
        }
        gestureFrame.fingerCount = max(frame.fingerCount, frame.contacts.count)
        gestureFrame.isButtonDown = !frame.buttons.isEmpty
    }

    /// Takes the device's state when reading starts or after a resync
    /// (``MultitouchDecoder/seed(currentSlot:value:)``); the engine sees it at the next frame.
    public mutating func seed(currentSlot: Int32, value: (_ type: UInt16, _ code: UInt16, _ slot: Int32) -> Int32) {
        decoder.seed(currentSlot: currentSlot, value: value)
    }

    /// Takes one kernel event; at a `SYN_REPORT` the frame goes to the engine
    /// (after `cancel()` when the frame follows dropped events).
    public mutating func process(_ event: InputEvent) -> [GestureEvent] {
        var events: [GestureEvent] = []
        process(event, into: &events)
        return events
    }

    /// Takes one kernel event as ``process(_:)`` does, and appends the
    /// gestures to `events`: with a buffer the caller keeps and empties, the
    /// way from events to gestures allocates nothing per frame.
    ///
    ///     var gestures: [GestureEvent] = []
    ///     for event in events {
    ///         pipeline.process(event, into: &gestures)
    ///         for gesture in gestures { print(gesture.jsonLine) }
    ///         gestures.removeAll(keepingCapacity: true)
    ///     }
    ///
    /// A mouse whose button is withheld asks `claimsButton` when its stroke
    /// button goes down, and only then: whether a binding that claims mouse
    /// strokes applies now (`MouseStrokeEngine/process(_:events:into:claimsButton:)`);
    /// a touch surface never asks.
    ///
    /// - Returns: the frame the decoder made at a `SYN_REPORT` (nil for the
    ///   other events): what a reader beside the engine takes instead of
    ///   decoding the events again (InputInterception's `InterceptedDevice`).
    @discardableResult
    public mutating func process(
        _ event: InputEvent, into events: inout [GestureEvent], claimsButton: () -> Bool = { true }
    ) -> TouchFrame? {
        if mouse?.settings.withholdsButton == true && !event.isSynReport { mouseEvents.append(event) }
        guard let touch = decoder.process(event) else { return nil }
        process(touch, into: &events, claimsButton: claimsButton)
        return touch
    }

    private mutating func process(_ touch: TouchFrame, into events: inout [GestureEvent], claimsButton: () -> Bool) {
        if mouse != nil {
            mouse!.process(touch, events: mouseEvents, into: &events, claimsButton: claimsButton)
            mouseEvents.removeAll(keepingCapacity: true)
            return
        }
        if touch.followsDroppedEvents { events += engine!.cancel() }
        Self.fill(&engineInput, from: touch, origin: originMicroseconds)
        engine!.process(engineInput, into: &events)
    }

    /// The earliest time (microseconds, in the events' clock) at which the
    /// engine has a timer due, or nil.
    public var nextDeadlineMicroseconds: Int64? {
        if let mouse { return mouse.nextDeadlineMicroseconds }
        return engine?.nextDeadline.map { EventTime.adding(EventTime.microseconds(roundingUp: $0), to: originMicroseconds) }
    }

    /// Lets time pass to `microseconds` (the events' clock) without a frame:
    /// fires the timers due by then.
    public mutating func advance(toMicroseconds microseconds: Int64) -> [GestureEvent] {
        if mouse != nil { return fireTimers(dueByMicroseconds: microseconds) }
        return engine!.advance(to: EventTime.duration(from: originMicroseconds, to: microseconds))
    }

    /// Fires the timers due by `microseconds` (the events' clock), each at
    /// its own time, without moving the engine's clock past the last of them
    /// (`GestureEngine.fireTimers(dueBy:)`): what a live reader calls when it
    /// wakes, since frames it reads next may be stamped a little earlier.
    public mutating func fireTimers(dueByMicroseconds microseconds: Int64) -> [GestureEvent] {
        if mouse != nil {
            var events: [GestureEvent] = []
            mouse!.fireTimers(dueByMicroseconds: microseconds, into: &events)
            return events
        }
        return engine!.fireTimers(dueBy: .microseconds(microseconds - originMicroseconds))
    }

    /// The strokes the engine drew since the last call, with their verdicts
    /// (`GestureEngine.takeDrawnStrokes()`): how the daemon's log and
    /// `gestures replay` say why a stroke fired nothing. A mouse's strokes
    /// are its decisions (``takeDecisions()``).
    public mutating func takeDrawnStrokes() -> [DrawnStroke] {
        engine?.takeDrawnStrokes() ?? []
    }

    /// Cancels the gesture in progress: events were lost or the device went
    /// away (a mouse's decisions say `reason`; it cancels its strokes waiting
    /// out the unplug grace too).
    public mutating func cancel(reason: String = "the device is gone") -> [GestureEvent] {
        if mouse != nil {
            mouseEvents.removeAll(keepingCapacity: true)
            mouse!.cancel(reason: reason)
            return []
        }
        return engine!.cancel()
    }

    /// Ends the input: a trailing frame without `SYN_REPORT` is processed,
    /// then the engine finishes (a gesture in progress ends cancelled; a
    /// mouse's released strokes are recognised when their grace is over).
    public mutating func finish() -> [GestureEvent] {
        var events: [GestureEvent] = []
        if let last = decoder.finish() { process(last, into: &events, claimsButton: { true }) }
        if mouse != nil {
            mouse!.finish(into: &events)
            return events
        }
        return events + engine!.finish()
    }

    /// Stops withholding a mouse's stroke button (``MouseStrokeEngine/stopWithholdingButton()``:
    /// its clone is given up); nothing for a touch surface.
    public mutating func stopWithholdingButton() {
        mouse?.stopWithholdingButton()
        mouseEvents.removeAll()
    }

    /// A mouse's decisions since the last call, in time order (none for a touch surface).
    public mutating func takeDecisions() -> [MouseDecision] {
        mouse?.takeDecisions() ?? []
    }

    /// A mouse's frames for its clone since the last call, when its button is
    /// withheld (each without `SYN_REPORT`); none otherwise.
    public mutating func takeCloneFrames() -> [[InputEvent]] {
        mouse?.takeCloneFrames() ?? []
    }
}
