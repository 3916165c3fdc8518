import Foundation
import GestureRecognition
import GestureTraces
import Testing

/// Training a shape and recognising a drawn one: GestureRecognition alone does
/// the work; GestureTraces only reads the bundled stroke file.
@Suite("Training and recognising a stroke, as a package that depends on gestures would")
struct TrainingTests {
    /// A zigzag of `segments` straight strokes, alternately up and down, `width` by `height`.
    static func zigzag(segments: Int, width: Double, height: Double) -> [Point] {
        (0...segments).map { corner in
            Point(x: width * Double(corner) / Double(segments), y: corner % 2 == 0 ? 0 : height)
        }
    }

    @Test("a zigzag is no match for the 16 bundled shapes; trained on zigzags drawn in code, the recorded one is recognised")
    func trainAZigzag() throws {
        let drawn = try #require(try StrokeFile.load(contentsOf: recordings.appendingPathComponent("strokes/zigzag.json")).first).points
        let bundled = UnistrokeRecognizer(library: .dollarShapes)
        #expect(bundled.recognize(drawn).match == nil)

        var library = TemplateLibrary.dollarShapes
        for (width, height) in [(200.0, 60.0), (160.0, 70.0), (220.0, 50.0)] {
            try library.add(name: "zigzag", points: Self.zigzag(segments: 5, width: width, height: height))
        }
        let trained = UnistrokeRecognizer(library: library)
        let match = try #require(trained.recognize(drawn).match)
        #expect(match.name == "zigzag")
        #expect(match.score > 0.8)
        // The shapes it knew are still told apart.
        let circle = try #require(try StrokeFile.load(contentsOf: recordings.appendingPathComponent("strokes/circle.json")).first).points
        #expect(trained.recognize(circle).match?.name == "circle")
    }
}
