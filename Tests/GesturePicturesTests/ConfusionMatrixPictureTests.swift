import Foundation
import GestureRecognition
import GestureTraces
import TestSupport
import Testing

@testable import GesturePictures

@Suite("ConfusionMatrixPicture")
struct ConfusionMatrixPictureTests {
    /// Expected name -> answer -> count for every stroke of Recordings/strokes
    /// and every drawn stroke of the synthetic recordings, against the $1 shapes.
    static func recordedConfusions() throws -> [String: [String: Int]] {
        let recognizer = UnistrokeRecognizer(library: .dollarShapes)
        var counts: [String: [String: Int]] = [:]
        func count(_ expected: String, _ outcome: UnistrokeRecognizer.Outcome) {
            counts[expected, default: [:]][outcome.match?.name ?? "no match", default: 0] += 1
        }
        for file in try Fixtures.strokeFiles() {
            for stroke in try StrokeFile.load(contentsOf: Fixtures.stroke(file)) {
                count(stroke.name ?? String(file.dropLast(5)), recognizer.recognize(stroke.points))
            }
        }
        for name in try Fixtures.syntheticTraces() where name.contains("-stroke-") {
            let expected = String(name.split(separator: ".")[1].split(separator: "-").last!)
            let strokes = GestureReplay().gestures(in: try Trace.load(contentsOf: Fixtures.synthetic(name))).filter { $0.type == .stroke }
            for stroke in strokes { counts[expected, default: [:]][stroke.template ?? "no match", default: 0] += 1 }
        }
        return counts
    }

    @Test func recordedStrokesGiveOneCellPerPair() throws {
        let counts = try Self.recordedConfusions()
        #expect(counts.values.flatMap(\.values).reduce(0, +) >= 4)
        let picture = ConfusionMatrixPicture(counts: counts, title: "Recorded strokes against the $1 shapes")
        let svg = picture.svg
        Fixtures.keep(svg, as: "confusion.recordings")
        let root = try SVGInspector.parse(svg)
        let cells = root.all("g", class: "cell")
        #expect(cells.count == picture.rowLabels.count * picture.columnLabels.count)
        for (expected, answers) in counts {
            for (answer, n) in answers {
                #expect(
                    cells.contains { $0.title?.hasPrefix("expected \(expected), recognised as \(answer): \(n)") == true },
                    "a cell for \(expected) -> \(answer)")
            }
        }
        #expect(picture.columnLabels.last == "no match", "answers that are not rows come last")
    }

    @Test func cellsAreShadedByTheirShareOfTheRow() throws {
        let picture = ConfusionMatrixPicture(labels: ["a", "b"], counts: [[9, 1], [0, 10]])
        let root = try SVGInspector.parse(picture.svg)
        let cells = root.all("g", class: "cell")
        #expect(cells.count == 4)
        func fill(_ index: Int) -> String? { cells[index].all("rect").first?.attributes["fill"] }
        #expect(fill(0) == ConfusionMatrixPicture.shade(0.9, right: true))
        #expect(fill(1) == ConfusionMatrixPicture.shade(0.1, right: false))
        #expect(fill(2) == "#ffffff")
        #expect(fill(3) == ConfusionMatrixPicture.shade(1, right: true))
        #expect(cells[1].title == "expected a, recognised as b: 1 (10 % of 10)")
        #expect(root.allText.contains("20 recognitions, 19 (95 %) on the diagonal"))
    }

    @Test func shadesRunFromPaleToDark() {
        #expect(ConfusionMatrixPicture.shade(1, right: true) == "#08519c")
        #expect(ConfusionMatrixPicture.shade(1, right: false) == "#c62828")
        #expect(ConfusionMatrixPicture.shade(0, right: true) != "#ffffff", "any count shows a tint")
    }

    @Test func missingAndNegativeCountsAreZero() throws {
        let picture = ConfusionMatrixPicture(rowLabels: ["a", "b"], columnLabels: ["a", "b", "c"], counts: [[3, -2]])
        #expect(picture.count(row: 0, column: 1) == 0)
        #expect(picture.count(row: 1, column: 2) == 0)
        let root = try SVGInspector.parse(picture.svg)
        #expect(root.all("g", class: "cell").count == 6)
    }
}
