import Foundation
import Testing

@testable import GestureRecognition

/// The one stroke rule: each rule rejects with its figures, the engine hands
/// out the same verdict, and an "L" trained beside the bundled "v" is
/// recognised yet never fires, for the reason the verdict gives.
@Suite("StrokeRule: one capture-and-acceptance step, its verdicts and figures")
struct StrokeRuleTests {
    static let rule = StrokeRule(GestureEngine.Configuration())
    static let shapes = UnistrokeRecognizer(library: .dollarShapes)
    static let circle = GestureEngineStrokeSequenceTests.circle(center: Point(x: 100, y: 60), radius: 25)

    /// The strokes of a JSON stroke file of the repository (`{"name", "points"}` or a list of them).
    static func strokes(_ file: String) throws -> [[Point]] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Recordings/strokes/\(file)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        let list: [[String: Any]]
        if let many = object as? [[String: Any]] { list = many } else { list = [try #require(object as? [String: Any])] }
        return try list.map { stroke in
            try #require(stroke["points"] as? [[Double]]).map { Point(x: $0[0], y: $0[1]) }
        }
    }

    @Test("the defaults are the engine configuration's, in millimetres")
    func defaults() {
        #expect(
            Self.rule
                == StrokeRule(
                    minimumLength: 15, unit: .millimeters, minimumWidthRatio: 0.1, minimumTemplateWidthShare: 0.4, minimumMargin: 0.2))
        #expect(GestureEngine.Configuration().strokeRule == Self.rule)
    }

    @Test("a small stroke is too short, with its length and the minimum in the surface's unit")
    func tooShort() throws {
        // An 8 x 4 mm rectangle: the box round it is about 9 mm across (8.94
        // axis-aligned; the main axis of its path tilts a little).
        let square = [Point(x: 0, y: 0), Point(x: 8, y: 0), Point(x: 8, y: 4), Point(x: 0, y: 4), Point(x: 0, y: 0)]
        let length = StrokeRule.shape(of: square).length
        #expect(length > 8.9 && length < 9.5)
        let verdict = Self.rule.judge(square, with: Self.shapes)
        #expect(verdict == .rejected(.tooShort(length: length, minimum: 15, unit: .millimeters)))
        #expect(verdict.description == "too short: \(StrokeVerdict.decimal(length, digits: 1)) of 15 mm")
        #expect(!verdict.isCaptured)
        var mouse = Self.rule
        mouse.unit = .counts
        mouse.minimumLength = 20
        #expect(mouse.judge(square, with: Self.shapes).description == "too short: \(StrokeVerdict.decimal(length, digits: 1)) of 20 counts")
    }

    @Test("a drag along one line is too narrow, with its width ratio and the minimum")
    func tooNarrow() throws {
        let line = (0...20).map { Point(x: Double($0) * 3, y: Double($0 % 2) * 0.5) }
        let verdict = Self.rule.judge(line, with: Self.shapes)
        guard case .rejected(.tooNarrow(let ratio, let minimum)) = verdict else {
            Issue.record("not too narrow: \(verdict)")
            return
        }
        #expect(ratio < 0.02 && minimum == 0.1)
        #expect(verdict.description == "too narrow: width 0.01 of its length, under the minimum 0.1")
        #expect(verdict.rejection?.sentence.hasPrefix("It is a drag along one line") == true)
    }

    @Test("no points, one point: not a stroke")
    func notAStroke() {
        #expect(Self.rule.judge([], with: Self.shapes) == .rejected(.notAStroke(.empty)))
        #expect(
            Self.rule.judge([Point(x: 1, y: 1)], with: Self.shapes).description
                == "not a stroke: the stroke has no length (one point, or all points equal)")
    }

    @Test("a stroke with no templates, or none good enough, names the threshold and the best score")
    func belowThreshold() throws {
        #expect(Self.rule.judge(Self.circle, with: UnistrokeRecognizer()) == .rejected(.noTemplates))
        // The bundled zigzag sample matches none of the 16 shapes well enough.
        let zigzag = try #require(try Self.strokes("zigzag.json").first)
        let verdict = Self.rule.judge(zigzag, with: Self.shapes)
        guard case .rejected(.belowThreshold(let best, let threshold)) = verdict else {
            Issue.record("not below the threshold: \(verdict)")
            return
        }
        #expect(best.score < 0.75 && threshold == 0.75)
        #expect(Self.shapes.recognize(zigzag) == .noMatch(best: best))
        #expect(verdict.description == "below the threshold: \(best.name) scores \(StrokeVerdict.decimal(best.score, digits: 4)) of 0.75")
        #expect(verdict.isCaptured)
    }

    @Test("a clear circle is accepted, ahead of the best other name by more than the margin")
    func accepted() throws {
        let verdict = Self.rule.judge(Self.circle, with: Self.shapes)
        let acceptance = try #require({ if case .accepted(let a) = verdict { a } else { nil } }())
        #expect(acceptance.match.name == "circle")
        let runnerUp = try #require(acceptance.runnerUp)
        #expect(runnerUp.name != "circle")
        #expect(try #require(acceptance.margin) >= 0.2)
        // The same template and score the recognizer gives.
        #expect(Self.shapes.recognize(Self.circle).match == acceptance.match)
    }

    @Test("an L trained from three samples beside the bundled v fires on a fourth; under a margin of 0.95 it is too close to v")
    func trainedLBesideV() throws {
        var library = TemplateLibrary.dollarShapes
        for sample in try Self.strokes("L/samples.json") { try library.add(name: "L", points: sample) }
        let fourth = try #require(try Self.strokes("L/fourth.json").first)
        let recognizer = UnistrokeRecognizer(library: library)
        let match = try #require(recognizer.recognize(fourth).match)
        #expect(match.name == "L" && match.score > 0.99)
        // The L scores 0.99 and the v about 0.95: their scores differ by
        // less than 0.05 (the old margin, which kept such an L from ever
        // firing), yet the v is five times as far as the L, and it fires.
        let verdict = Self.rule.judge(fourth, with: recognizer)
        let acceptance = try #require(verdict.acceptedMatch.map { _ in verdict }, "\(verdict)")
        guard case .accepted(let accepted) = acceptance else { return }
        #expect(accepted.match == match && accepted.runnerUp?.name == "v")
        let runnerUp = try #require(accepted.runnerUp)
        #expect(match.score - runnerUp.score < 0.05)
        #expect(try #require(accepted.margin) > 0.8)
        // Under a margin of 0.95 the rule rejects it: v is within the margin.
        var strict = Self.rule
        strict.minimumMargin = 0.95
        let rejected = strict.judge(fourth, with: recognizer)
        guard case .rejected(.tooClose(let best, let other?, let margin)) = rejected else {
            Issue.record("not too close: \(rejected)")
            return
        }
        #expect(best == match && other.name == "v" && margin == 0.95)
        let lead = StrokeRule.lead(of: best.score, over: other.score)
        #expect(lead < 0.95 && lead == accepted.margin)
        #expect(rejected.description == "too close to v: \(StrokeVerdict.decimal(lead, digits: 4)) of the 0.95 margin")
        #expect(rejected.rejection?.rule == .margin)
    }

    @Test("the lead is the difference of the scores over the other's distance from 1")
    func leadIsRelativeToTheOthersDistance() {
        #expect(abs(StrokeRule.lead(of: 0.94, over: 0.9) - 0.4) < 1e-12)
        #expect(abs(StrokeRule.lead(of: 0.76, over: 0.72) - 0.04 / 0.28) < 1e-12)
        // As far as the other: no lead; farther: negative; the other identical: none.
        #expect(StrokeRule.lead(of: 0.8, over: 0.8) == 0)
        #expect(StrokeRule.lead(of: 0.7, over: 0.8) < 0)
        #expect(StrokeRule.lead(of: 1, over: 1) == 0)
        // Without another name the lead is the score itself.
        #expect(StrokeRule.lead(of: 0.9, over: 0) == 0.9)
    }

    @Test("a stroke much narrower than the template it matches is a drag, and the same stroke fires against a narrow template")
    func narrowerThanTemplate() throws {
        // A scroll there and back, drifting 0.2 of its way sideways on the
        // way back (as GestureEngineStrokeFiringTests drags it): a caret's
        // shape squeezed flat, which the caret matches over the threshold.
        let there = (0...20).map { Point(x: 2.0 * Double($0), y: 0) }
        let rotated = there + (1...20).map { Point(x: 40 - 2.0 * Double($0), y: 0.4 * Double($0)) }
        let ratio = StrokeRule.shape(of: rotated).widthRatio
        #expect(ratio > 0.15 && ratio < 0.25)
        var caret = TemplateLibrary()
        try caret.add(name: "caret", points: TemplateLibrary.dollarShapes.samples(named: "caret")[0])
        let verdict = Self.rule.judge(rotated, with: UnistrokeRecognizer(library: caret))
        guard case .rejected(.narrowerThanTemplate(let found, let best, let templateRatio, let share)) = verdict else {
            Issue.record("not narrower than the template: \(verdict)")
            return
        }
        #expect(found == ratio && best.name == "caret" && templateRatio > 0.9 && share == 0.4)
        #expect(verdict.rejection?.rule == .width && verdict.isCaptured)
        #expect(
            verdict.description
                == "too narrow for caret: width \(StrokeVerdict.decimal(ratio, digits: 2)) of its length, under the minimum \(StrokeVerdict.decimal(0.4 * templateRatio, digits: 2))"
        )
        // Trained from itself, the flat caret is its own template's width, and fires.
        var own = TemplateLibrary()
        try own.add(name: "flat", points: rotated)
        #expect(Self.rule.judge(rotated, with: UnistrokeRecognizer(library: own)).acceptedMatch?.name == "flat")
        // With the share at 0 the width is checked only against the floor.
        var off = Self.rule
        off.minimumTemplateWidthShare = 0
        #expect(off.judge(rotated, with: UnistrokeRecognizer(library: caret)).acceptedMatch?.name == "caret")
    }

    /// A closed path through `corners` (unit square, y down), 100 across, 12 points a side.
    static func closed(_ corners: [(Double, Double)]) -> [Point] {
        let ring = corners + [corners[0]]
        return (1..<ring.count).flatMap { i in
            (0..<12).map { k in
                let t = Double(k) / 12
                return Point(
                    x: 100 * (ring[i - 1].0 + t * (ring[i].0 - ring[i - 1].0)), y: 100 * (ring[i - 1].1 + t * (ring[i].1 - ring[i - 1].1)))
            }
        } + [Point(x: 100 * corners[0].0, y: 100 * corners[0].1)]
    }

    /// 0.94 of a turn of an ellipse 0.9 as wide as tall, from the top, clockwise on screen or not.
    static func circle(clockwise: Bool) -> [Point] {
        (0...60).map { k in
            let angle = Double(k) / 64 * 2 * .pi
            return Point(x: 50 + (clockwise ? 45 : -45) * sin(angle), y: 50 - 50 * cos(angle))
        }
    }

    /// A shape drawn one way, named in the test's output by `way` instead of its points.
    struct Drawn: CustomTestStringConvertible, Sendable {
        var name: String
        var way: String
        var points: [Point]
        var testDescription: String { "\(name), \(way)" }
    }

    @Test(
        "the bundled library fires circles, rectangles and triangles drawn either way round, from another corner",
        arguments: [
            Drawn(name: "circle", way: "clockwise", points: circle(clockwise: true)),
            Drawn(name: "circle", way: "anticlockwise", points: circle(clockwise: false)),
            Drawn(name: "rectangle", way: "clockwise from the top left", points: closed([(0, 0), (0.9, 0), (0.9, 0.8), (0, 0.8)])),
            Drawn(
                name: "rectangle", way: "anticlockwise from the bottom right", points: closed([(0.9, 0.8), (0.9, 0), (0, 0), (0, 0.8)])),
            Drawn(name: "triangle", way: "clockwise from the apex", points: closed([(0.5, 0), (1, 0.85), (0, 0.85)])),
            Drawn(name: "triangle", way: "anticlockwise from the bottom left", points: closed([(0, 0.85), (1, 0.85), (0.5, 0)])),
        ])
    func eitherWayRound(shape: Drawn) {
        let verdict = Self.rule.judge(shape.points, with: Self.shapes)
        #expect(verdict.acceptedMatch?.name == shape.name, "\(verdict)")
    }

    @Test(
        "under a margin of 0.95 the L samples are ambiguous with v when added; with the defaults they are not, nor are the bundled shapes")
    func ambiguitiesOfTheL() throws {
        var library = TemplateLibrary.dollarShapes
        let first = library.templates.count
        for sample in try Self.strokes("L/samples.json") { try library.add(name: "L", points: sample) }
        #expect(Self.rule.ambiguities(of: first..<library.templates.count, in: library, configuration: .init()).isEmpty)
        var strict = Self.rule
        strict.minimumMargin = 0.95
        let found = strict.ambiguities(of: first..<library.templates.count, in: library, configuration: .init())
        #expect(!found.isEmpty)
        for ambiguity in found {
            #expect(ambiguity.name == "L" && ambiguity.other.name == "v")
            #expect(library.templates[ambiguity.other.templateIndex].name == "v")
            #expect(ambiguity.lead < 0.95)
            #expect(ambiguity.description.contains("is within the 0.95 margin of v (template \(ambiguity.other.templateIndex + 1))"))
        }
        // No bundled variant is within the margin of another name's templates.
        let bundled = TemplateLibrary.dollarShapes
        #expect(Self.rule.ambiguities(of: bundled.templates.indices, in: bundled, configuration: .init()).isEmpty)
        var off = strict
        off.minimumMargin = 0
        #expect(off.ambiguities(of: first..<library.templates.count, in: library, configuration: .init()).isEmpty)
    }

    @Test("the engine hands out every stroke it drew with the rule's verdict, fired or not")
    func engineHandsOutVerdicts() throws {
        var engine = GestureEngine(surface: SyntheticTouch.screen, templates: .dollarShapes)
        var events: [GestureEvent] = []
        var drawn: [DrawnStroke] = []
        let circle = GestureEngineStrokeFiringTests.drag(Self.circle)
        let line = GestureEngineStrokeFiringTests.drag((0...30).map { Point(x: 40 + 2 * Double($0), y: 60) })
        let offset = Duration.seconds(2)
        for frame in circle
            + line.map({
                var later = $0; later.time += offset; return later
            })
        {
            events += engine.process(frame)
            drawn += engine.takeDrawnStrokes()
        }
        events += engine.finish()
        drawn += engine.takeDrawnStrokes()
        #expect(engine.takeDrawnStrokes().isEmpty, "taken once")
        #expect(drawn.count == 2)
        let stroke = try #require(events.first { $0.type == .stroke })
        #expect(drawn[0].verdict.acceptedMatch?.name == stroke.template && drawn[0].verdict.acceptedMatch?.score == stroke.score)
        #expect(drawn[0].time == stroke.time && drawn[0].fingers == 1)
        #expect(drawn[0].verdict == Self.rule.judge(drawn[0].points, with: Self.shapes))
        #expect(drawn[1].verdict.rejection?.rule == .width)
        #expect(events.filter { $0.type == .stroke }.count == 1)
        let line2 = try #require(drawn[1].rejectionLine(device: "Screen"))
        #expect(line2.hasPrefix("a stroke on 'Screen' at ") && line2.contains(" ms fired nothing: too narrow: width "))
        #expect(drawn[0].rejectionLine(device: "Screen") == nil)
    }

    @Test("strokes nobody takes cost at most the kept bound")
    func keptStrokesAreBounded() {
        var engine = GestureEngine(surface: SyntheticTouch.screen, templates: .dollarShapes)
        let line = GestureEngineStrokeFiringTests.drag((0...30).map { Point(x: 40 + 2 * Double($0), y: 60) })
        for round in 0..<(GestureEngine.maximumKeptStrokes + 4) {
            for frame in line {
                var later = frame
                later.time += .seconds(2 * round)
                _ = engine.process(later)
            }
        }
        let kept = engine.takeDrawnStrokes()
        #expect(kept.count == GestureEngine.maximumKeptStrokes)
        // The newest are kept.
        #expect(kept.last?.time ?? .zero > .seconds(2 * (GestureEngine.maximumKeptStrokes + 2)))
    }
}
