import Testing

@testable import GestureRecognition

@Suite("UnistrokeRecognizer normalised forms")
struct UnistrokeRecognizerNormalizedTests {
    static let vee = [Point(x: 0, y: 0), Point(x: 30, y: 80), Point(x: 60, y: 0)]

    @Test func dollarFormIsResampledCentredAndInTheSquare() throws {
        let recognizer = UnistrokeRecognizer(configuration: .init(matcher: .dollar1))
        let points = try recognizer.normalized(Self.vee).get()
        #expect(points.count == 64)
        let centroid = UnistrokePipeline.centroid(points)
        #expect(abs(centroid.x) < 1e-9 && abs(centroid.y) < 1e-9)
        let width = points.map(\.x).max()! - points.map(\.x).min()!
        let height = points.map(\.y).max()! - points.map(\.y).min()!
        #expect(abs(max(width, height) - UnistrokePipeline.squareSize) < 1e-6)
    }

    @Test func protractorFormHasUnitLength() throws {
        let recognizer = UnistrokeRecognizer(configuration: .init(matcher: .protractor))
        let points = try recognizer.normalized(Self.vee).get()
        #expect(points.count == 16)
        #expect(abs(points.reduce(0) { $0 + $1.x * $1.x + $1.y * $1.y } - 1) < 1e-9)
    }

    @Test func templateFormIsTheCandidateFormOfItsPoints() throws {
        let recognizer = UnistrokeRecognizer(library: .dollarShapes)
        let first = TemplateLibrary.dollarShapes.templates[0]
        #expect(recognizer.templates[0].normalizedPoints == (try recognizer.normalized(first.points).get()))
    }

    @Test func degenerateStrokeGivesItsReason() {
        #expect(throws: UnistrokeRecognizer.Degeneracy.singlePoint) {
            try UnistrokeRecognizer().normalized([Point(x: 1, y: 1), Point(x: 1, y: 1)]).get()
        }
    }
}
