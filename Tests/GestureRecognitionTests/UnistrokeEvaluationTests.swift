import Foundation
import Testing
@testable import GestureRecognition

@Suite("UnistrokeEvaluation")
struct UnistrokeEvaluationTests {
    /// Two subjects, two gestures, four noisy samples each.
    static func samples() -> [UnistrokeEvaluation.Sample] {
        var random = SplitMix64(seed: 7)
        var samples: [UnistrokeEvaluation.Sample] = []
        for subject in ["a", "b"] {
            for (gesture, shape) in [("circle", Strokes.circle()), ("line", Strokes.line(from: .zero, to: Point(x: 80, y: 30)))] {
                for _ in 0..<4 {
                    let noisy = shape.map { Point(x: $0.x + Double(random.next(below: 100)) / 100, y: $0.y + Double(random.next(below: 100)) / 100) }
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
        let line = Strokes.line(from: .zero, to: Point(x: 80, y: 30))
        let samples = (0..<6).flatMap { k in
            ["a", "b"].map { UnistrokeEvaluation.Sample(gesture: $0, subject: "s", speed: "m", points: line.map { Point(x: $0.x + Double(k), y: $0.y) }) }
        }
        let result = UnistrokeEvaluation(samples: samples, configuration: .init(), protocol: .userDependent)
            .run(templatesPerGesture: 1, iterations: 20, seed: 5)
        let wrong = result.confusions.values.flatMap(\.values).reduce(0, +)
        #expect(wrong == result.recognitions - result.correct)
        #expect(wrong > 0)
        #expect(Set(result.confusions.keys).isSubset(of: ["a", "b"]))
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

    @Test("on the $1 logs the elastic matcher beats the published $1 figures", .enabled(if: SharedData.dollarLogs != nil, "needs ../shared/data/dollar1"))
    func elasticBeatsDollarOneOnRealLogs() throws {
        // One subject, all speeds, 10 iterations: a smoke check of accuracy,
        // not the full protocol (that is `gestures eval`, see the README).
        let dir = SharedData.dollarLogs!.appendingPathComponent("s03")
        var samples: [UnistrokeEvaluation.Sample] = []
        for speed in ["slow", "medium", "fast"] {
            let folder = dir.appendingPathComponent(speed)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".xml") {
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                samples.append(.init(gesture: String(name.dropLast(6)), subject: "s03", speed: speed, points: DollarLogScan.points(text)))
            }
        }
        #expect(samples.count == 480)
        let evaluation = UnistrokeEvaluation(samples: samples, configuration: .init(matcher: .elastic), protocol: .userDependent)
        let result = evaluation.run(templatesPerGesture: 3, iterations: 10, seed: 3)
        #expect(result.recognitions == 3 * 10 * 16)
        #expect(result.accuracy > 0.971, "accuracy \(result.accuracy)")
    }
}
