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
        #expect(Self.rule == StrokeRule(minimumLength: 15, unit: .millimeters, minimumWidthRatio: 0.25, minimumMargin: 0.05))
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
        #expect(ratio < 0.02 && minimum == 0.25)
        #expect(verdict.description == "too narrow: width 0.01 of its length, under the minimum 0.25")
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
        #expect(try #require(acceptance.margin) >= 0.05)
        // The same template and score the recognizer gives.
        #expect(Self.shapes.recognize(Self.circle).match == acceptance.match)
    }

    @Test("an L trained from three samples beside the bundled v: recognised as L, yet too close to v to fire")
    func trainedLBesideV() throws {
        var library = TemplateLibrary.dollarShapes
        for sample in try Self.strokes("L/samples.json") { try library.add(name: "L", points: sample) }
        let fourth = try #require(try Self.strokes("L/fourth.json").first)
        let recognizer = UnistrokeRecognizer(library: library)
        // The recognizer alone takes it for an L...
        let match = try #require(recognizer.recognize(fourth).match)
        #expect(match.name == "L" && match.score > 0.99)
        // ...and the rule the daemon applies rejects it: v is within the margin.
        let verdict = Self.rule.judge(fourth, with: recognizer)
        guard case .rejected(.tooClose(let best, let other?, let margin)) = verdict else {
            Issue.record("not too close: \(verdict)")
            return
        }
        #expect(best == match && other.name == "v" && margin == 0.05)
        #expect(best.score - other.score < 0.05)
        #expect(verdict.description == "too close to v: \(StrokeVerdict.decimal(best.score - other.score, digits: 4)) of the 0.05 margin")
        #expect(verdict.rejection?.rule == .margin)
        // With the margin off, it fires.
        var loose = Self.rule
        loose.minimumMargin = 0
        #expect(loose.judge(fourth, with: recognizer).acceptedMatch == match)
    }

    @Test("the L samples are ambiguous with v when added, and the bundled shapes alone are not")
    func ambiguitiesOfTheL() throws {
        var library = TemplateLibrary.dollarShapes
        let first = library.templates.count
        for sample in try Self.strokes("L/samples.json") { try library.add(name: "L", points: sample) }
        let found = Self.rule.ambiguities(of: first..<library.templates.count, in: library, configuration: .init())
        #expect(!found.isEmpty)
        for ambiguity in found {
            #expect(ambiguity.name == "L" && ambiguity.other.name == "v")
            #expect(library.templates[ambiguity.other.templateIndex].name == "v")
            #expect(ambiguity.lead < 0.05)
            #expect(ambiguity.description.contains("is within the 0.05 margin of v (template \(ambiguity.other.templateIndex + 1))"))
        }
        let bundled = TemplateLibrary.dollarShapes
        #expect(Self.rule.ambiguities(of: bundled.templates.indices, in: bundled, configuration: .init()).isEmpty)
        var off = Self.rule
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
