import Foundation
import GestureRecognition
import InputChecks
import Testing

/// Template libraries at and past their limits (issue 26, classes 3, 4 and 8).
@Suite struct TemplateLibraryLimitsTests {
    static let line = (0..<20).map { Point(x: Double($0), y: Double($0 % 3)) }

    @Test("add refuses a template past the library's limit, so train cannot write what readers refuse")
    func addChecksTheTemplateLimit() throws {
        let limits = TemplateLibrary.Limits(maximumTemplates: 3)
        var library = TemplateLibrary()
        for _ in 0..<3 { try library.add(name: "z", points: Self.line, limits: limits) }
        #expect(throws: TemplateLibrary.LibraryError.tooManyTemplates(count: 4, limit: 3)) {
            try library.add(name: "z", points: Self.line, limits: limits)
        }
        // What add accepts, the reader accepts.
        #expect(try TemplateLibrary(jsonData: library.jsonData(), limits: limits) == library)
    }

    @Test(
        "names with control characters are refused where they are read",
        arguments: ["a\u{1B}]0;x\u{07}", "tab\there", "bidi\u{202E}", "line\u{2028}"])
    func controlCharactersInNames(name: String) throws {
        var library = TemplateLibrary()
        #expect(throws: TemplateLibrary.LibraryError.invalidName(name)) { try library.add(name: name, points: Self.line) }
        let json = #"{"format":"gestures-templates","version":1,"templates":[{"name":\#(JSONText.quoted(name)),"points":[[0,0],[5,5]]}]}"#
        #expect(throws: (any Error).self) { try TemplateLibrary(jsonData: Data(json.utf8)) }
    }

    @Test("a template over the point limit is refused with its count and the limit, the rest only counted")
    func pointsAreCountedWhileReading() throws {
        let points = (0..<5_000).map { "[\($0),\($0 % 7)]" }.joined(separator: ",")
        let json = #"{"templates":[{"points":[\#(points)],"name":"big"}],"version":1,"format":"gestures-templates"}"#
        #expect(throws: TemplateLibrary.LibraryError.tooManyPoints(template: 0, count: 5_000, limit: 100)) {
            try TemplateLibrary(jsonData: Data(json.utf8), limits: .init(maximumPointsPerTemplate: 100))
        }
        let many = (0..<50).map { _ in #"{"name":"a","points":[[0,0],[1,1]]}"# }.joined(separator: ",")
        #expect(throws: TemplateLibrary.LibraryError.tooManyTemplates(count: 50, limit: 10)) {
            try TemplateLibrary(
                jsonData: Data(#"{"format":"gestures-templates","version":1,"templates":[\#(many)]}"#.utf8),
                limits: .init(maximumTemplates: 10))
        }
    }

    @Test("the streaming reader reads what jsonData writes, escapes and unknown keys included")
    func roundTrip() throws {
        var library = TemplateLibrary()
        try library.add(name: "circle \"é\" \\ /", points: Self.line)
        try library.add(name: "𝄞 clef", points: Self.line.reversed())
        #expect(try TemplateLibrary(jsonData: library.jsonData()) == library)
        let escaped =
            #"{"extra":{"x":[1,{"y":"]"}]},"format":"gestures-templates","version":1,"templates":[{"name":"\u00e9\ud834\udd1e","points":[[0,0],[1e1,2.5E-1]],"more":null}]}"#
        let read = try TemplateLibrary(jsonData: Data(escaped.utf8))
        #expect(read.templates.map(\.name) == ["é𝄞"])
        #expect(read.templates[0].points == [Point(x: 0, y: 0), Point(x: 10, y: 0.25)])
    }
}
