import Foundation
import GestureEvaluation
import GestureRecognition
import GestureTraces
import TestSupport
import Testing

@Suite("UnistrokeEvaluation")
struct UnistrokeEvaluationTests {
    /// A circle of radius 40 drawn with 60 points.
    static func circle() -> [Point] {
        (0..<60).map { k in
            let angle = Double(k) / 59 * 2 * .pi
            return Point(x: 100 + 40 * cos(angle), y: 100 + 40 * sin(angle))
        }
    }

    /// A straight line from the origin to (80, 30), 30 points.
    static func line() -> [Point] {
        (0..<30).map { k in Point(x: 80 * Double(k) / 29, y: 30 * Double(k) / 29) }
    }

    /// Two subjects, two gestures, four noisy samples each.
    static func samples() -> [UnistrokeEvaluation.Sample] {
        var random = SplitMix64(seed: 7)
        var samples: [UnistrokeEvaluation.Sample] = []
        for subject in ["a", "b"] {
            for (gesture, shape) in [("circle", circle()), ("line", line())] {
                for _ in 0..<4 {
                    let noisy = shape.map {
                        Point(x: $0.x + Double(random.next(below: 100)) / 100, y: $0.y + Double(random.next(below: 100)) / 100)
                    }
                    samples.append(.init(gesture: gesture, subject: subject, speed: "medium", points: noisy))
                }
            }
        }
        return samples
    }

    @Test("user-dependent trials count one candidate per gesture per iteration and group", arguments: [1, 3])
    func userDependentCounts(templates: Int) {
        let evaluation = UnistrokeEvaluation(samples: Self.samples(), configuration: .init(), protocol: .userDependent)
        let result = evaluation.run(templatesPerGesture: templates, iterations: 5, seed: 1)
        #expect(result.recognitions == 2 /* groups */ * 5 * 2 /* gestures */)
        #expect(result.accuracy == 1)
    }

    @Test("misrecognitions are counted as confusions")
    func confusionsAreCounted() {
        // Two gestures with the same shape: about half the candidates go to the other name.
        let line = Self.line()
        let samples = (0..<6).flatMap { k in
            ["a", "b"].map {
                UnistrokeEvaluation.Sample(gesture: $0, subject: "s", speed: "m", points: line.map { Point(x: $0.x + Double(k), y: $0.y) })
            }
        }
        let result = UnistrokeEvaluation(samples: samples, configuration: .init(), protocol: .userDependent)
            .run(templatesPerGesture: 1, iterations: 20, seed: 5)
        let wrong = result.confusions.values.flatMap(\.values).reduce(0, +)
        #expect(wrong == result.recognitions - result.correct)
        #expect(wrong > 0)
        #expect(Set(result.confusions.keys).isSubset(of: ["a", "b"]))
        #expect(result.confusions.allSatisfy { expected, row in row[expected] == nil }, "no right answer among the confusions")
    }

    @Test("every answer is recorded, the right ones on the diagonal, rows sized by the trials each gesture was in")
    func answersHoldTheDiagonal() {
        // Subject b drew one line only: too few for a template and a candidate,
        // so lines are candidates in subject a's trials alone.
        let samples =
            Self.samples().filter { !($0.subject == "b" && $0.gesture == "line") }
            + [UnistrokeEvaluation.Sample(gesture: "line", subject: "b", speed: "medium", points: Self.line())]
        let result = UnistrokeEvaluation(samples: samples, configuration: .init(), protocol: .userDependent)
            .run(templatesPerGesture: 1, iterations: 6, seed: 2)
        let rowTotals = result.answers.mapValues { $0.values.reduce(0, +) }
        #expect(rowTotals == ["circle": 2 * 6, "line": 6])
        let diagonal = result.answers.reduce(0) { $0 + ($1.value[$1.key] ?? 0) }
        #expect(diagonal == result.correct)
        #expect(rowTotals.values.reduce(0, +) == result.recognitions)
        #expect(result.confusions.isEmpty == (result.correct == result.recognitions))
    }

    @Test("a group with too few samples for E templates plus a candidate is skipped")
    func tooFewSamplesAreSkipped() {
        let evaluation = UnistrokeEvaluation(samples: Self.samples(), configuration: .init(), protocol: .userDependent)
        #expect(evaluation.run(templatesPerGesture: 4, iterations: 3, seed: 1).recognitions == 0)
    }

    @Test("user-independent trials test each subject against the others")
    func userIndependentCounts() {
        let evaluation = UnistrokeEvaluation(samples: Self.samples(), configuration: .init(), protocol: .userIndependent)
        let result = evaluation.run(templatesPerGesture: 2, iterations: 4, seed: 9)
        #expect(result.recognitions == 2 * 4 * 2)
        #expect(result.accuracy == 1)
    }

    @Test("the same seed gives the same draws")
    func seedIsRepeatable() {
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42), c = SplitMix64(seed: 43)
        let first = (0..<8).map { _ in a.next() }
        #expect(first == (0..<8).map { _ in b.next() })
        #expect(first != (0..<8).map { _ in c.next() })
        var d = SplitMix64(seed: 1)
        let picks = d.sample(5, from: 10)
        #expect(Set(picks).count == 5 && picks.allSatisfy { (0..<10).contains($0) })
    }

    @Test(
        "on the $1 logs the elastic matcher beats the published $1 figures",
        .enabled(if: SharedData.dollarLogs != nil, "needs ../shared/data/dollar1"))
    func elasticBeatsDollarOneOnRealLogs() throws {
        // One subject, all speeds, 10 iterations: a smoke check of accuracy,
        // not the full protocol (that is `gestures eval`, see the README).
        let samples = try UnistrokeEvaluation.samples(under: SharedData.dollarLogs!.appendingPathComponent("s03"))
        #expect(samples.count == 480)
        let evaluation = UnistrokeEvaluation(samples: samples, configuration: .init(matcher: .elastic), protocol: .userDependent)
        let result = evaluation.run(templatesPerGesture: 3, iterations: 10, seed: 3)
        #expect(result.recognitions == 3 * 10 * 16)
        #expect(result.accuracy > 0.971, "accuracy \(result.accuracy)")
    }
}

@Suite struct UnistrokeEvaluationLogsTests {
    /// Writes a log of `points` to `directory/subject/speed/name.xml`, with or without its own labels.
    static func writeLog(in directory: URL, subject: String, speed: String, name: String, labelled: Bool) throws {
        let folder = directory.appendingPathComponent(subject).appendingPathComponent(speed)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let labels = labelled ? #" Subject="7" Speed="fast""# : ""
        let xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <Gesture Name="\(name)"\(labels) Number="1" NumPts="3">
              <Point X="1" Y="2" T="0" />
              <Point X="3" Y="5" T="10" />
              <Point X="6" Y="9" T="20" />
            </Gesture>
            """
        try Data(xml.utf8).write(to: folder.appendingPathComponent("\(name).xml"))
    }

    @Test func samplesTakeTheLogsLabelsElseTheFolders() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("evaluation-logs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.writeLog(in: directory, subject: "s01", speed: "slow", name: "circle03", labelled: false)
        try Self.writeLog(in: directory, subject: "s02", speed: "medium", name: "zig_zag12", labelled: true)
        let samples = try UnistrokeEvaluation.samples(under: directory)
        #expect(samples.map(\.gesture) == ["circle", "zig_zag"])
        #expect(samples.map(\.subject) == ["s01", "7"])
        #expect(samples.map(\.speed) == ["slow", "fast"])
        #expect(samples[0].points == [Point(x: 1, y: 2), Point(x: 3, y: 5), Point(x: 6, y: 9)])
    }

    @Test func anUnreadableLogIsAnError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("evaluation-logs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("<Gesture Name=".utf8).write(to: directory.appendingPathComponent("broken.xml"))
        #expect(throws: DollarGestureLog.ReadError.self) { try UnistrokeEvaluation.samples(under: directory) }
    }
}
