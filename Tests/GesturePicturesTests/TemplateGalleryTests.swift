import Foundation
import GestureRecognition
import GestureTraces
import TestSupport
import Testing

@testable import GesturePictures

@Suite("TemplateGallery")
struct TemplateGalleryTests {
    @Test func defaultLibraryShowsEverySampleWithStartAndDirection() throws {
        let library = TemplateLibrary.dollarShapes
        let svg = TemplateGallery(library, title: "The 16 shapes of the $1 study").svg
        Fixtures.keep(svg, as: "gallery.dollarShapes")
        let root = try SVGInspector.parse(svg)
        #expect(root.all("g", class: "gesture-name").count == library.names.count)
        let samples = root.all("g", class: "sample")
        #expect(samples.count == library.templates.count)
        for sample in samples {
            #expect(sample.all("path", class: "sample-path").count == 1)
            #expect(sample.all("circle").contains { $0.attributes["fill"] == Palette.start }, "start marked")
            #expect(!sample.all("polygon").isEmpty, "direction marked")
        }
        for name in library.names {
            #expect(root.all("g", class: "gesture-name").contains { $0.title?.hasPrefix(name + ":") == true })
        }
    }

    @Test func samplesAreDrawnAsTheRecognizerNormalisesThem() throws {
        let library = TemplateLibrary.dollarShapes
        let recognizer = UnistrokeRecognizer(configuration: .init(matcher: .protractor))
        let root = try SVGInspector.parse(TemplateGallery(library, configuration: recognizer.configuration).svg)
        let path = try #require(root.all("path", class: "sample-path").first)
        let drawn = try #require(path.attributes["d"]).split(separator: " ").filter { $0.hasPrefix("M") || $0.hasPrefix("L") }.count
        #expect(drawn == 16, "Protractor compares 16 points")
        #expect(root.allText.contains("protractor"))
    }

    @Test func strokesFromRecordingsWithSeveralSamplesWrap() throws {
        var library = TemplateLibrary()
        let files = try Fixtures.strokeFiles()
        for file in files {
            for stroke in try StrokeFile.load(contentsOf: Fixtures.stroke(file)) {
                let name = stroke.name ?? file
                for shift in 0..<3 {
                    try library.add(
                        name: name, points: stroke.points.map { Point(x: $0.x + Double(shift) * 7, y: $0.y * (1 + Double(shift) / 10)) })
                }
            }
        }
        #expect(library.names.count == files.count)
        let svg = TemplateGallery(library, title: "Recordings/strokes", columns: 2).svg
        Fixtures.keep(svg, as: "gallery.strokes")
        let root = try SVGInspector.parse(svg)
        #expect(root.all("g", class: "sample").count == 3 * files.count)
        let xs = Set(root.all("g", class: "sample").compactMap { $0.all("rect").first?.number("x") })
        #expect(xs.count == 2, "two columns")
    }

    @Test func namesFromUntrustedFilesAreEscaped() throws {
        let name = "a<b>&\"c\" 'd' e"
        var library = TemplateLibrary()
        let points = [Point(x: 0, y: 0), Point(x: 10, y: 5), Point(x: 20, y: 0)]
        try library.add(name: name, points: points)
        let root = try SVGInspector.parse(TemplateGallery(library).svg)
        let label = root.all("text").first { $0.text.hasPrefix("a<b>") }
        #expect(label?.text == name)
        // Control characters never reach a picture: a library refuses such names.
        #expect(throws: (any Error).self) { try library.add(name: "a\u{1}e", points: points) }
    }

    @Test func emptyLibrarySaysSo() throws {
        let root = try SVGInspector.parse(TemplateGallery(TemplateLibrary()).svg)
        #expect(root.all("g", class: "sample").isEmpty)
        #expect(root.allText.contains("the library is empty"))
    }
}
