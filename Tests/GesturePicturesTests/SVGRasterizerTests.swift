import Foundation
import GestureRecognition
import GestureTraces
import TestSupport
import Testing

@testable import GesturePictures

/// Converts every kind of picture with rsvg-convert and checks the PNG is a
/// drawing: enough pixels off the background, and some of them in colour.
@Suite(
    "SVGRasterizer",
    .enabled(if: SVGRasterizer() != nil, "rsvg-convert is not installed (Debian: librsvg2-bin; Tools/test-all installs it)"))
struct SVGRasterizerTests {
    struct Ink: CustomStringConvertible {
        var width: Int
        var height: Int
        /// Pixels that differ from the top-left (background) pixel.
        var marked: Int
        /// Pixels with a clear hue (channels apart by more than 60).
        var coloured: Int
        var fractionMarked: Double { Double(marked) / Double(max(1, width * height)) }
        var description: String { "\(width)x\(height) px, \(marked) marked, \(coloured) coloured" }
        /// Whether this looks like a picture rather than a blank page.
        var isDrawing: Bool { fractionMarked > 0.01 && coloured > 100 }
    }

    static func ink(of svg: String) throws -> Ink {
        let png = try #require(SVGRasterizer()).png(from: svg)
        let image = try PNGImage(data: png)
        let background = image.pixel(x: 0, y: 0)
        var marked = 0, coloured = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let (r, g, b, a) = image.pixel(x: x, y: y)
                if (r, g, b, a) != background { marked += 1 }
                if Int(max(r, g, b)) - Int(min(r, g, b)) > 60 && a > 128 { coloured += 1 }
            }
        }
        return Ink(width: image.width, height: image.height, marked: marked, coloured: coloured)
    }

    static func size(of svg: String) throws -> (Int, Int) {
        let root = try SVGInspector.parse(svg)
        return (Int(try #require(root.number("width")).rounded(.up)), Int(try #require(root.number("height")).rounded(.up)))
    }

    @Test func blankPictureIsNotADrawing() throws {
        let blank = SVG.document(width: 400, height: 300, title: "blank", description: "nothing", content: [])
        let ink = try Self.ink(of: blank)
        #expect(ink.width == 400 && ink.height == 300)
        #expect(!ink.isDrawing, "\(ink)")
    }

    @Test func recordingIsDrawn() throws {
        let name = "magic.5-finger-rotate-clockwise.jsonl"
        let svg = try TracePicture(trace: try Trace.load(contentsOf: Fixtures.synthetic(name)), title: name).svg
        let ink = try Self.ink(of: svg)
        #expect(ink.isDrawing, "\(ink)")
        let (width, height) = try Self.size(of: svg)
        #expect(ink.width == width && ink.height == height)
    }

    @Test func galleryIsDrawn() throws {
        let ink = try Self.ink(of: TemplateGallery(.dollarShapes).svg)
        #expect(ink.isDrawing, "\(ink)")
    }

    @Test func explanationIsDrawn() throws {
        let stroke = try #require(try StrokeFile.load(contentsOf: Fixtures.stroke("circle.json")).first)
        let ink = try Self.ink(of: RecognitionExplanation(stroke: stroke.points, library: .dollarShapes).svg)
        #expect(ink.isDrawing, "\(ink)")
    }

    @Test func confusionMatrixIsDrawn() throws {
        let ink = try Self.ink(of: ConfusionMatrixPicture(labels: ["a", "b", "c"], counts: [[8, 2, 0], [1, 9, 0], [0, 0, 10]]).svg)
        #expect(ink.isDrawing, "\(ink)")
    }

    @Test func brokenSVGIsAOneSentenceError() throws {
        let rasterizer = try #require(SVGRasterizer())
        #expect {
            _ = try rasterizer.png(from: "<svg")
        } throws: { error in
            guard case PictureError.conversionFailed(let message) = error else { return false }
            return !message.isEmpty
        }
    }
}

@Suite("SVGRasterizer's bound on the PNG's size, checked before rsvg-convert runs")
struct SVGRasterizerBoundTests {
    /// A rasterizer whose executable does not exist: reaching it would be `converterMissing`.
    let absent = SVGRasterizer(executable: URL(fileURLWithPath: "/nonexistent/rsvg-convert"))

    static func svg(width: String, height: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?>\#n<svg xmlns="http://www.w3.org/2000/svg" width="\#(width)" height="\#(height)"></svg>"#
    }

    @Test(
        "a picture too long, too many pixels, or a zoom that is not a positive number is refused with its size",
        arguments: [
            ("808", "98333.65", 1.0, "808 x 98334"), ("2400", "2400", 3.0, "7200 x 7200"), ("100", "100", 1e300, "at zoom 1e+300"),
            ("100", "100", Double.nan, "at zoom nan"), ("100", "100", 0, "at zoom 0.0"),
        ])
    func refused(width: String, height: String, zoom: Double, says: String) {
        do {
            _ = try absent.png(from: Self.svg(width: width, height: height), zoom: zoom)
            Issue.record("not refused")
        } catch {
            #expect("\(error)".contains(says), "\(error)")
            if case .pictureTooLarge = error {} else { Issue.record("\(error)") }
            #expect(!"\(error)".contains("\n"))
        }
    }

    @Test("a picture within the bounds goes on to the converter")
    func withinBounds() {
        do {
            _ = try absent.png(from: Self.svg(width: "2400", height: "2400"), zoom: 2)
            Issue.record("the absent converter ran")
        } catch {
            #expect(error == .converterMissing, "\(error)")
        }
        #expect(SVGRasterizer.pixelSize(of: Self.svg(width: "808", height: "98333.65"), zoom: 0.5)! == (404, 49167))
        #expect(SVGRasterizer.pixelSize(of: "<svg viewBox='0 0 1 1'></svg>", zoom: 1) == nil)
    }

    @Test("a converter that runs past its deadline is stopped, and says so in one sentence")
    func deadline() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rasterizer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A converter that never finishes (as rsvg-convert on a 100,000-character title for minutes).
        let slow = folder.appendingPathComponent("never-done")
        try Data("#!/bin/sh\nexec sleep 600\n".utf8).write(to: slow)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: slow.path)
        let rasterizer = SVGRasterizer(executable: slow, deadline: .seconds(1))
        do {
            _ = try rasterizer.png(from: Self.svg(width: "10", height: "10"))
            Issue.record("the converter was not stopped")
        } catch {
            #expect(error == .conversionTimedOut(seconds: 1), "\(error)")
            #expect(error.description.contains("took longer than 1 s") && !error.description.contains("\n"))
        }
    }
}
