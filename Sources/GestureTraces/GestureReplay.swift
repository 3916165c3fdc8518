import Foundation
import GestureRecognition
import TouchInput

/// Runs the gesture engine over a recorded trace: the same decoder and engine
/// a live device feeds, so a replay gives what the device would have given.
///
///     let trace = try Trace.load(contentsOf: url)
///     let gestures = GestureReplay().gestures(in: trace)
///     gestures.filter(\.isCompletion).map(\.type)   // [.swipe]
public struct GestureReplay: Sendable {
    /// The engine's thresholds, sequences and stroke trigger.
    public var configuration: GestureEngine.Configuration
    /// The templates drawn strokes are recognised against.
    public var templates: TemplateLibrary

    /// A replay with the engine's defaults and the bundled library of the 16 $1 shapes.
    public init(configuration: GestureEngine.Configuration = GestureEngine.Configuration(),
                templates: TemplateLibrary = .dollarShapes) {
        self.configuration = configuration
        self.templates = templates
    }

    /// The surface the engine sees for `device`, or nil when the device is
    /// neither a touchpad nor a touchscreen.
    public static func surface(for device: DeviceDescription) -> GestureSurface? {
        let kind: GestureSurface.Kind
        switch device.kind {
        case .touchpad: kind = .touchpad
        case .touchscreen: kind = .touchscreen
        case .mouse, .other: return nil
        }
        guard let size = device.sizeMillimeters else { return nil }
        // Semi-MT pads are read as one contact (ABS_X/ABS_Y) plus the BTN_TOOL
        // count: with several fingers that position is approximate.
        return GestureSurface(kind: kind, widthMillimeters: size.width, heightMillimeters: size.height,
                              positionsAreApproximate: device.isSemiMT)
    }

    /// The engine's input for one decoded frame; times count from `origin`
    /// (microseconds), so the first event of a recording is at 0 ms.
    public static func gestureFrame(_ frame: TouchFrame, origin: Int64) -> GestureFrame {
        GestureFrame(
            time: .microseconds(frame.microseconds - origin),
            contacts: frame.contacts.map { GestureFrame.Contact(id: $0.id, position: $0.position, isPalm: $0.isPalm) },
            fingerCount: max(frame.fingerCount, frame.contacts.count))
    }

    /// Every gesture of every touch device in `trace`, in time order (devices
    /// in order for equal times). Devices that are not touch surfaces are skipped.
    public func gestures(in trace: Trace) -> [GestureEvent] {
        deviceGestures(in: trace).map(\.event)
    }

    /// One gesture with the index, in the trace's `devices`, of the device that made it.
    public struct DeviceGesture: Hashable, Sendable {
        /// The index of the device in the trace's `devices`.
        public var device: Int
        /// The gesture.
        public var event: GestureEvent

        /// A gesture `event` made by device `device`.
        public init(device: Int, event: GestureEvent) {
            self.device = device
            self.event = event
        }
    }

    /// Every gesture of the touch devices in `trace` that `include` accepts,
    /// with the device that made it, in time order (devices in order for
    /// equal times). Devices that are not touch surfaces are skipped.
    public func deviceGestures(
        in trace: Trace, including include: (_ index: Int, _ device: DeviceDescription) -> Bool = { _, _ in true }
    ) -> [DeviceGesture] {
        let origin = trace.frames.lazy.compactMap { $0.events.first?.microseconds }.first ?? 0
        var decoders: [Int: MultitouchDecoder] = [:]
        var engines: [Int: GestureEngine] = [:]
        for (index, device) in trace.devices.enumerated() {
            guard let surface = Self.surface(for: device), include(index, device) else { continue }
            decoders[index] = MultitouchDecoder(device: device)
            engines[index] = GestureEngine(surface: surface, configuration: configuration, templates: templates)
        }
        var events: [(device: Int, event: GestureEvent)] = []
        for frame in trace.frames {
            guard var decoder = decoders[frame.device], var engine = engines[frame.device] else { continue }
            for event in frame.events {
                guard let touch = decoder.process(event) else { continue }
                if touch.followsDroppedEvents {
                    events += engine.cancel().map { (frame.device, $0) }
                }
                events += engine.process(Self.gestureFrame(touch, origin: origin)).map { (frame.device, $0) }
            }
            decoders[frame.device] = decoder
            engines[frame.device] = engine
        }
        for index in engines.keys.sorted() {
            var engine = engines[index]!
            if var decoder = decoders[index], let last = decoder.finish() {
                events += engine.process(Self.gestureFrame(last, origin: origin)).map { (index, $0) }
            }
            events += engine.finish().map { (index, $0) }
        }
        // A stable sort keeps each device's own order.
        return events.enumerated().sorted { a, b in
            a.element.event.time != b.element.event.time ? a.element.event.time < b.element.event.time : a.offset < b.offset
        }.map { DeviceGesture(device: $0.element.device, event: $0.element.event) }
    }
}
