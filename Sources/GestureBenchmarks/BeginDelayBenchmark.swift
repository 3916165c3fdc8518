import GestureRecognition
import GestureTraces
import TouchInput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The delay between the fingers passing a threshold and the engine's begin
/// event, measured from the decoded contacts independently of the engine.
///
///     let delays = BeginDelayBenchmark.measure(trace)
///     delays.first   // (type: .swipe, frames: 0, milliseconds: 0): the swipe began on the crossing frame
public enum BeginDelayBenchmark {
    /// One begin event and how late it came.
    public struct Delay: Sendable, Hashable {
        /// Swipe or pinch.
        public var type: GestureEvent.Kind
        /// Frames from the crossing to the begin (0: on the crossing frame).
        public var frames: Int
        /// The same delay in milliseconds.
        public var milliseconds: Double

        /// A begin of `type`, `frames` frames (`milliseconds` ms) after the crossing.
        public init(type: GestureEvent.Kind, frames: Int, milliseconds: Double) {
            self.type = type
            self.frames = frames
            self.milliseconds = milliseconds
        }
    }

    /// The delays of one kind over many traces.
    public struct Summary: Sendable, Hashable {
        /// Swipe or pinch.
        public var type: GestureEvent.Kind
        /// How many begins were measured.
        public var begins: Int
        /// The mean delay in frames.
        public var meanFrames: Double
        /// The mean delay in milliseconds.
        public var meanMilliseconds: Double
        /// The largest delay in frames.
        public var maximumFrames: Int
        /// How many begins came that many frames late, by frames.
        public var histogram: [Int: Int]
    }

    /// The summaries of `delays` for swipes and pinches (a kind without begins is left out).
    public static func summarize(_ delays: [Delay]) -> [Summary] {
        [GestureEvent.Kind.swipe, .pinch].compactMap { type in
            let some = delays.filter { $0.type == type }
            guard !some.isEmpty else { return nil }
            var histogram: [Int: Int] = [:]
            for delay in some { histogram[delay.frames, default: 0] += 1 }
            return Summary(
                type: type, begins: some.count,
                meanFrames: Double(some.map(\.frames).reduce(0, +)) / Double(some.count),
                meanMilliseconds: some.map(\.milliseconds).reduce(0, +) / Double(some.count),
                maximumFrames: some.map(\.frames).max() ?? 0, histogram: histogram)
        }
    }

    /// The engine's defaults, with swipes beginning at their swipe
    /// threshold instead of early: what ``measure(_:configuration:)`` runs.
    public static var atCompletionThreshold: GestureEngine.Configuration {
        var configuration = GestureEngine.Configuration()
        configuration.swipeBeginThresholdMillimeters = max(
            configuration.swipeThresholdMillimeters, configuration.twoFingerSwipeThresholdMillimeters)
        return configuration
    }

    /// For each swipe or pinch begin in `trace`, the frames (and milliseconds)
    /// from the first frame, since the finger count last changed, where the
    /// centroid had travelled the swipe threshold, or the spread ratio or
    /// angle had passed the pinch thresholds together with the spread change
    /// plus rotation arc in millimetres; whichever came first. It measures
    /// how late the engine decides once the fingers passed the threshold
    /// that completes a gesture, so by default the engine's swipes begin
    /// there too (``atCompletionThreshold``): with the default early begin
    /// (``GestureEngine/Configuration/swipeBeginThresholdMillimeters``) a
    /// swipe begins before it, and has no delay to measure.
    public static func measure(_ trace: Trace, configuration: GestureEngine.Configuration = atCompletionThreshold) -> [Delay] {
        guard let device = trace.devices.first, let surface = GestureReplay.surface(for: device) else { return [] }
        let origin = trace.frames.lazy.compactMap { $0.events.first?.microseconds }.first ?? 0
        var decoder = MultitouchDecoder(device: device)
        var engine = GestureEngine(surface: surface, configuration: configuration)
        var results: [Delay] = []
        var start: (fingers: Int, ids: [Int], centroid: Point, spread: Double, offsets: [Point])?
        var crossed: (index: Int, time: Duration)?
        var index = 0
        for recorded in trace.frames where recorded.device == 0 {
            for event in recorded.events {
                guard let touch = decoder.process(event) else { continue }
                let frame = GestureReplay.gestureFrame(touch, origin: origin)
                let points = frame.contacts.map(\.position)
                let ids = frame.contacts.map(\.id)
                if !points.isEmpty {
                    let centroid = points.reduce(Point.zero, +) * (1 / Double(points.count))
                    let spread = points.map { $0.distance(to: centroid) }.reduce(0, +) / Double(points.count)
                    let offsets = points.map { $0 - centroid }
                    if let s = start, s.fingers == frame.fingerCount, s.ids == ids {
                        if crossed == nil {
                            let travel = s.centroid.distance(to: centroid)
                            let scale = s.spread > 0 ? spread / s.spread : 1
                            // The least-squares rotation of the offsets from the centroid.
                            var cross = 0.0, dot = 0.0
                            for (a, b) in zip(s.offsets, offsets) { cross += a.x * b.y - a.y * b.x; dot += a.x * b.x + a.y * b.y }
                            let degrees = abs(atan2(cross, dot)) * 180 / Double.pi
                            let shapeChange = s.spread * abs(scale - 1) + degrees * Double.pi / 180 * spread
                            let swipe = travel >= configuration.swipeThresholdMillimeters(fingers: frame.fingerCount)
                            let pinch =
                                points.count > 1 && shapeChange >= configuration.pinchThresholdMillimeters
                                && (abs(scale - 1) >= configuration.pinchScaleThreshold
                                    || degrees >= configuration.rotationThresholdDegrees)
                            if swipe || pinch { crossed = (index, frame.time) }
                        }
                    } else {
                        start = (frame.fingerCount, ids, centroid, spread, offsets)
                        crossed = nil
                    }
                } else {
                    start = nil
                    crossed = nil
                }
                for gesture in engine.process(frame) where gesture.phase == .begin && (gesture.type == .swipe || gesture.type == .pinch) {
                    if let crossed {
                        results.append(
                            Delay(
                                type: gesture.type, frames: index - crossed.index,
                                milliseconds: Double((gesture.time - crossed.time) / .microseconds(1)) / 1000))
                    }
                }
                index += 1
            }
        }
        return results
    }
}
