import Foundation
import GestureRecognition
import InputChecks
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

    /// Every gesture of every device in `trace` (touch surfaces and mice),
    /// in time order (devices in order for equal times). Devices that have
    /// no pipeline (keyboards, tablets) are skipped.
    public func gestures(in trace: Trace) -> [GestureEvent] {
        deviceGestures(in: trace).map(\.value)
    }

    /// A value (a gesture, a line of the output, a drawn stroke) with the
    /// index, in the trace's `devices`, of the device that made it.
    public struct FromDevice<Value: Hashable & Sendable>: Hashable, Sendable {
        /// The index of the device in the trace's `devices`.
        public var device: Int
        /// What the device made.
        public var value: Value

        /// `value`, made by device `device`.
        public init(device: Int, _ value: Value) {
            self.device = device
            self.value = value
        }
    }

    /// One gesture with the index of the device that made it.
    public typealias DeviceGesture = FromDevice<GestureEvent>
    /// One stroke the engine drew, with the index of the device that drew it
    /// and the verdict of the stroke rule (a rejected one fired nothing).
    public typealias DeviceStroke = FromDevice<DrawnStroke>
    /// One output with the index of the device that made it.
    public typealias DeviceOutput = FromDevice<Output>

    /// One line of the replay's output: a gesture, or what a mouse's pipeline
    /// decided about a press of its stroke button.
    public enum Output: Hashable, Sendable {
        /// A gesture event.
        case gesture(GestureEvent)
        /// A mouse decision other than an accepted stroke (whose gesture is its line).
        case mouse(MouseDecision)

        /// When it happened, counted from the trace's first event.
        public var time: Duration {
            switch self {
            case .gesture(let event): event.time
            case .mouse(let decision): decision.time
            }
        }

        /// The line `gestures replay` prints for it.
        public var jsonLine: String {
            switch self {
            case .gesture(let event): event.jsonLine
            case .mouse(let decision): decision.jsonLine
            }
        }

        /// The readable line `gestures replay --format text` prints for it.
        public var text: String {
            switch self {
            case .gesture(let event): event.description
            case .mouse(let decision): decision.description
            }
        }

        /// Whether it completes something: a gesture's end or single event, or any decision.
        public var isCompletion: Bool {
            if case .gesture(let event) = self { return event.isCompletion }
            return true
        }

        /// Reads a line of the output: a decision when its first key is `mouse`, else a gesture.
        public init(jsonLine: String) throws(JSONText.ReadError) {
            if jsonLine.hasPrefix("{\"mouse\":") {
                self = .mouse(try MouseDecision(jsonLine: jsonLine))
            } else {
                self = .gesture(try GestureEvent(jsonLine: jsonLine))
            }
        }
    }

    /// What a replay of a trace gives: its gestures and mouse decisions, and
    /// the strokes drawn on touch surfaces with their verdicts.
    public struct Run: Hashable, Sendable {
        /// Every gesture and mouse decision, in time order (devices in order for equal times).
        public var outputs: [DeviceOutput]
        /// Every stroke drawn, accepted or not, in time order (devices in order for equal times).
        public var strokes: [DeviceStroke]
        /// Every stroke a mouse drew (its decisions with points: accepted,
        /// rejected or passed), in time order: a mouse's strokes, as
        /// ``strokes`` are a touch surface's, in mouse counts.
        public var mouseStrokes: [FromDevice<MouseDecision>] = []
        /// Every decoded frame of the devices replayed, in the trace's order,
        /// when the replay was asked to keep them (`keepingFrames`); else empty.
        public var frames: [FromDevice<TouchFrame>] = []
        /// The time, in the events' clock (microseconds), that gesture times count
        /// from: a frame's time on the gestures' clock is its `microseconds` minus this.
        public var originMicroseconds: Int64 = 0

        /// Every gesture, in time order.
        public var gestures: [DeviceGesture] {
            outputs.compactMap { output in
                guard case .gesture(let event) = output.value else { return nil }
                return DeviceGesture(device: output.device, event)
            }
        }

        /// The strokes that fired nothing.
        public var rejectedStrokes: [DeviceStroke] { strokes.filter { !$0.value.verdict.isAccepted } }
    }

    /// Every gesture of the devices in `trace` that `include` accepts, with
    /// the device that made it, in time order (devices in order for equal
    /// times). Devices that have no pipeline are skipped.
    public func deviceGestures(
        in trace: Trace, including include: (_ index: Int, _ device: DeviceDescription) -> Bool = { _, _ in true }
    ) -> [DeviceGesture] {
        run(trace, including: include).gestures
    }

    /// What `gestures replay` prints for `trace`: every gesture and mouse
    /// decision, in time order (devices in order for equal times).
    public func outputs(in trace: Trace) -> [Output] {
        run(trace).outputs.map(\.value)
    }

    /// Every gesture and mouse decision of the devices in `trace` that
    /// `include` accepts, with the device that made it, in time order
    /// (devices in order for equal times; a device's own order kept).
    /// A mouse's accepted strokes are its `stroke` gesture events; its other
    /// decisions (clicks, presses, rejected and cancelled strokes) are outputs too.
    public func deviceOutputs(
        in trace: Trace, including include: (_ index: Int, _ device: DeviceDescription) -> Bool = { _, _ in true }
    ) -> [DeviceOutput] {
        run(trace, including: include).outputs
    }

    /// Replays `trace`: its gestures and mouse decisions, and every stroke
    /// the engines drew with its verdict (the engine's `takeDrawnStrokes()`):
    /// how a replay says why a stroke fired nothing, as the daemon's log does live.
    /// A mouse whose button is withheld asks `claimsButton` when its stroke
    /// button goes down (the device's index and the press's time, counted as
    /// gesture times are), as a live one asks its claims: by default every
    /// press is claimed. With `keepingFrames`, the run also holds every
    /// frame the decoders made (``Run/frames``): what a watcher of the
    /// daemon draws (`gestures ui`).
    public func run(
        _ trace: Trace, including include: (_ index: Int, _ device: DeviceDescription) -> Bool = { _, _ in true },
        claimsButton: (_ index: Int, _ time: Duration) -> Bool = { _, _ in true }, keepingFrames: Bool = false
    ) -> Run {
        let origin = trace.frames.lazy.compactMap { $0.events.first?.microseconds }.first ?? 0
        // One GesturePipeline per device: the same type the live readers use.
        var pipelines: [Int: GesturePipeline] = [:]
        for (index, device) in trace.devices.enumerated() where include(index, device) {
            pipelines[index] = GesturePipeline(device: device, originMicroseconds: origin, setup: setup)
        }
        var outputs: [DeviceOutput] = []
        var strokes: [DeviceStroke] = []
        var mouseStrokes: [FromDevice<MouseDecision>] = []
        func collect(_ gestures: [GestureEvent], from device: Int, _ pipeline: inout GesturePipeline) {
            for event in gestures { outputs.append(DeviceOutput(device: device, .gesture(event))) }
            for decision in pipeline.takeDecisions() {
                if !decision.points.isEmpty { mouseStrokes.append(FromDevice(device: device, decision)) }
                if decision.kind != .stroke { outputs.append(DeviceOutput(device: device, .mouse(decision))) }
            }
        }
        var frames: [FromDevice<TouchFrame>] = []
        var gestures: [GestureEvent] = []  // one buffer for every event's gestures
        for frame in trace.frames {
            guard var pipeline = pipelines[frame.device] else { continue }
            for event in frame.events {
                gestures.removeAll(keepingCapacity: true)
                let decoded = pipeline.process(
                    event, into: &gestures,
                    claimsButton: { claimsButton(frame.device, EventTime.duration(from: origin, to: event.microseconds)) })
                if keepingFrames, let decoded { frames.append(FromDevice(device: frame.device, decoded)) }
                collect(gestures, from: frame.device, &pipeline)
            }
            // Strokes are drawn at a frame's end: taken once a frame, not once an event.
            strokes += pipeline.takeDrawnStrokes().map { DeviceStroke(device: frame.device, $0) }
            pipelines[frame.device] = pipeline
        }
        for index in pipelines.keys.sorted() {
            var pipeline = pipelines[index]!
            collect(pipeline.finish(), from: index, &pipeline)
            strokes += pipeline.takeDrawnStrokes().map { DeviceStroke(device: index, $0) }
        }
        return Run(
            outputs: Self.inTimeOrder(outputs, \.time), strokes: Self.inTimeOrder(strokes, \.time),
            mouseStrokes: Self.inTimeOrder(mouseStrokes, \.time), frames: frames, originMicroseconds: origin)
    }

    /// `values` sorted by time, stably: each device's own order is kept, and
    /// devices stay in order for equal times.
    private static func inTimeOrder<Value>(_ values: [FromDevice<Value>], _ time: KeyPath<Value, Duration>) -> [FromDevice<Value>] {
        values.enumerated().sorted { a, b in
            let (x, y) = (a.element.value[keyPath: time], b.element.value[keyPath: time])
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }
}
