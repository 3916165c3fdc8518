import CommandLineKit
import Foundation
import GestureTraces
import InputChecks
import Validation

/// `gestures bench-patterns`: times one `PatternMatcher.matches` call per
/// pattern of a ReDoS corpus, to measure the engine limit in a release build.
enum BenchPatternsCommand: Command {
    static let name = "bench-patterns"
    static let abstract = "Time one pattern match per entry of a ReDoS corpus."
    static let discussion = """
        CORPUS.json is {"entries": [{"id", "pattern", "prefix", "pump", "repeat", \
        "suffix"}]}; each attack is prefix + pump * repeat + suffix, cut to \
        \(PatternMatcher.maximumValueLength) UTF-16 code units. Prints the largest, \
        99th-percentile and median time of one match call, and the count of each outcome. \
        Build with 'swift build -c release' for figures worth quoting.
        """
    static let arguments = [ArgumentSpec("CORPUS.json", kind: .file, help: "The corpus of patterns and attacks.")]

    /// The corpus.
    struct Options {
        var path: String
    }

    static func parse(_ arguments: ParsedArguments) -> Options {
        Options(path: arguments.positionals[0])
    }

    static func run(_ options: Options) throws -> Int32 {
        let path = options.path
        try FileArgument.check(path, as: .patternCorpus)
        let data: Data
        do { data = try InputFile.read(path, maximumBytes: 256 << 20) } catch { throw CommandFailure("corpus \(error.description)") }
        let corpus: ReDoSCorpus
        do { corpus = try JSONText.decode(ReDoSCorpus.self, from: data) } catch { throw CommandFailure("\(path): \(error.description)") }

        var times: [(Duration, String)] = []
        var outcomes: [PatternMatcher.Outcome: Int] = [:]
        var rejected = 0
        let progress = Progress("bench-patterns", total: corpus.entries.count, unit: "patterns")
        for entry in corpus.entries {
            progress.advance()
            guard let matcher = try? PatternMatcher(entry.pattern) else {
                rejected += 1
                continue
            }
            let attack = entry.attack()
            let start = ContinuousClock.now
            let outcome = matcher.matches(attack)
            times.append((ContinuousClock.now - start, entry.id))
            outcomes[outcome, default: 0] += 1
        }
        progress.finish()
        guard !times.isEmpty else { throw CommandFailure("no pattern in '\(path)' compiles") }

        times.sort { $0.0 < $1.0 }
        func percentile(_ fraction: Double) -> Duration {
            times[min(times.count - 1, Int((Double(times.count) * fraction).rounded(.up)) - 1)].0
        }
        print("patterns: \(corpus.entries.count), compiled: \(times.count), rejected by ICU: \(rejected)")
        print(
            "one matches call: max \(milliseconds(times.last!.0)) (\(times.last!.1)), "
                + "p99 \(milliseconds(percentile(0.99))), median \(milliseconds(percentile(0.5)))")
        let order: [PatternMatcher.Outcome] = [.matched, .notMatched, .timedOut, .tooLong]
        print("outcomes: " + order.map { "\($0) \(outcomes[$0, default: 0])" }.joined(separator: ", "))
        return 0
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        return String(format: "%.3f ms", value)
    }
}
