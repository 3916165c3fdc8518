import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An SVG document parsed back with Foundation's XMLParser, to check what a
/// picture holds without trusting the code that wrote it.
final class SVGNode {
    let name: String
    let attributes: [String: String]
    var children: [SVGNode] = []
    var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// Every node below this one (and this one), depth first.
    var descendants: [SVGNode] { [self] + children.flatMap(\.descendants) }

    /// The classes in the `class` attribute.
    var classes: Set<String> { Set((attributes["class"] ?? "").split(separator: " ").map(String.init)) }

    /// Descendants with element `name` (any when nil) and class `className` (any when nil).
    func all(_ name: String? = nil, class className: String? = nil) -> [SVGNode] {
        descendants.filter { (name == nil || $0.name == name) && (className == nil || $0.classes.contains(className!)) }
    }

    /// The text of the `<title>` that is the first child, if there is one.
    var title: String? {
        guard let first = children.first, first.name == "title" else { return nil }
        return first.text
    }

    /// The text of this node and every node below it.
    var allText: String { text + children.map(\.allText).joined() }

    func number(_ attribute: String) -> Double? { attributes[attribute].flatMap(Double.init) }
}

enum SVGInspector {
    struct ParseFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The root `<svg>` of `text`, or the parser's complaint.
    static func parse(_ text: String) throws -> SVGNode {
        let delegate = Builder()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = delegate
        guard parser.parse(), let root = delegate.root else {
            throw ParseFailure(description: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "no root") at line \(parser.lineNumber)")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: SVGNode?
        var stack: [SVGNode] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            let node = SVGNode(name: elementName, attributes: attributeDict)
            if let parent = stack.last { parent.children.append(node) } else { root = node }
            stack.append(node)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            stack.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }
    }
}
