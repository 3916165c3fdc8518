import GestureRecognition
import TestSupport
import Testing

@testable import GesturePictures

@Suite("SVGElement")
struct SVGElementTests {
    @Test("a long title is drawn cut to 200 characters and kept whole in the document's <title>")
    func longTitleIsCut() throws {
        let title = String(repeating: "W", count: 100_000)
        let svg = TemplateGallery(.dollarShapes, title: title).svg
        let root = try SVGInspector.parse(svg)
        #expect(root.title == title)
        let longest = root.all("text").map(\.allText.count).max() ?? 0
        #expect(longest == SVG.maximumHeadingCharacters + 1, "the heading and its ellipsis")
    }

    @Test func textAndAttributesAreEscaped() throws {
        let element = SVGElement("text", ["data-name": "a\"b'<c>&"], text: "x < y & \"z\"\u{0}")
        var output = ""
        element.write(to: &output)
        #expect(output == "<text data-name=\"a&quot;b&apos;&lt;c&gt;&amp;\">x &lt; y &amp; &quot;z&quot;\u{FFFD}</text>\n")
        let root = try SVGInspector.parse(SVG.document(width: 10, height: 10, title: "<t&>", description: "d", content: [element]))
        #expect(root.title == "<t&>")
        #expect(root.all("text").first?.attributes["data-name"] == "a\"b'<c>&")
    }

    @Test(arguments: [
        (1.0, "1"), (-0.001, "0"), (2.345, "2.35"), (-3.1, "-3.1"), (1.0 / 0, "0"), (100.10, "100.1"), (-0.05, "-0.05"), (7.5, "7.5"),
        (1e20, "0"),
    ])
    func numbersAreShortAndFinite(_ value: Double, _ text: String) {
        #expect(SVG.number(value) == text)
    }

    @Test func titleIsTheFirstChild() {
        let group = SVG.group([:], [SVG.circle(.zero, radius: 1)]).titled("a dot")
        #expect(group.children.first?.name == "title")
        #expect(group.children.first?.text == "a dot")
    }

    @Test func documentHasNoExternalReferences() {
        let svg = SVG.document(width: 10, height: 10, title: "t", description: "d", content: [SVG.rect(x: 0, y: 0, width: 1, height: 1)])
        #expect(!svg.contains("href"))
        #expect(!svg.contains("<script"))
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
    }
}
