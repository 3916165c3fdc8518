import Foundation
import TestSupport
import Testing

@testable import GestureRecognition

/// Strokes to test with, generated here.
enum Strokes {
    static func circle(points: Int = 60, radius: Double = 40, centre: Point = Point(x: 100, y: 100)) -> [Point] {
        (0..<points).map { k in
            let a = Double(k) / Double(points - 1) * 2 * .pi
            return Point(x: centre.x + radius * cos(a), y: centre.y + radius * sin(a))
        }
    }

    static func line(from a: Point, to b: Point, points: Int = 30) -> [Point] {
        (0..<points).map { k in
            let t = Double(k) / Double(points - 1)
            return Point(x: a.x + t * (b.x - a.x), y: a.y + t * (b.y - a.y))
        }
    }

    static func transformed(_ points: [Point], rotationDegrees: Double = 0, scale: Double = 1, offset: Point = .zero) -> [Point] {
        let a = rotationDegrees * .pi / 180
        return points.map { p in
            Point(
                x: scale * (p.x * cos(a) - p.y * sin(a)) + offset.x,
                y: scale * (p.x * sin(a) + p.y * cos(a)) + offset.y)
        }
    }
}

@Suite("UnistrokeRecognizer")
struct UnistrokeRecognizerTests {
    static let matchers = UnistrokeRecognizer.Matcher.allCases

    @Test("every template of the default library recognises itself with a score near 1", arguments: matchers)
    func templateRecognisesItself(matcher: UnistrokeRecognizer.Matcher) {
        let recognizer = UnistrokeRecognizer(library: .dollarShapes, configuration: .init(matcher: matcher))
        // The 16 shapes, one of each first, then their variants.
        #expect(recognizer.templates.count == TemplateLibrary.dollarShapes.templates.count)
        #expect(TemplateLibrary.dollarShapes.names.count == 16)
        #expect(Set(recognizer.templates.prefix(16).map(\.name)).count == 16)
        for template in TemplateLibrary.dollarShapes.templates {
            let match = recognizer.recognize(template.points).match
            #expect(match?.name == template.name)
            #expect((match?.score ?? 0) > 0.99, "\(template.name) scored \(match?.score ?? 0)")
        }
    }

    @Test("rotated, scaled and translated copies are recognised", arguments: matchers, [-30.0, -10, 15, 40])
    func transformedCopiesAreRecognised(matcher: UnistrokeRecognizer.Matcher, degrees: Double) {
        let recognizer = UnistrokeRecognizer(library: .dollarShapes, configuration: .init(matcher: matcher))
        for template in TemplateLibrary.dollarShapes.templates {
            let copy = Strokes.transformed(template.points, rotationDegrees: degrees, scale: 2.7, offset: Point(x: -400, y: 90))
            #expect(recognizer.recognize(copy).match?.name == template.name, "\(template.name) rotated \(degrees)")
        }
    }

    @Test("scores are in 0...1 for every matcher and every pair of shapes", arguments: matchers)
    func scoresAreInUnitRange(matcher: UnistrokeRecognizer.Matcher) {
        let recognizer = UnistrokeRecognizer(library: .dollarShapes, configuration: .init(matcher: matcher))
        for template in TemplateLibrary.dollarShapes.templates {
            for match in recognizer.scores(for: template.points) {
                #expect((0...1).contains(match.score))
            }
        }
    }

    @Test("in orientation-sensitive mode, a line drawn right-to-left is not left-to-right", arguments: matchers)
    func orientationSensitiveLinesKeepDirection(matcher: UnistrokeRecognizer.Matcher) throws {
        var library = TemplateLibrary()
        try library.add(name: "right", points: Strokes.line(from: Point(x: 0, y: 0), to: Point(x: 100, y: 0)))
        try library.add(name: "left", points: Strokes.line(from: Point(x: 100, y: 0), to: Point(x: 0, y: 0)))
        try library.add(name: "down", points: Strokes.line(from: Point(x: 0, y: 0), to: Point(x: 0, y: 100)))
        try library.add(name: "up", points: Strokes.line(from: Point(x: 0, y: 100), to: Point(x: 0, y: 0)))
        let recognizer = UnistrokeRecognizer(library: library, configuration: .init(matcher: matcher, orientation: .sensitive))
        let cases: [(Point, Point, String)] = [
            (Point(x: 5, y: 50), Point(x: 60, y: 55), "right"),
            (Point(x: 60, y: 50), Point(x: 5, y: 45), "left"),
            (Point(x: 50, y: 0), Point(x: 52, y: 40), "down"),
            (Point(x: 50, y: 40), Point(x: 47, y: 0), "up"),
        ]
        for (from, to, expected) in cases {
            #expect(recognizer.recognize(Strokes.line(from: from, to: to)).match?.name == expected)
        }
    }

    @Test("in orientation-sensitive mode, copies rotated beyond the tolerance are rejected", arguments: matchers)
    func orientationSensitiveRejectsRotatedCopies(matcher: UnistrokeRecognizer.Matcher) throws {
        var library = TemplateLibrary()
        let check = TemplateLibrary.dollarShapes.samples(named: "check")[0]
        try library.add(name: "check", points: check)
        let recognizer = UnistrokeRecognizer(
            library: library, configuration: .init(matcher: matcher, orientation: .sensitive(toleranceDegrees: 20)))
        #expect(recognizer.recognize(Strokes.transformed(check, rotationDegrees: 10)).match?.name == "check")
        for degrees in [90.0, 180, -90] {
            let rotated = Strokes.transformed(check, rotationDegrees: degrees)
            #expect(recognizer.recognize(rotated).match == nil, "rotated by \(degrees) should not match")
        }
        // The same copies are accepted when orientation does not matter.
        let invariant = UnistrokeRecognizer(library: library, configuration: .init(matcher: matcher))
        #expect(invariant.recognize(Strokes.transformed(check, rotationDegrees: 90)).match?.name == "check")
    }

    @Test("a straight line keeps its shape: uniform scaling for one-dimensional strokes", arguments: matchers)
    func straightLinesAreRecognised(matcher: UnistrokeRecognizer.Matcher) throws {
        var library = TemplateLibrary()
        try library.add(name: "line", points: Strokes.line(from: Point(x: 0, y: 0), to: Point(x: 100, y: 0)))
        try library.add(name: "caret", points: TemplateLibrary.dollarShapes.samples(named: "caret")[0])
        let recognizer = UnistrokeRecognizer(library: library, configuration: .init(matcher: matcher, orientation: .sensitive))
        // A slightly wobbly line: non-uniform scaling would blow the wobble up into a zigzag.
        let wobbly = (0..<40).map { k in Point(x: Double(k) * 3, y: k % 2 == 0 ? 0 : 1.5) }
        let match = recognizer.recognize(wobbly).match
        #expect(match?.name == "line")
        #expect((match?.score ?? 0) > 0.8)
    }

    @Test("below the rejection threshold the outcome is no match, with the best candidate")
    func rejectionThresholdGivesNoMatch() throws {
        var library = TemplateLibrary()
        try library.add(name: "circle", points: Strokes.circle())
        let strict = UnistrokeRecognizer(library: library, configuration: .init(rejectionThreshold: 0.99))
        let zigzag = (0..<40).map { k in Point(x: Double(k) * 5, y: k % 2 == 0 ? 0 : 40) }
        guard case .noMatch(let best) = strict.recognize(zigzag) else {
            Issue.record("a zigzag should not match a circle at threshold 0.99")
            return
        }
        #expect(best?.name == "circle")
        #expect(
            UnistrokeRecognizer(library: library, configuration: .init(rejectionThreshold: 0)).recognize(zigzag).match?.name == "circle")
    }

    @Test("a recognizer without templates reports no match")
    func emptyRecognizerGivesNoMatch() {
        #expect(UnistrokeRecognizer().recognize(Strokes.circle()) == .noMatch(best: nil))
    }

    static let degenerateInputs: [(String, [Point], UnistrokeRecognizer.Degeneracy)] = [
        ("no points", [], .empty),
        ("one point", [Point(x: 3, y: 4)], .singlePoint),
        ("all points equal", Array(repeating: Point(x: 7, y: 7), count: 50), .singlePoint),
        ("NaN", [Point(x: 0, y: 0), Point(x: .nan, y: 1), Point(x: 5, y: 5)], .nonFiniteCoordinate),
        ("infinity", [Point(x: 0, y: 0), Point(x: 1, y: .infinity)], .nonFiniteCoordinate),
        ("overflowing length", [Point(x: -1e308, y: 0), Point(x: 1e308, y: 0)], .coordinateOutOfRange),
        ("finite, but past the limit", [Point(x: 0, y: 0), Point(x: 2e150, y: 1)], .coordinateOutOfRange),
    ]

    @Test("degenerate input gives a defined outcome", arguments: matchers)
    func degenerateInputIsAValue(matcher: UnistrokeRecognizer.Matcher) {
        let recognizer = UnistrokeRecognizer(library: .dollarShapes, configuration: .init(matcher: matcher))
        for (label, points, reason) in Self.degenerateInputs {
            #expect(recognizer.recognize(points) == .degenerate(reason), "\(label)")
        }
    }

    @Test("thousands of points and tiny or huge strokes are recognised without NaN", arguments: matchers)
    func extremeStrokesGiveFiniteScores(matcher: UnistrokeRecognizer.Matcher) {
        let recognizer = UnistrokeRecognizer(library: .dollarShapes, configuration: .init(matcher: matcher))
        for stroke in [
            Strokes.circle(points: 20_000), Strokes.circle(radius: 1e-9), Strokes.circle(radius: 1e150),
            [Point(x: 0, y: 0), Point(x: 1, y: 0)],
        ] {
            let outcome = recognizer.recognize(stroke)
            switch outcome {
            case .match(let m): #expect(m.score.isFinite && (0...1).contains(m.score))
            case .noMatch(let best): #expect(best.map { $0.score.isFinite } ?? true)
            case .degenerate: Issue.record("a valid stroke was called degenerate")
            }
        }
        // The default circle (drawn anticlockwise from the top) densely resampled.
        let dense = UnistrokePipeline.resampled(TemplateLibrary.dollarShapes.samples(named: "circle")[0], count: 20_000)
        #expect(recognizer.recognize(dense).match?.name == "circle")
        let limited = UnistrokeRecognizer(library: .dollarShapes, configuration: .init(matcher: matcher, maximumPoints: 1000))
        #expect(limited.recognize(Strokes.circle(points: 20_000)) == .degenerate(.tooManyPoints(20_000, limit: 1000)))
    }

    @Test(
        "the default library recognises the real strokes of the $1 study",
        .enabled(if: SharedData.dollarLogs != nil, "needs ../shared/data/dollar1"))
    func defaultLibraryOnRealStrokes() throws {
        // Only medium-speed samples of one subject, to stay quick.
        let dir = SharedData.dollarLogs!.appendingPathComponent("s02/medium")
        let recognizer = UnistrokeRecognizer(library: .dollarShapes, configuration: .init(rejectionThreshold: 0))
        var correct = 0, total = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".xml") {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            let points = DollarLogScan.points(text)
            total += 1
            let expected = String(name.dropLast(6))
            if recognizer.recognize(points).match?.name == expected { correct += 1 }
        }
        #expect(total == 160)
        // Generated templates, one per shape, against a real person's strokes.
        #expect(Double(correct) / Double(total) > 0.85, "\(correct)/\(total)")
    }
}

/// Reads points out of a $1 XML log without the XML parser (which lives in
/// another module): enough for tests.
enum DollarLogScan {
    static func points(_ text: String) -> [Point] {
        var points: [Point] = []
        for line in text.split(separator: "\n") where line.contains("<Point") {
            func value(_ key: String) -> Double? {
                guard let r = line.range(of: "\(key)=\"") else { return nil }
                return Double(line[r.upperBound...].prefix { $0 != "\"" })
            }
            if let x = value("X"), let y = value("Y") { points.append(Point(x: x, y: y)) }
        }
        return points
    }
}
