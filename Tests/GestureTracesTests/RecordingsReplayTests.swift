import Foundation
import Testing
import GestureRecognition
@testable import GestureTraces

/// Every trace in `Recordings/` with an `.expected.jsonl` beside it replays
/// to exactly that output (the `gestures replay` contract, one object a line).
@Suite("Recordings replay to their expected output")
struct RecordingsReplayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Recordings")

    /// Paths (relative to `Recordings/`) of traces that have an expected output.
    static let traces: [String] = {
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var found: [String] = []
        for case let path as String in walker where path.hasSuffix(".expected.jsonl") {
            found.append(String(path.dropLast(".expected.jsonl".count)) + ".jsonl")
        }
        return found.sorted()
    }()

    @Test("there are recordings with expected outputs")
    func recordingsExist() {
        #expect(Self.traces.count >= 5)
    }

    @Test("the replay equals the expected output", arguments: traces)
    func replayEqualsExpected(path: String) throws {
        let trace = try Trace.load(contentsOf: Self.root.appendingPathComponent(path))
        let expectedURL = Self.root.appendingPathComponent(String(path.dropLast(".jsonl".count)) + ".expected.jsonl")
        let expected = try String(contentsOf: expectedURL, encoding: .utf8).split(separator: "\n").map(String.init)
        let actual = GestureReplay().gestures(in: trace).map(\.jsonLine)
        #expect(actual.count == expected.count, "\(actual.count) lines, expected \(expected.count)")
        for (index, (a, e)) in zip(actual, expected).enumerated() where a != e {
            Issue.record("line \(index + 1): got \(a), expected \(e)")
            break
        }
    }
}
