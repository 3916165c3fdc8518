import Foundation
import GestureRecognition

/// Times `UnistrokeRecognizer.recognize` against template libraries of
/// growing size, beside a baseline that only normalises the candidate (the
/// pipeline every matcher runs before comparing: what no matcher can avoid).
///
/// Pure: the caller reads the strokes; this only draws libraries from them
/// and times the calls. Build with `-c release` to measure anything useful.
///
///     let rows = UnistrokeBenchmark.measure(samples: logs, matcher: .elastic, librarySizes: [16, 160])
///     rows[0].meanMicroseconds   // 4.1: one recognize call against 16 templates
public enum UnistrokeBenchmark {
    /// The timing of one matcher at one library size.
    public struct Measurement: Sendable, Hashable {
        /// The matcher timed.
        public var matcher: UnistrokeRecognizer.Matcher
        /// Templates in the library (the requested size, or fewer when the
        /// samples do not hold enough of each gesture).
        public var templates: Int
        /// Candidates recognised per pass (strokes not in the library).
        public var recognitions: Int
        /// Mean time of one `recognize` call, in microseconds (fastest pass).
        public var meanMicroseconds: Double
        /// Mean time of normalising the candidate alone (resample, rotate,
        /// scale, translate), in microseconds (fastest pass).
        public var normalizeMicroseconds: Double
        /// Candidates recognised as their own gesture, in 0...1.
        public var accuracy: Double
    }

    /// For each size in `librarySizes`, draws that many templates (the same
    /// number of each gesture, at random with `seed`) from `samples`, takes
    /// the rest as candidates (at most `maximumCandidates`, spread over the
    /// gestures), and times `passes` passes of `recognize` over them; the
    /// fastest pass counts, as the one least disturbed by other work.
    ///
    /// - Complexity: O(sizes x passes x candidates x recognition).
    public static func measure(samples: [UnistrokeEvaluation.Sample], matcher: UnistrokeRecognizer.Matcher,
                               librarySizes: [Int] = [16, 160, 1600], maximumCandidates: Int = 800,
                               passes: Int = 3, seed: UInt64 = 1) -> [Measurement] {
        var byGesture: [String: [[Point]]] = [:]
        for sample in samples { byGesture[sample.gesture, default: []].append(sample.points) }
        let gestures = byGesture.keys.sorted()
        guard !gestures.isEmpty else { return [] }
        var measurements: [Measurement] = []
        for size in librarySizes {
            var random = SplitMix64(seed: seed)
            let perGesture = max(1, size / gestures.count)
            var recognizer = UnistrokeRecognizer(configuration: .init(matcher: matcher, rejectionThreshold: 0))
            var candidates: [(gesture: String, points: [Point])] = []
            for gesture in gestures {
                let pool = byGesture[gesture]!
                let order = random.sample(pool.count, from: pool.count)
                let taken = min(perGesture, pool.count - 1)
                for i in order.prefix(taken) { recognizer.add(name: gesture, points: pool[i]) }
                for i in order.dropFirst(taken) { candidates.append((gesture, pool[i])) }
            }
            // Spread the candidates over the gestures: every k-th one.
            let step = max(1, (candidates.count + maximumCandidates - 1) / max(1, maximumCandidates))
            candidates = stride(from: 0, to: candidates.count, by: step).map { candidates[$0] }
            guard !candidates.isEmpty else { continue }

            var correct = 0
            for (gesture, points) in candidates where recognizer.recognize(points).match?.name == gesture { correct += 1 }
            let recognizeTime = fastestPass(passes, candidates.count) {
                var names = 0
                for (_, points) in candidates { names &+= recognizer.recognize(points).match?.templateIndex ?? 0 }
                return names
            }
            let normalizeTime = fastestPass(passes, candidates.count) {
                var count = 0
                for (_, points) in candidates {
                    if case .success(let shape) = recognizer.normalized(points) { count &+= shape.count }
                }
                return count
            }
            measurements.append(Measurement(matcher: matcher, templates: recognizer.templates.count,
                                            recognitions: candidates.count, meanMicroseconds: recognizeTime,
                                            normalizeMicroseconds: normalizeTime,
                                            accuracy: Double(correct) / Double(candidates.count)))
        }
        return measurements
    }

    /// The mean microseconds per item of the fastest of `passes` runs of
    /// `body` over `items` items. `body` returns a value that depends on the
    /// work, so the optimiser cannot drop it.
    static func fastestPass(_ passes: Int, _ items: Int, _ body: () -> Int) -> Double {
        let clock = ContinuousClock()
        var fastest = Double.infinity
        var sink = 0
        for _ in 0..<max(1, passes) {
            let elapsed = clock.measure { sink &+= body() }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            fastest = min(fastest, seconds)
        }
        if sink == Int.min { print("") }   // keeps `sink` alive
        return fastest / Double(max(1, items)) * 1e6
    }

    /// Labelled strokes generated from the bundled shapes, for when no real
    /// logs are at hand: each sample is a shape rotated by up to 20 degrees,
    /// stretched by up to 20 %, with its points jittered by up to 2 % of its
    /// size and a random number of points; `perGesture` of each shape.
    ///
    ///     UnistrokeBenchmark.generatedSamples(perGesture: 10).count   // 160
    public static func generatedSamples(perGesture: Int, seed: UInt64 = 7) -> [UnistrokeEvaluation.Sample] {
        var random = SplitMix64(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * Double(random.next() >> 11) / Double(1 << 53)
        }
        var samples: [UnistrokeEvaluation.Sample] = []
        for template in TemplateLibrary.dollarShapes.templates {
            let base = UnistrokePipeline.resampled(template.points, count: 200)
            for k in 0..<perGesture {
                let angle = uniform(-20...20) * .pi / 180
                let sx = uniform(0.8...1.2), sy = uniform(0.8...1.2)
                let count = 30 + random.next(below: 90)
                let points = UnistrokePipeline.resampled(base, count: count).map { p in
                    let x = p.x * sx + uniform(-2...2), y = p.y * sy + uniform(-2...2)
                    return Point(x: x * cos(angle) - y * sin(angle), y: x * sin(angle) + y * cos(angle))
                }
                samples.append(.init(gesture: template.name, subject: "generated", speed: String(k % 3), points: points))
            }
        }
        return samples
    }
}
