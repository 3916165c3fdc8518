import Foundation
import GestureRecognition
import GestureTraces

/// `gestures bench-recognizer`: times one `recognize` call per matcher at
/// several library sizes, beside normalising the candidate alone.
enum BenchRecognizerCommand: Subcommand {
    static let name = "bench-recognizer"
    static let abstract = "Time recognition per matcher against 16, 160 and 1,600 templates."
    static let usage = "[DIR] [--sizes 16,160,1600] [--recognizer NAME] [--candidates N] [--passes N] [--format text|json]"
    static let discussion = """
        DIR holds $1 XML logs (the $1 study's layout); without it, strokes are
        generated from the bundled shapes. For each library size, templates are
        drawn evenly from every gesture (seed 1), the other strokes are the
        candidates, and the fastest of the passes counts. Beside each figure:
        the time to normalise the candidate alone (the floor every matcher
        shares). Build with 'swift build -c release'.
        """
    static let options: [OptionSpec] = [
        .option("--sizes", "LIST", "Library sizes, comma-separated (default 16,160,1600)."),
        .option("--recognizer", "NAME", "One matcher: elastic, dollar1 or protractor (default: all three)."),
        .option("--candidates", "N", "At most this many candidates per size (default 800)."),
        .option("--passes", "N", "Timed passes; the fastest counts (default 3)."),
        .option("--format", "text|json", "Output format (default text)."),
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.count <= 1 else { throw UsageError("give at most one directory of XML logs") }
        let sizes = try arguments.value("--sizes", default: [16, 160, 1600], "a comma-separated list of positive integers") { text in
            let values = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return values.count == text.split(separator: ",").count && !values.isEmpty && values.allSatisfy { $0 > 0 } ? values : nil
        }
        let candidates = try arguments.value("--candidates", default: 800, "a positive integer") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        let passes = try arguments.value("--passes", default: 3, "a positive integer") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        let json = try arguments.value("--format", default: false, "text or json") { $0 == "json" ? true : $0 == "text" ? false : nil }
        let matchers = arguments.value("--recognizer") == nil ? UnistrokeRecognizer.Matcher.allCases : [try parseMatcher(arguments)]

        let samples: [UnistrokeEvaluation.Sample]
        if let path = arguments.positionals.first {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandFailure("\(path) is not a directory; give a folder of $1 XML logs, or none for generated strokes")
            }
            samples = try DollarGestureLog.logs(under: URL(fileURLWithPath: path)).map { url, log in
                UnistrokeEvaluation.Sample(gesture: log.gestureName, subject: log.subject ?? "", speed: log.speed ?? "", points: log.points)
            }
            guard !samples.isEmpty else { throw CommandFailure("no XML gesture logs under \(path)") }
        } else {
            samples = UnistrokeBenchmark.generatedSamples(perGesture: 150)
        }
        printError("bench-recognizer: \(samples.count) strokes, \(Set(samples.map(\.gesture)).count) gestures")

        var rows: [UnistrokeBenchmark.Measurement] = []
        for matcher in matchers {
            printError("bench-recognizer: \(matcher.rawValue)")
            rows += UnistrokeBenchmark.measure(samples: samples, matcher: matcher, librarySizes: sizes,
                                               maximumCandidates: candidates, passes: passes)
        }
        func fixed(_ value: Double) -> String { String(format: "%.2f", value) }
        if json {
            let items = rows.map { r in
                "{\"recognizer\":\(JSONText.quoted(r.matcher.rawValue)),\"templates\":\(r.templates),\"recognitions\":\(r.recognitions),"
                    + "\"mean_microseconds\":\(fixed(r.meanMicroseconds)),\"normalize_microseconds\":\(fixed(r.normalizeMicroseconds)),"
                    + "\"accuracy\":\(String(format: "%.4f", r.accuracy))}"
            }
            print("{\"results\":[\(items.joined(separator: ","))]}")
        } else {
            print("recognizer  templates  candidates  µs/recognition  µs normalise only  accuracy")
            for r in rows {
                print(r.matcher.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0),
                      String(format: "%9d  %10d  %14.2f  %17.2f  %7.2f%%", r.templates, r.recognitions,
                             r.meanMicroseconds, r.normalizeMicroseconds, r.accuracy * 100))
            }
        }
        return 0
    }
}
