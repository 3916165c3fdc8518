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

    /// Every gesture of the touch devices in `trace` that `include` accepts,
    /// with the device that made it, in time order (devices in order for
    /// equal times). Devices that are not touch surfaces are skipped.
    public func deviceGestures(
        in trace: Trace, including include: (_ index: Int, _ device: DeviceDescription) -> Bool = { _, _ in true }
    ) -> [DeviceGesture] {
        let origin = trace.frames.lazy.compactMap { $0.events.first?.microseconds }.first ?? 0
        // One GesturePipeline per device: the same type the live reader uses.
        var pipelines: [Int: GesturePipeline] = [:]
        for (index, device) in trace.devices.enumerated() where include(index, device) {
            pipelines[index] = GesturePipeline(device: device, originMicroseconds: origin, setup: setup)
        }
        var events: [(device: Int, event: GestureEvent)] = []
        for frame in trace.frames {
            guard var pipeline = pipelines[frame.device] else { continue }
            for event in frame.events {
                events += pipeline.process(event).map { (frame.device, $0) }
            }
            pipelines[frame.device] = pipeline
        }
        for index in pipelines.keys.sorted() {
            events += pipelines[index]!.finish().map { (index, $0) }
        }
        // A stable sort keeps each device's own order.
        return events.enumerated().sorted { a, b in
            a.element.event.time != b.element.event.time ? a.element.event.time < b.element.event.time : a.offset < b.offset
        }.map { DeviceGesture(device: $0.element.device, event: $0.element.event) }
    }
}
