import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An SVG document parsed back with Foundation's XMLParser, to check what a
/// picture holds without trusting the code that wrote it.
public final class SVGNode {
    /// The element's name: `svg`, `g`, `path`.
    public let name: String
    /// Its attributes.
    public let attributes: [String: String]
    /// Its child elements, in order.
    public var children: [SVGNode] = []
    /// The character data directly inside it.
    public var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// Every node below this one (and this one), depth first.
    public var descendants: [SVGNode] { [self] + children.flatMap(\.descendants) }

    /// The classes in the `class` attribute.
    public var classes: Set<String> { Set((attributes["class"] ?? "").split(separator: " ").map(String.init)) }

    /// Descendants with element `name` (any when nil) and class `className` (any when nil).
    public func all(_ name: String? = nil, class className: String? = nil) -> [SVGNode] {
        descendants.filter { (name == nil || $0.name == name) && (className == nil || $0.classes.contains(className!)) }
    }

    /// The text of the `<title>` that is the first child, if there is one.
    public var title: String? {
        guard let first = children.first, first.name == "title" else { return nil }
        return first.text
    }

    /// The text of this node and every node below it.
    public var allText: String { text + children.map(\.allText).joined() }

    /// The attribute as a number, if it is one.
    public func number(_ attribute: String) -> Double? { attributes[attribute].flatMap(Double.init) }
}

/// Parses SVG text back into ``SVGNode``s.
public enum SVGInspector {
    /// The text is not well-formed XML.
    public struct ParseFailure: Error, CustomStringConvertible {
        /// The parser's complaint and where.
        public var description: String
    }

    /// The root `<svg>` of `text`, or the parser's complaint.
    public static func parse(_ text: String) throws -> SVGNode {
        let delegate = Builder()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = delegate
        guard parser.parse(), let root = delegate.root else {
            throw ParseFailure(
                description: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "no root") at line \(parser.lineNumber)")
        }
        return root
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: SVGNode?
        var stack: [SVGNode] = []

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
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
