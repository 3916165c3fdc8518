import Foundation
import GestureRecognition
import GestureTraces
import TestSupport
import Testing

@testable import GesturePictures

@Suite("RecognitionExplanation")
struct RecognitionExplanationTests {
    @Test("each recorded stroke is explained with its best and second-best templates", arguments: try Fixtures.strokeFiles())
    func recordedStrokeIsExplained(_ file: String) throws {
        let stroke = try #require(try StrokeFile.load(contentsOf: Fixtures.stroke(file)).first)
        let recognizer = UnistrokeRecognizer(library: .dollarShapes)
        let explanation = RecognitionExplanation(stroke: stroke.points, recognizer: recognizer, title: file)
        let svg = explanation.svg
        Fixtures.keep(svg, as: "explain." + file)
        let root = try SVGInspector.parse(svg)

        let scores = recognizer.scores(for: stroke.points)
        let best = try #require(scores.first)
        let second = try #require(scores.first { $0.name != best.name })
        let panels = root.all("g", class: "panel")
        #expect(panels.count == 4)
        #expect(panels[2].title?.contains(best.name) == true)
        #expect(panels[2].title?.contains(SVG.decimal(best.score, digits: 3)) == true)
        #expect(panels[3].title?.contains(second.name) == true)
        // Each compared panel holds the template over the stroke.
        for panel in panels[2...] {
            #expect(panel.all("path", class: "compared-path").count == 1)
            #expect(panel.all("path", class: "candidate-path").count == 1)
        }
        let verdict = try #require(root.all("text", class: "verdict").first?.text)
        switch recognizer.recognize(stroke.points) {
        case .match(let match): #expect(verdict.hasPrefix("Recognised as \(match.name)"))
        case .noMatch: #expect(verdict.hasPrefix("No match"))
        case .degenerate: Issue.record("a recorded stroke is degenerate")
        }
        #expect(root.allText.contains("threshold 0.75"))
    }

    @Test func zigzagIsNoMatchWithTheBestBelowTheThreshold() throws {
        let stroke = try #require(try StrokeFile.load(contentsOf: Fixtures.stroke("zigzag.json")).first)
        let explanation = RecognitionExplanation(stroke: stroke.points, library: .dollarShapes)
        guard case .noMatch(let best?) = explanation.outcome else {
            Issue.record("zigzag should be no match, got \(explanation.outcome)")
            return
        }
        #expect(explanation.contenders.first == best)
        let root = try SVGInspector.parse(explanation.svg)
        #expect(root.all("text", class: "verdict").first?.text.hasPrefix("No match: the best, \(best.name)") == true)
    }

    @Test func strokeOfOnePointIsExplainedAsNotAStroke() throws {
        let explanation = RecognitionExplanation(stroke: [Point(x: 1, y: 1)], library: .dollarShapes)
        let root = try SVGInspector.parse(explanation.svg)
        #expect(explanation.contenders.isEmpty)
        #expect(root.all("text", class: "verdict").first?.text.hasPrefix("Not a stroke") == true)
        #expect(root.all("path", class: "compared-path").isEmpty)
    }

    @Test func libraryOfOneNameComparesItsTwoSamples() throws {
        var library = TemplateLibrary()
        try library.add(name: "v", points: [Point(x: 0, y: 0), Point(x: 5, y: 10), Point(x: 10, y: 0)])
        try library.add(name: "v", points: [Point(x: 0, y: 0), Point(x: 4, y: 12), Point(x: 10, y: 1)])
        let explanation = RecognitionExplanation(stroke: [Point(x: 0, y: 0), Point(x: 5, y: 9), Point(x: 10, y: 0)], library: library)
        #expect(explanation.contenders.map(\.name) == ["v", "v"])
        #expect(Set(explanation.contenders.map(\.templateIndex)) == [0, 1])
    }
}
