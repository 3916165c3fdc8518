import Foundation
import GestureRecognition
import TouchInput

/// Runs the gesture engine over a recorded trace: one `GesturePipeline`
/// (decoder and engine) per device, the type a live device feeds, so a replay
/// gives what the device would have given.
///
///     let trace = try Trace.load(contentsOf: url)
///     let gestures = GestureReplay().gestures(in: trace)
///     gestures.filter(\.isCompletion).map(\.type)   // [.swipe]
public struct GestureReplay: Sendable {
    /// The engine's thresholds, sequences and stroke trigger, and the
    /// templates drawn strokes are recognised against.
    public var setup: GesturePipeline.Setup

    /// A replay with `setup` (by default the engine's defaults and the bundled
    /// library of the 16 $1 shapes).
    public init(setup: GesturePipeline.Setup = GesturePipeline.Setup()) {
        self.setup = setup
    }

    /// A replay with this configuration and these templates.
    public init(configuration: GestureEngine.Configuration, templates: TemplateLibrary = .dollarShapes) {
        self.init(setup: GesturePipeline.Setup(configuration: configuration, templates: templates))
    }

    /// The surface the engine sees for `device`, or nil when the device is
    /// neither a touchpad nor a touchscreen (`GesturePipeline/surface(for:)`).
    public static func surface(for device: DeviceDescription) -> GestureSurface? {
        GesturePipeline.surface(for: device)
    }

    /// The engine's input for one decoded frame; times count from `origin`
    /// (microseconds), so the first event of a recording is at 0 ms.
    public static func gestureFrame(_ frame: TouchFrame, origin: Int64) -> GestureFrame {
        GesturePipeline.gestureFrame(frame, origin: origin)
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

    /// One stroke the engine drew, with the index of the device that drew it
    /// and the verdict of the stroke rule (a rejected one fired nothing).
    public struct DeviceStroke: Hashable, Sendable {
        /// The index of the device in the trace's `devices`.
        public var device: Int
        /// The stroke and its verdict.
        public var stroke: DrawnStroke

        /// A stroke `stroke` drawn on device `device`.
        public init(device: Int, stroke: DrawnStroke) {
            self.device = device
            self.stroke = stroke
        }
    }

    /// What a replay of a trace gives: its gestures and the strokes drawn.
    public struct Run: Hashable, Sendable {
        /// Every gesture, in time order (devices in order for equal times).
        public var gestures: [DeviceGesture]
        /// Every stroke drawn, accepted or not, in time order (devices in order for equal times).
        public var strokes: [DeviceStroke]

        /// The strokes that fired nothing.
        public var rejectedStrokes: [DeviceStroke] { strokes.filter { !$0.stroke.verdict.isAccepted } }
    }

    /// Every gesture of the touch devices in `trace` that `include` accepts,
    /// with the device that made it, in time order (devices in order for
    /// equal times). Devices that are not touch surfaces are skipped.
    public func deviceGestures(
        in trace: Trace, including include: (_ index: Int, _ device: DeviceDescription) -> Bool = { _, _ in true }
    ) -> [DeviceGesture] {
        run(trace, including: include).gestures
    }

    /// Replays `trace` as ``deviceGestures(in:including:)`` does, and also
    /// gives every stroke the engines drew with its verdict (the engine's
    /// `takeDrawnStrokes()`): how a replay says why a stroke fired nothing,
    /// as the daemon's log does live.
    public func run(
        _ trace: Trace, including include: (_ index: Int, _ device: DeviceDescription) -> Bool = { _, _ in true }
    ) -> Run {
        let origin = trace.frames.lazy.compactMap { $0.events.first?.microseconds }.first ?? 0
        // One GesturePipeline per device: the same type the live reader uses.
        var pipelines: [Int: GesturePipeline] = [:]
        for (index, device) in trace.devices.enumerated() where include(index, device) {
            pipelines[index] = GesturePipeline(device: device, originMicroseconds: origin, setup: setup)
        }
        var events: [(device: Int, event: GestureEvent)] = []
        var strokes: [DeviceStroke] = []
        for frame in trace.frames {
            guard var pipeline = pipelines[frame.device] else { continue }
            for event in frame.events {
                events += pipeline.process(event).map { (frame.device, $0) }
            }
            strokes += pipeline.takeDrawnStrokes().map { DeviceStroke(device: frame.device, stroke: $0) }
            pipelines[frame.device] = pipeline
        }
        for index in pipelines.keys.sorted() {
            events += pipelines[index]!.finish().map { (index, $0) }
            strokes += pipelines[index]!.takeDrawnStrokes().map { DeviceStroke(device: index, stroke: $0) }
        }
        // A stable sort keeps each device's own order.
        let gestures = events.enumerated().sorted { a, b in
            a.element.event.time != b.element.event.time ? a.element.event.time < b.element.event.time : a.offset < b.offset
        }.map { DeviceGesture(device: $0.element.device, event: $0.element.event) }
        let sortedStrokes = strokes.enumerated().sorted { a, b in
            a.element.stroke.time != b.element.stroke.time ? a.element.stroke.time < b.element.stroke.time : a.offset < b.offset
        }.map(\.element)
        return Run(gestures: gestures, strokes: sortedStrokes)
    }
}
