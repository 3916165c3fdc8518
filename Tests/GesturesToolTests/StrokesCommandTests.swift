import Foundation
import GestureRecognition
import GestureTraces
import Testing
import TouchInput

@testable import gestures

/// `gestures strokes` prints the verdict of the mouse's own pipeline (the
/// `StrokeRule` the daemon fires by), never the bare recognizer's answer.
@Suite struct StrokesCommandTests {
    /// The decisions of a mouse recording's pipeline, read beside the desktop, judged against `templates`.
    static func decisions(_ name: String, templates: TemplateLibrary = .dollarShapes) throws -> [MouseDecision] {
        let trace = try Trace.load(contentsOf: ToolRunner.repository.appendingPathComponent("Recordings/synthetic/\(name).jsonl"))
        let setup = GesturePipeline.Setup(templates: templates, mouse: MouseStrokeEngine.Settings(withholdsButton: false))
        var pipeline = try #require(GesturePipeline(device: trace.devices[0], originMicroseconds: 0, setup: setup))
        var decisions: [MouseDecision] = []
        for frame in trace.frames {
            for event in frame.events { _ = pipeline.process(event) }
            decisions += pipeline.takeDecisions()
        }
        _ = pipeline.finish()
        return decisions + pipeline.takeDecisions()
    }

    /// The lines `strokes` prints for `decisions`, in text and in JSON.
    static func lines(_ decisions: [MouseDecision]) -> [(text: String, json: String)] {
        decisions.compactMap(LiveStrokes.event(for:)).map {
            (StrokesCommand.line(for: $0, json: false), StrokesCommand.line(for: $0, json: true))
        }
    }

    @Test("a stroke the pipeline accepts prints its template; one it rejects prints why; a click prints nothing")
    func linesSayThePipelinesDecision() throws {
        let circle = try Self.lines(Self.decisions("mouse.stroke-circle"))
        #expect(circle.count == 1 && circle[0].text.hasPrefix("circle (score 0.9"), "\(circle)")
        #expect(circle.first?.json.hasPrefix(#"{"template":"circle","score":0.9"#) == true, "\(circle)")
        let unmatched = try Self.lines(Self.decisions("mouse.nothing-unmatched-stroke"))
        #expect(unmatched.map(\.text) == ["no match: below the threshold: pigtail scores 0.3209 of 0.75"])
        #expect(
            unmatched.first?.json.contains(#""template":null,"best":"pigtail","score":0.3209,"rule":"threshold""#) == true, "\(unmatched)")
        #expect(try Self.lines(Self.decisions("mouse.click")).isEmpty)
    }

    @Test("a stroke the bare recognizer matches but the daemon would not fire prints no match, with the rule that rejects it")
    func aMatchTheDaemonRejectsIsNoMatch() throws {
        // The circle's samples under two names: the best template is a circle, and no name is ahead of the other.
        var twins = TemplateLibrary()
        for points in TemplateLibrary.dollarShapes.samples(named: "circle") {
            try twins.add(name: "circle", points: points)
            try twins.add(name: "ring", points: points)
        }
        let decisions = try Self.decisions("mouse.stroke-circle", templates: twins)
        let stroke = try #require(decisions.first { !$0.points.isEmpty })
        guard
            case .match = UnistrokeRecognizer(library: twins, configuration: MouseStrokeEngine.Settings.defaultRecognition).recognize(
                stroke.points)
        else {
            Issue.record("the bare recognizer matches nothing, so the case shows nothing")
            return
        }
        let lines = Self.lines(decisions)
        #expect(lines.count == 1 && lines[0].text.hasPrefix("no match: too close to "), "\(lines)")
        #expect(
            lines.first?.json.contains(#""template":null"#) == true && lines.first?.json.contains(#""rule":"margin""#) == true, "\(lines)")
    }
}
