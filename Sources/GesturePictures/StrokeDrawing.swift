import GestureRecognition

/// Maps stroke coordinates into a square box on the picture, one scale for
/// both axes (so a stroke keeps its shape), centred, with padding.
struct StrokeFit {
    var scale: Double
    var offset: Point

    /// The fit of every point of `strokes` into the square at `origin` with side `size`.
    init(_ strokes: [[Point]], origin: Point, size: Double, padding: Double = 10) {
        let all = strokes.flatMap { $0 }.filter(\.isFinite)
        let minX = all.map(\.x).min() ?? 0, maxX = all.map(\.x).max() ?? 1
        let minY = all.map(\.y).min() ?? 0, maxY = all.map(\.y).max() ?? 1
        let span = max(maxX - minX, maxY - minY)
        let inner = size - 2 * padding
        scale = span > 0 ? inner / span : 1
        offset = Point(
            x: origin.x + padding + (inner - (maxX - minX) * scale) / 2 - minX * scale,
            y: origin.y + padding + (inner - (maxY - minY) * scale) / 2 - minY * scale)
    }

    func callAsFunction(_ p: Point) -> Point {
        Point(x: offset.x + p.x * scale, y: offset.y + p.y * scale)
    }
}

/// A stroke drawn with its start point (a green dot) and its direction (an
/// arrowhead at its end and one halfway along).
enum StrokeDrawing {
    static func elements(
        _ points: [Point], fit: StrokeFit, colour: String, width: Double = 2,
        marksDirection: Bool = true, extra: KeyValuePairs<String, String> = [:]
    ) -> [SVGElement] {
        let mapped = points.filter(\.isFinite).map { fit($0) }
        guard let first = mapped.first else { return [] }
        var path = SVG.path(
            mapped,
            [
                "fill": "none", "stroke": colour, "stroke-width": SVG.number(width),
                "stroke-linejoin": "round", "stroke-linecap": "round",
            ])
        path.attributes += extra.map { (name: $0.key, value: $0.value) }
        var elements = [path]
        guard marksDirection, mapped.count >= 2 else { return elements }
        let size = 5 + 2 * width
        if let head = arrowhead(mapped, endingAt: mapped.count - 1, colour: colour, size: size) { elements.append(head) }
        if mapped.count >= 6, let mid = arrowhead(mapped, endingAt: mapped.count / 2, colour: colour, size: size * 0.8) {
            elements.append(mid)
        }
        elements.append(SVG.circle(first, radius: 2 + width, ["fill": Palette.start, "stroke": "#ffffff", "stroke-width": "1"]))
        return elements
    }

    /// An arrowhead at `mapped[index]` pointing along the path, taken over a
    /// few pixels back so that jitter does not turn it.
    static func arrowhead(_ mapped: [Point], endingAt index: Int, colour: String, size: Double) -> SVGElement? {
        let tip = mapped[index]
        var back = index - 1
        while back > 0 && mapped[back].distance(to: tip) < size { back -= 1 }
        guard back >= 0, mapped[back] != tip else { return nil }
        return SVG.arrowhead(at: tip, from: mapped[back], size: size, fill: colour)
    }
}

extension UnistrokeRecognizer.Configuration {
    /// How the matcher sees a stroke, in words, for pictures' subtitles.
    var normalisationSummary: String {
        var steps = ["resampled to \(resampleCount) points"]
        if orientation == .invariant { steps.append("rotated to the indicative angle") }
        switch matcher {
        case .protractor: steps.append("centred and scaled to unit length")
        case .dollar1, .elastic: steps.append("scaled into a square and centred")
        }
        var text = "as the \(matcher.rawValue) matcher compares them: " + steps.joined(separator: ", ")
        switch (matcher, orientation) {
        case (.dollar1, .invariant): text += " (then searched over ±45° of rotation)"
        case (.dollar1, .sensitive(let degrees)), (.protractor, .sensitive(let degrees)):
            text += " (then rotated at most ±\(SVG.decimal(degrees, digits: 0))°)"
        case (.protractor, .invariant): text += " (then rotated to the best angle)"
        case (.elastic, _): break
        }
        return text
    }
}
