import Foundation
import GestureRecognition
import InputChecks

/// One SVG element with its attributes (in order) and children: the small
/// builder every picture is drawn with. Text and attribute values are escaped
/// when written, so names from untrusted files cannot break the document.
struct SVGElement: Sendable {
    var name: String
    var attributes: [(name: String, value: String)]
    var children: [SVGElement]
    /// Character content, written escaped before the children.
    var text: String?

    init(_ name: String, _ attributes: KeyValuePairs<String, String> = [:], text: String? = nil, children: [SVGElement] = []) {
        self.name = name
        self.attributes = attributes.map { (name: $0.key, value: $0.value) }
        self.text = text
        self.children = children
    }

    /// The element with a `<title>` first among its children: what a screen
    /// reader says for it and a browser shows on hover.
    func titled(_ title: String) -> SVGElement {
        var copy = self
        copy.children.insert(SVGElement("title", text: title), at: 0)
        return copy
    }

    /// The element with one more attribute.
    func with(_ name: String, _ value: String) -> SVGElement {
        var copy = self
        copy.attributes.append((name, value))
        return copy
    }

    /// Writes the element and its children, one element a line.
    func write(to output: inout String) {
        output += "<" + name
        for attribute in attributes {
            output += " " + attribute.name + "=\"" + SVG.escaped(attribute.value) + "\""
        }
        if children.isEmpty && text == nil {
            output += "/>\n"
            return
        }
        output += ">"
        if let text { output += SVG.escaped(text) }
        if !children.isEmpty {
            output += "\n"
            for child in children { child.write(to: &output) }
        }
        output += "</" + name + ">\n"
    }
}

/// Shapes, numbers and the document wrapper of the SVG builder.
enum SVG {
    /// `value` with the five XML special characters as entities, and the
    /// characters XML 1.0 forbids (controls other than tab, line feed and
    /// carriage return; U+FFFE and U+FFFF) replaced by U+FFFD.
    static func escaped(_ value: String) -> String {
        // Most values (numbers, colours, path data) need nothing: bytes 0x20...0x7E
        // other than the five special characters.
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x26 && $0 != 0x3C && $0 != 0x3E && $0 != 0x22 && $0 != 0x27 }) {
            return value
        }
        return JSONText.replacingScalars(in: value) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            case "\t", "\n", "\r": nil
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: "\u{FFFD}"
            default: nil
            }
        }
    }

    /// A coordinate or length: at most two decimals, no trailing zeros, never
    /// `-0`, `nan` or `inf` (non-finite values are written as 0).
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let hundredths = (value * 100).rounded()
        guard abs(hundredths) < 9e15 else { return "0" }
        let whole = Int64(hundredths)
        if whole == 0 { return "0" }
        let magnitude = whole.magnitude
        var text = whole < 0 ? "-" : ""
        text += String(magnitude / 100)
        let fraction = magnitude % 100
        if fraction != 0 {
            text += fraction % 10 == 0 ? "." + String(fraction / 10) : (fraction < 10 ? ".0" : ".") + String(fraction)
        }
        return text
    }

    /// A value for text: `digits` decimals at most, no trailing zeros.
    static func decimal(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "?" }
        var text = String(format: "%.\(digits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    static func rect(x: Double, y: Double, width: Double, height: Double, _ attributes: KeyValuePairs<String, String> = [:]) -> SVGElement {
        var element = SVGElement(
            "rect", ["x": number(x), "y": number(y), "width": number(max(0, width)), "height": number(max(0, height))])
        element.attributes += attributes.map { (name: $0.key, value: $0.value) }
        return element
    }

    static func circle(_ center: Point, radius: Double, _ attributes: KeyValuePairs<String, String> = [:]) -> SVGElement {
        var element = SVGElement("circle", ["cx": number(center.x), "cy": number(center.y), "r": number(radius)])
        element.attributes += attributes.map { (name: $0.key, value: $0.value) }
        return element
    }

    static func line(from a: Point, to b: Point, _ attributes: KeyValuePairs<String, String> = [:]) -> SVGElement {
        var element = SVGElement("line", ["x1": number(a.x), "y1": number(a.y), "x2": number(b.x), "y2": number(b.y)])
        element.attributes += attributes.map { (name: $0.key, value: $0.value) }
        return element
    }

    /// A polyline through `points` as a `<path>` (`closed` joins the last to the first).
    static func path(_ points: [Point], closed: Bool = false, _ attributes: KeyValuePairs<String, String> = [:]) -> SVGElement {
        var d = ""
        for (index, p) in points.enumerated() {
            d += (index == 0 ? "M" : " L") + number(p.x) + " " + number(p.y)
        }
        if closed { d += " Z" }
        var element = SVGElement("path", ["d": d])
        element.attributes += attributes.map { (name: $0.key, value: $0.value) }
        return element
    }

    /// A filled polygon through `points`.
    static func polygon(_ points: [Point], _ attributes: KeyValuePairs<String, String> = [:]) -> SVGElement {
        var element = SVGElement("polygon", ["points": points.map { number($0.x) + "," + number($0.y) }.joined(separator: " ")])
        element.attributes += attributes.map { (name: $0.key, value: $0.value) }
        return element
    }

    /// Text at (x, y), the baseline's start unless `anchor` says otherwise.
    static func text(
        _ content: String, at p: Point, size: Double, anchor: String = "start",
        _ attributes: KeyValuePairs<String, String> = [:]
    ) -> SVGElement {
        var element = SVGElement("text", ["x": number(p.x), "y": number(p.y), "font-size": number(size)], text: content)
        if anchor != "start" { element.attributes.append(("text-anchor", anchor)) }
        element.attributes += attributes.map { (name: $0.key, value: $0.value) }
        return element
    }

    /// The most characters of a picture's heading drawn: a longer title is
    /// cut with an ellipsis (the whole of it stays in the document's
    /// `<title>`), so a 100,000-character `--title` costs the rasterizer no
    /// more than a line's width.
    static let maximumHeadingCharacters = 200

    /// A picture's heading at `p`: bold, 17 px, cut to ``maximumHeadingCharacters``.
    static func heading(_ title: String, at p: Point) -> SVGElement {
        let shown = title.count > maximumHeadingCharacters ? String(title.prefix(maximumHeadingCharacters)) + "…" : title
        return text(shown, at: p, size: 17, ["font-weight": "bold", "fill": Palette.ink])
    }

    static func group(_ attributes: KeyValuePairs<String, String> = [:], _ children: [SVGElement]) -> SVGElement {
        SVGElement("g", attributes, children: children)
    }

    /// An arrowhead whose tip is at `tip`, pointing from `from`.
    static func arrowhead(at tip: Point, from: Point, size: Double, fill: String) -> SVGElement? {
        let dx = tip.x - from.x, dy = tip.y - from.y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0, length.isFinite else { return nil }
        let ux = dx / length, uy = dy / length
        let base = Point(x: tip.x - ux * size, y: tip.y - uy * size)
        let half = size * 0.5
        return polygon(
            [tip, Point(x: base.x - uy * half, y: base.y + ux * half), Point(x: base.x + uy * half, y: base.y - ux * half)],
            ["fill": fill])
    }

    /// The approximate width of `text` at `size` in the sans-serif font the pictures use.
    static func textWidth(_ text: String, size: Double) -> Double {
        Double(text.count) * size * 0.58
    }

    /// A whole document: `width` x `height` pixels on a white background, its
    /// title and description for screen readers, then `content`.
    static func document(width: Double, height: Double, title: String, description: String, content: [SVGElement]) -> String {
        var root = SVGElement(
            "svg",
            [
                "xmlns": "http://www.w3.org/2000/svg",
                "version": "1.1",
                "width": number(width),
                "height": number(height),
                "viewBox": "0 0 \(number(width)) \(number(height))",
                "role": "img",
                "aria-labelledby": "picture-title picture-description",
                "font-family": "DejaVu Sans, Verdana, Arial, sans-serif",
            ])
        root.children =
            [
                SVGElement("title", ["id": "picture-title"], text: title),
                SVGElement("desc", ["id": "picture-description"], text: description),
                rect(x: 0, y: 0, width: width, height: height, ["fill": "#ffffff"]),
            ] + content
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        root.write(to: &output)
        return output
    }
}

/// Colours the pictures share: distinct for colour-blind readers (Okabe and
/// Ito's palette first), dark enough on white.
enum Palette {
    static let contacts = [
        "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
        "#56B4E9", "#7F3C8D", "#8C6D31", "#3969AC", "#11A579",
    ]
    static let ink = "#222222"
    static let muted = "#666666"
    static let faint = "#B0B0B0"
    static let grid = "#E4E4E4"
    static let surface = "#F7F7F4"
    static let start = "#1B9E3E"
    static let alarm = "#C62828"
    static let candidate = "#9A9A9A"

    /// The colour of contact `id`, repeating after ten.
    static func contact(_ id: Int) -> String { contacts[((id % contacts.count) + contacts.count) % contacts.count] }
}
