import GestureEvaluation
import GestureRecognition

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Times `UnistrokeRecognizer.recognize` per matcher against template
/// libraries of growing size, beside resampling the candidate alone (the
/// first step of every matcher, which no library size changes).
///
/// The strokes are generated from the bundled $1 shapes, one template of
/// each of the 16 names (each one rotated,
/// stretched, jittered and resampled to a random number of points, seeded),
/// so it runs anywhere; templates and candidates are distinct strokes.
///
///     let rows = RecognitionBenchmark.run(matchers: [.elastic], librarySizes: [16, 160], candidates: 50)
///     rows[0].microsecondsPerRecognition   // 25: one recognize call against 16 templates
///
/// - Complexity: O(matchers x sizes x passes x candidates x templates).
public enum RecognitionBenchmark {
    /// One matcher at one library size.
    public struct Row: Sendable, Hashable {
        /// The matcher timed.
        public var matcher: UnistrokeRecognizer.Matcher
        /// The templates in the library.
        public var templates: Int
        /// The candidates recognised per pass.
        public var recognitions: Int
        /// The mean time of one `recognize` call, in microseconds (fastest pass).
        public var microsecondsPerRecognition: Double
        /// The mean time of resampling the candidate alone, in microseconds (fastest pass).
        public var resampleMicroseconds: Double
        /// The candidates recognised as the shape they were made from, in 0...1.
        public var accuracy: Double
    }

    /// For each matcher and library size, builds a library of that many
    /// generated strokes (the same number of each shape) and times `passes`
    /// passes of recognising `candidates` other strokes.
    public static func run(
        matchers: [UnistrokeRecognizer.Matcher] = UnistrokeRecognizer.Matcher.allCases,
        librarySizes: [Int] = [16, 160, 1600], candidates: Int = 160, passes: Int = 3,
        seed: UInt64 = 1, progress: (String) -> Void = { _ in }
    ) -> [Row] {
        let shapes = Self.shapes
        let largest = librarySizes.max() ?? 0
        let perShape = (largest + shapes.count - 1) / max(shapes.count, 1)
        let templates = generatedStrokes(perShape: max(perShape, 1), seed: seed)
        let tests = generatedStrokes(perShape: max((candidates + shapes.count - 1) / max(shapes.count, 1), 1), seed: seed &+ 1)
            .prefix(candidates)
        var rows: [Row] = []
        for matcher in matchers {
            for size in librarySizes {
                progress("recognition: \(matcher.rawValue), \(size) templates (\(passes) passes)")
                var recognizer = UnistrokeRecognizer(configuration: .init(matcher: matcher, rejectionThreshold: 0))
                // The first `size` strokes, round-robin over the shapes.
                for stroke in templates.prefix(size) { _ = recognizer.add(name: stroke.name, points: stroke.points) }
                let count = recognizer.configuration.resampleCount
                var correct = 0
                let recognize = BenchmarkTiming.fastest(passes: passes) {
                    var found = 0
                    correct = 0
                    for test in tests {
                        let match = recognizer.recognize(test.points).match
                        found &+= match?.templateIndex ?? -1
                        if match?.name == test.name { correct += 1 }
                    }
                    return found
                }
                let resample = BenchmarkTiming.fastest(passes: passes) {
                    var sum = 0
                    for test in tests { sum &+= UnistrokePipeline.resampled(test.points, count: count).count }
                    return sum
                }
                let n = Double(max(tests.count, 1))
                rows.append(
                    Row(
                        matcher: matcher, templates: recognizer.templates.count, recognitions: tests.count,
                        microsecondsPerRecognition: recognize.seconds / n * 1e6,
                        resampleMicroseconds: resample.seconds / n * 1e6,
                        accuracy: Double(correct) / n))
            }
        }
        return rows
    }

    /// The first template of each name of the bundled library: the 16 shapes
    /// (their variants would only make the generated strokes alike).
    static var shapes: [TemplateLibrary.Template] {
        let library = TemplateLibrary.dollarShapes
        return library.names.compactMap { name in library.templates.first { $0.name == name } }
    }

    /// Strokes made from the bundled shapes, `perShape` of each, interleaved
    /// (one of every shape, then the next of every shape): each rotated by up
    /// to 20 degrees, stretched by up to 20 % along each axis, jittered by up
    /// to 2 % of its size and resampled to 30-119 points.
    ///
    ///     RecognitionBenchmark.generatedStrokes(perShape: 10).count   // 160
    public static func generatedStrokes(perShape: Int, seed: UInt64 = 1) -> [(name: String, points: [Point])] {
        var random = SplitMix64(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * Double(random.next() >> 11) / Double(1 << 53)
        }
        let shapes = Self.shapes.map { ($0.name, UnistrokePipeline.resampled($0.points, count: 200)) }
        var strokes: [(name: String, points: [Point])] = []
        strokes.reserveCapacity(perShape * shapes.count)
        for _ in 0..<perShape {
            for (name, base) in shapes {
                let angle = uniform(-20...20) * Double.pi / 180
                let sx = uniform(0.8...1.2), sy = uniform(0.8...1.2)
                let count = 30 + random.next(below: 90)
                let points = UnistrokePipeline.resampled(base, count: count).map { p in
                    let x = p.x * sx + uniform(-2...2), y = p.y * sy + uniform(-2...2)
                    return Point(x: x * cos(angle) - y * sin(angle), y: x * sin(angle) + y * cos(angle))
                }
                strokes.append((name, points))
            }
        }
        return strokes
    }
}
