import Foundation
import GestureEvaluation
import GestureRecognition
import GestureTraces

struct EvalCommand: Subcommand {
    static let name = "eval"
    static let abstract = "Measure recognition accuracy and speed on a folder of $-family XML gesture logs."
    static let usage = "DIR [--templates 1,3,9] [--iterations 100] [--seed N] [--recognizer NAME] [--protocol P]"
    static let discussion = """
    DIR holds logs as <subject>/<speed>/<gesture><NN>.xml (the $1 study's layout).
    user-dependent: for every subject and speed, E random templates per gesture
    and one other sample of each gesture as candidate, repeated --iterations times.
    user-independent: for every subject, templates from the other subjects.
    """
    static let options: [OptionSpec] = [
        .option("--templates", "LIST", "Templates per gesture to try, comma-separated (default 1,3,9)."),
        .option("--iterations", "N", "Trials per subject and speed (default 100)."),
        .option("--seed", "N", "Seed of the random draws (default 1)."),
        .option("--recognizer", "NAME", "Matcher: elastic (default), dollar1 or protractor."),
        .option("--orientation", "MODE", "invariant (default) or sensitive[:DEGREES]."),
        .option("--resample", "N", "Points strokes are resampled to (default: the matcher's own, 16 or 64)."),
        .option("--protocol", "P", "user-dependent (default) or user-independent."),
        .option("--format", "text|json", "Output format (default text)."),
        .flag("--confusions", "Also list which gestures were taken for which (text format)."),
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.count == 1 else { throw UsageError("give exactly one directory of XML logs") }
        let templateCounts = try arguments.value("--templates", default: [1, 3, 9], "a comma-separated list of positive integers") { text in
            let values = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return values.count == text.split(separator: ",").count && !values.isEmpty && values.allSatisfy { $0 > 0 } ? values : nil
        }
        let iterations = try arguments.value("--iterations", default: 100, "a positive integer") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        let seed = try arguments.value("--seed", default: UInt64(1), "a non-negative integer") { UInt64($0) }
        let evaluationProtocol = try arguments.value("--protocol", default: UnistrokeEvaluation.EvaluationProtocol.userDependent,
                                                     "user-dependent or user-independent") { .init(rawValue: $0) }
        let json = try arguments.value("--format", default: false, "text or json") { $0 == "json" ? true : $0 == "text" ? false : nil }
        let matcher = try parseMatcher(arguments)
        let resample = try arguments.value("--resample", default: Int?.none, "an integer from 8 to 1024") { Int($0).flatMap { (8...1024).contains($0) ? $0 : nil } }
        let configuration = UnistrokeRecognizer.Configuration(matcher: matcher, orientation: try parseOrientation(arguments, default: .invariant), resampleCount: resample)

        let directory = URL(fileURLWithPath: arguments.positionals[0])
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("\(directory.path) is not a directory")
        }
        printError("eval: reading logs under \(directory.path)")
        let samples = try DollarGestureLog.logs(under: directory).map { url, log in
            UnistrokeEvaluation.Sample(gesture: log.gestureName,
                                       subject: log.subject ?? url.deletingLastPathComponent().deletingLastPathComponent().lastPathComponent,
                                       speed: log.speed ?? url.deletingLastPathComponent().lastPathComponent,
                                       points: log.points)
        }
        guard !samples.isEmpty else { throw CommandFailure("no XML gesture logs under \(directory.path)") }
        printError("eval: \(samples.count) strokes, \(Set(samples.map(\.subject)).count) subjects, \(Set(samples.map(\.gesture)).count) gestures")
        let evaluation = UnistrokeEvaluation(samples: samples, configuration: configuration, protocol: evaluationProtocol)
        var results: [UnistrokeEvaluation.Result] = []
        for e in templateCounts {
            let result = evaluation.run(templatesPerGesture: e, iterations: iterations, seed: seed) { done, all in
                printError("eval: \(matcher.rawValue) E=\(e): group \(done)/\(all)")
            }
            results.append(result)
        }
        if json {
            let rows = results.map { r in
                "{\"templates\":\(r.templatesPerGesture),\"accuracy\":\(rounded(r.accuracy)),\"recognitions\":\(r.recognitions),\"mean_microseconds\":\((r.meanMicroseconds * 100).rounded() / 100)}"
            }
            print("{\"recognizer\":\(JSONText.quoted(matcher.rawValue)),\"protocol\":\(JSONText.quoted(evaluationProtocol.rawValue)),\"results\":[\(rows.joined(separator: ","))]}")
        } else {
            print("recognizer \(matcher.rawValue), protocol \(evaluationProtocol.rawValue), \(iterations) iterations, seed \(seed)")
            print("templates  accuracy  recognitions  mean µs")
            for r in results {
                let accuracy = String(format: "%7.2f%%", r.accuracy * 100)
                let micros = String(format: "%7.2f", r.meanMicroseconds)
                print("\(String(r.templatesPerGesture).padding(toLength: 9, withPad: " ", startingAt: 0))  \(accuracy)  \(String(r.recognitions).padding(toLength: 12, withPad: " ", startingAt: 0))  \(micros)")
            }
            if arguments.flag("--confusions") {
                for r in results where !r.confusions.isEmpty {
                    print("confusions with \(r.templatesPerGesture) template\(r.templatesPerGesture == 1 ? "" : "s") per gesture:")
                    let rows = r.confusions.flatMap { expected, got in got.map { (expected, $0.key, $0.value) } }
                        .sorted { ($0.2, $1.0, $1.1) > ($1.2, $0.0, $0.1) }
                    for (expected, got, count) in rows { print("  \(expected) -> \(got): \(count)") }
                }
            }
        }
        return 0
    }
}
