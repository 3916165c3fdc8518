import Foundation
import Testing

@testable import GestureRecognition

@Suite("TemplateLibrary")
struct TemplateLibraryTests {
    @Test("samples are added, listed by name, renamed and removed")
    func editing() throws {
        var library = TemplateLibrary()
        try library.add(name: "circle", points: Strokes.circle())
        try library.add(name: "line", points: Strokes.line(from: .zero, to: Point(x: 10, y: 0)))
        try library.add(name: "circle", points: Strokes.circle(radius: 10))
        #expect(library.names == ["circle", "line"])
        #expect(library.samples(named: "circle").count == 2)
        #expect(try library.rename("circle", to: "ring") == 2)
        #expect(library.names == ["ring", "line"])
        #expect(library.remove(name: "ring") == 2)
        #expect(library.names == ["line"])
        #expect(library.remove(name: "nothing") == 0)
    }

    @Test("degenerate samples and bad names are refused")
    func refusals() {
        var library = TemplateLibrary()
        #expect(throws: TemplateLibrary.LibraryError.degenerateSample(name: "dot", reason: .singlePoint)) {
            try library.add(name: "dot", points: [Point(x: 1, y: 1)])
        }
        #expect(throws: TemplateLibrary.LibraryError.invalidName("")) {
            try library.add(name: "", points: Strokes.circle())
        }
        #expect(library.templates.isEmpty)
    }

    @Test("a library survives a JSON round trip exactly")
    func jsonRoundTrip() throws {
        let library = TemplateLibrary.dollarShapes
        let again = try TemplateLibrary(jsonData: library.jsonData())
        #expect(again == library)
    }

    static let badFiles: [(String, String, String)] = [
        ("garbage", "not json", "not a template library"),
        ("wrong format", #"{"format": "other", "version": 1, "templates": []}"#, "expected \"gestures-templates\""),
        ("no version", #"{"format": "gestures-templates", "templates": []}"#, "\"version\" key is missing"),
        ("future version", #"{"format": "gestures-templates", "version": 2, "whatever": 1}"#, "unsupported template library version 2"),
        (
            "bad point", #"{"format": "gestures-templates", "version": 1, "templates": [{"name": "a", "points": [[1, 2], [3]]}]}"#,
            "templates[0]: points[1]"
        ),
        (
            "degenerate", #"{"format": "gestures-templates", "version": 1, "templates": [{"name": "a", "points": [[1, 2]]}]}"#,
            "templates[0]: sample of 'a' is not a stroke"
        ),
        ("missing key", #"{"format": "gestures-templates", "version": 1}"#, "templates: is required"),
    ]

    @Test("bad library files give one clear error", arguments: badFiles)
    func badFilesAreExplained(label: String, json: String, expected: String) {
        do {
            _ = try TemplateLibrary(jsonData: Data(json.utf8))
            Issue.record("\(label) was accepted")
        } catch {
            #expect(error.description.contains(expected), "\(label): \(error.description)")
        }
    }

    @Test("size limits are enforced before and while decoding")
    func limits() throws {
        let data = TemplateLibrary.dollarShapes.jsonData()
        #expect(throws: TemplateLibrary.LibraryError.tooLarge(bytes: data.count, limit: 100)) {
            try TemplateLibrary(jsonData: data, limits: .init(maximumBytes: 100))
        }
        #expect(throws: TemplateLibrary.LibraryError.tooManyTemplates(count: TemplateLibrary.dollarShapes.templates.count, limit: 5)) {
            try TemplateLibrary(jsonData: data, limits: .init(maximumTemplates: 5))
        }
        do {
            _ = try TemplateLibrary(jsonData: data, limits: .init(maximumPointsPerTemplate: 10))
            Issue.record("templates over the point limit were accepted")
        } catch {
            guard case .tooManyPoints(template: 0, count: _, limit: 10) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
        }
    }
}
