import Foundation
import GestureBenchmarks
import GestureEvaluation
import TestSupport
import Testing

@testable import GestureRecognition

/// The recognizer's matching, checked against a plain reference: every
/// template scored in full, in index order, with the textbook DTW matrix.
/// Whatever the fast path skips or reorders, its outcomes must be these.
@Suite("UnistrokeRecognizer matching against a reference")
struct UnistrokeRecognizerMatchingTests {
    /// Labelled strokes: the $1 logs when present, else (a fresh clone) generated
    /// strokes of the 16 shapes in as many groups of "subject" and "speed" as the
    /// tests below need (1,600 strokes, 3 subjects, 3 speeds; the logs have 2,400),
    /// one in five turned a quarter turn, beyond what an orientation-sensitive
    /// recognizer tolerates, so that rejections are exercised as the logs do.
    static let samples: [UnistrokeEvaluation.Sample] = {
        guard let root = SharedData.dollarLogs else {
            let speeds = ["slow", "medium", "fast"]
            return RecognitionBenchmark.generatedStrokes(perShape: 100).enumerated().map { index, stroke in
                let points = index % 5 == 4 ? stroke.points.map { Point(x: -$0.y, y: $0.x) } : stroke.points
                return .init(gesture: stroke.name, subject: "g\(index % 3)", speed: speeds[(index / 3) % 3], points: points)
            }
        }
        var samples: [UnistrokeEvaluation.Sample] = []
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        for file in files.sorted() where file.hasSuffix(".xml") {
            let parts = file.split(separator: "/")
            guard parts.count == 3, let text = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) else { continue }
            let gesture = String(parts[2].dropLast(6))  // "arrow01.xml" -> "arrow"
            samples.append(.init(gesture: gesture, subject: String(parts[0]), speed: String(parts[1]), points: DollarLogScan.points(text)))
        }
        return samples
    }()

    /// The elastic score as the matcher defines it, computed in full with
    /// the whole (n x n) matrix and no early stop.
    static func referenceElasticScore(_ a: [Point], _ b: [Point]) -> Double {
        let n = min(a.count, b.count)
        guard n >= 2 else { return 0 }
        let band = max(1, Int((Double(n) * MatchContext.elasticBandFraction).rounded()))
        let w = MatchContext.elasticDirectionWeight
        let scale = 1 / UnistrokePipeline.halfDiagonal / (1 + w)
        let weight = w / (1 + w)
        func directions(_ p: [Point]) -> [Point] {
            (1..<n).map { i in
                let dx = p[i].x - p[i - 1].x, dy = p[i].y - p[i - 1].y
                let length = (dx * dx + dy * dy).squareRoot()
                return length > 0 ? Point(x: dx / length, y: dy / length) : .zero
            }
        }
        let da = directions(a), db = directions(b)
        var d = [[Double]](repeating: [Double](repeating: .infinity, count: n), count: n)
        for i in 0..<n {
            for j in max(0, i - band)...min(n - 1, i + band) {
                let dx = a[i].x - b[j].x, dy = a[i].y - b[j].y
                let u = da[min(i, n - 2)], v = db[min(j, n - 2)]
                let turn = 1 - (u.x * v.x + u.y * v.y)
                let cost = (dx * dx + dy * dy).squareRoot() * scale + weight * turn
                var before = Double.infinity
                if i == 0 && j == 0 { before = 0 }
                if i > 0 { before = min(before, d[i - 1][j]) }
                if i > 0 && j > 0 { before = min(before, d[i - 1][j - 1]) }
                if j > 0 { before = min(before, d[i][j - 1]) }
                d[i][j] = before + cost
            }
        }
        let score = 1 - d[n - 1][n - 1] / Double(n)
        return score.isFinite ? max(0, min(1, score)) : 0
    }

    /// Every template's reference score for `points`, in template order.
    static func referenceScores(_ recognizer: UnistrokeRecognizer, _ points: [Point]) -> [Double]? {
        guard case .success(let candidate) = recognizer.normalized(points) else { return nil }
        return recognizer.templates.map { referenceElasticScore(candidate, $0.normalizedPoints) }
    }

    /// Checks `recognize` and `scores(for:)` against the reference for every candidate.
    static func expectReferenceOutcomes(
        _ recognizer: UnistrokeRecognizer, _ candidates: [[Point]],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (matches: Int, noMatches: Int) {
        var matches = 0, noMatches = 0
        for points in candidates {
            guard let reference = referenceScores(recognizer, points) else {
                #expect(recognizer.recognize(points).match == nil, sourceLocation: sourceLocation)
                continue
            }
            // The first template with the highest score, as the plain loop picks it.
            var bestIndex = 0
            for (index, score) in reference.enumerated() where score > reference[bestIndex] { bestIndex = index }
            let best = UnistrokeRecognizer.Match(
                name: recognizer.templates[bestIndex].name, score: reference[bestIndex], templateIndex: bestIndex)
            let outcome = recognizer.recognize(points)
            let found: UnistrokeRecognizer.Match?
            switch outcome {
            case .match(let m):
                found = m
                matches += 1
                #expect(best.score >= recognizer.configuration.rejectionThreshold, sourceLocation: sourceLocation)
            case .noMatch(let m):
                found = m
                noMatches += 1
                #expect(best.score < recognizer.configuration.rejectionThreshold, sourceLocation: sourceLocation)
            case .degenerate(let reason):
                Issue.record("degenerate (\(reason)) where the reference found \(best)", sourceLocation: sourceLocation)
                continue
            }
            #expect(
                found?.templateIndex == best.templateIndex, "best \(String(describing: found)), reference \(best)",
                sourceLocation: sourceLocation)
            #expect(found?.name == best.name, sourceLocation: sourceLocation)
            #expect(abs((found?.score ?? -1) - best.score) <= 1e-12, sourceLocation: sourceLocation)

            // Every score, hence the second best and the rest of the ranking.
            let scores = recognizer.scores(for: points)
            #expect(scores.count == reference.count, sourceLocation: sourceLocation)
            for match in scores {
                #expect(
                    abs(match.score - reference[match.templateIndex]) <= 1e-12, "template \(match.templateIndex)",
                    sourceLocation: sourceLocation)
            }
            #expect(zip(scores, scores.dropFirst()).allSatisfy { $0.score >= $1.score }, sourceLocation: sourceLocation)
        }
        return (matches, noMatches)
    }

    static let configurations: [UnistrokeRecognizer.Configuration] = [
        .init(),
        .init(rejectionThreshold: 0.9),
        .init(orientation: .sensitive, rejectionThreshold: 0.85),
        .init(resampleCount: 16),
        .init(resampleCount: 100),
    ]

    @Test("small libraries, one per subject and speed: the same outcomes as the reference", arguments: configurations)
    func smallLibraries(configuration: UnistrokeRecognizer.Configuration) {
        var groups: [String: [UnistrokeEvaluation.Sample]] = [:]
        for sample in Self.samples { groups["\(sample.subject)/\(sample.speed)", default: []].append(sample) }
        var candidates = 0, outcomes = (matches: 0, noMatches: 0)
        for key in groups.keys.sorted() {
            let group = groups[key]!
            var recognizer = UnistrokeRecognizer(configuration: configuration)
            var seen: [String: Int] = [:]
            var others: [[Point]] = []
            for sample in group {
                seen[sample.gesture, default: 0] += 1
                if seen[sample.gesture]! <= 2 {
                    recognizer.add(name: sample.gesture, points: sample.points)
                } else {
                    others.append(sample.points)
                }
            }
            let chosen = stride(from: 0, to: others.count, by: 8).map { others[$0] }
            candidates += chosen.count
            let counts = Self.expectReferenceOutcomes(recognizer, chosen)
            outcomes.matches += counts.matches
            outcomes.noMatches += counts.noMatches
        }
        #expect(candidates >= 50)
        #expect(outcomes.matches > 0)
        if configuration.rejectionThreshold >= 0.85 { #expect(outcomes.noMatches > 0) }
    }

    @Test(
        "every real stroke of the $1 logs against one template per gesture (the eval protocol at E=1): the reference outcomes",
        .enabled(if: SharedData.dollarLogs != nil, "needs ../shared/data/dollar1"))
    func everyRealStrokeAtOneTemplatePerGesture() {
        var groups: [String: [UnistrokeEvaluation.Sample]] = [:]
        for sample in Self.samples { groups["\(sample.subject)/\(sample.speed)", default: []].append(sample) }
        var candidates = 0
        for key in groups.keys.sorted() {
            var recognizer = UnistrokeRecognizer(configuration: .init(rejectionThreshold: 0))
            var others: [[Point]] = []
            var seen: Set<String> = []
            for sample in groups[key]! {
                if seen.insert(sample.gesture).inserted {
                    recognizer.add(name: sample.gesture, points: sample.points)
                } else {
                    others.append(sample.points)
                }
            }
            candidates += others.count
            let counts = Self.expectReferenceOutcomes(recognizer, others)
            #expect(counts.matches == others.count)
        }
        // 15 subject-and-speed groups of 160 strokes, 16 of each as templates.
        #expect(candidates == 2_400 - 15 * 16)
    }

    @Test("a library of hundreds of templates from other people: the same outcomes as the reference")
    func largeLibrary() {
        let subjects = Array(Set(Self.samples.map(\.subject))).sorted()
        let held = subjects.last!
        var recognizer = UnistrokeRecognizer()
        let pool = Self.samples.filter { $0.subject != held || subjects.count == 1 }
        for (k, sample) in pool.enumerated() where k % 6 == 0 { recognizer.add(name: sample.gesture, points: sample.points) }
        let candidates = Self.samples.enumerated().filter { $0.element.subject == held && $0.offset % 16 == 1 }.map(\.element.points)
        #expect(recognizer.templates.count >= 160)
        #expect(candidates.count >= 20)
        _ = Self.expectReferenceOutcomes(recognizer, candidates)
    }

    @Test("equal templates under two names: the first one added wins, as in a plain loop")
    func tiesGoToTheFirstTemplate() {
        var recognizer = UnistrokeRecognizer()
        let strokes = Self.samples.prefix(40).map(\.points)
        for (k, points) in strokes.enumerated() { recognizer.add(name: "first \(k)", points: points) }
        for (k, points) in strokes.enumerated().reversed() { recognizer.add(name: "second \(k)", points: points) }
        for (k, points) in strokes.enumerated() {
            let match = recognizer.recognize(points).match
            #expect(match?.name == "first \(k)")
            #expect((match?.score ?? 0) > 1 - 1e-9)
        }
        _ = Self.expectReferenceOutcomes(recognizer, strokes)
    }
}
