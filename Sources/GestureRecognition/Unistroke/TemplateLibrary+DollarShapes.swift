import Foundation

/// The bundled library: the 16 gesture shapes of the $1 study, generated here
/// from hand-placed control points in a unit square (y grows downwards), drawn
/// in the direction people draw them, with the variants people draw (no
/// recorded stroke is in it).
extension TemplateLibrary {
    /// The 16 shapes of the $1 study: arrow, caret, check, circle,
    /// delete_mark, left_curly_brace, left_sq_bracket, pigtail,
    /// question_mark, rectangle, right_curly_brace, right_sq_bracket, star,
    /// triangle, v, x. The first 16 templates are one of each, in that
    /// order; after them come the variants (``DollarShapes/variants``):
    /// circles either way round and not quite closed, rectangles and
    /// triangles drawn clockwise as well, brackets with short
    /// serifs, curly braces drawn narrow, arrows with other heads, round
    /// question marks. No variant is within the stroke rule's margin of
    /// another name (the tests check it with the engine's rule).
    public static let dollarShapes: TemplateLibrary = {
        var library = TemplateLibrary()
        for (name, path) in DollarShapes.all + DollarShapes.variants {
            // The generated shapes are fixed and well-formed.
            try! library.add(name: name, points: path)
        }
        return library
    }()
}

enum DollarShapes {
    /// A path through `corners` with straight segments, `perSegment` points each.
    static func polyline(_ corners: [(Double, Double)], perSegment: Int = 16) -> [Point] {
        var points: [Point] = []
        for i in 1..<corners.count {
            let (x0, y0) = corners[i - 1], (x1, y1) = corners[i]
            for k in 0..<perSegment {
                let t = Double(k) / Double(perSegment)
                points.append(Point(x: 100 * (x0 + t * (x1 - x0)), y: 100 * (y0 + t * (y1 - y0))))
            }
        }
        let (x, y) = corners[corners.count - 1]
        points.append(Point(x: 100 * x, y: 100 * y))
        return points
    }

    /// A smooth path through `knots` (a Catmull-Rom spline).
    static func curve(_ knots: [(Double, Double)], perSegment: Int = 12) -> [Point] {
        let p = knots.map { Point(x: 100 * $0.0, y: 100 * $0.1) }
        var points: [Point] = []
        for i in 0..<(p.count - 1) {
            let p0 = p[max(i - 1, 0)], p1 = p[i], p2 = p[i + 1], p3 = p[min(i + 2, p.count - 1)]
            for k in 0..<perSegment {
                let t = Double(k) / Double(perSegment), t2 = t * t, t3 = t2 * t
                func blend(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
                    0.5 * (2 * b + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (-a + 3 * b - 3 * c + d) * t3)
                }
                points.append(Point(x: blend(p0.x, p1.x, p2.x, p3.x), y: blend(p0.y, p1.y, p2.y, p3.y)))
            }
        }
        points.append(p[p.count - 1])
        return points
    }

    /// A circle drawn from the top, `turns` times round (64 points a turn),
    /// anticlockwise on screen unless `clockwise`.
    static func circle(turns: Double = 72.0 / 64, clockwise: Bool = false) -> [Point] {
        (0...Int((64 * turns).rounded())).map { k in
            let angle = -Double.pi / 2 + (clockwise ? 1 : -1) * Double(k) / 64 * 2 * Double.pi
            return Point(x: 50 + 50 * cos(angle), y: 50 + 50 * sin(angle))
        }
    }

    /// `points` squeezed towards the vertical centre line: `factor` of their width.
    static func narrowed(_ points: [(Double, Double)], to factor: Double) -> [(Double, Double)] {
        points.map { (0.5 + ($0.0 - 0.5) * factor, $0.1) }
    }

    static let leftCurlyBrace = [(0.75, 0.0), (0.35, 0.08), (0.32, 0.38), (0.08, 0.5), (0.32, 0.62), (0.35, 0.92), (0.75, 1)]
    static let rightCurlyBrace = [(0.25, 0.0), (0.65, 0.08), (0.68, 0.38), (0.92, 0.5), (0.68, 0.62), (0.65, 0.92), (0.25, 1)]
    static let questionMark = [(0.0, 0.18), (0.35, 0), (0.75, 0.02), (1, 0.3), (0.85, 0.52), (0.5, 0.65), (0.38, 0.82), (0.4, 1.0)]

    static let all: [(String, [Point])] = [
        ("arrow", polyline([(0, 1), (0.92, 0.08), (0.55, 0.06), (0.97, 0.03), (0.95, 0.5)])),
        ("caret", polyline([(0, 1), (0.5, 0), (1, 1)])),
        ("check", polyline([(0, 0.6), (0.35, 1), (1, 0)])),
        ("circle", circle()),
        ("delete_mark", polyline([(0.25, 0), (1, 0.9), (0, 1), (0.95, 0.05)])),
        ("left_curly_brace", curve(leftCurlyBrace)),
        ("left_sq_bracket", polyline([(1, 0), (0, 0), (0, 1), (1, 1)])),
        ("pigtail", curve([(0, 0.9), (0.45, 0.75), (0.65, 0.35), (0.5, 0.02), (0.3, 0.25), (0.4, 0.7), (0.7, 1.0), (1, 0.9)])),
        ("question_mark", curve(questionMark)),
        ("rectangle", polyline([(0, 0.05), (0, 1), (1, 1), (1, 0.05), (0, 0.05)])),
        ("right_curly_brace", curve(rightCurlyBrace)),
        ("right_sq_bracket", polyline([(0, 0), (1, 0), (1, 1), (0, 1)])),
        ("star", polyline([(0.1, 1), (0.5, 0), (0.9, 1), (0, 0.35), (1, 0.35), (0.1, 1)])),
        ("triangle", polyline([(0.45, 0), (0, 1), (1, 1), (0.45, 0)])),
        ("v", polyline([(0, 0), (0.55, 1), (1, 0)])),
        ("x", polyline([(0, 0), (1, 1), (1, 0), (0, 1)])),
    ]

    /// How people draw the shapes otherwise, after one of each in ``all``.
    /// Each is a way of drawing, not a stroke of anyone's: circles either
    /// way round, 0.92 to 1.1 turns (most stop short of closing); square
    /// brackets with serifs half and a third as long as the bracket is tall;
    /// curly braces 0.6 and 0.35 as wide; arrows with a short head and with
    /// a long downward barb; a question mark with a round hook over a
    /// straight stem, and one drawn narrow; rectangles and triangles drawn
    /// clockwise. Under the orientation-invariant recognizer a rectangle or
    /// triangle from another corner, the same way round, is the same shape
    /// turned, so those need none.
    static let variants: [(String, [Point])] = {
        var variants: [(String, [Point])] = []
        for turns in [0.92, 1.0] { variants.append(("circle", circle(turns: turns))) }
        for turns in [0.92, 1.0, 72.0 / 64] { variants.append(("circle", circle(turns: turns, clockwise: true))) }
        for serif in [0.5, 0.3] {
            variants.append(("left_sq_bracket", polyline([(serif, 0), (0, 0), (0, 1), (serif, 1)])))
            variants.append(("right_sq_bracket", polyline([(1 - serif, 0), (1, 0), (1, 1), (1 - serif, 1)])))
        }
        for factor in [0.6, 0.35] {
            variants.append(("left_curly_brace", curve(narrowed(leftCurlyBrace, to: factor))))
            variants.append(("right_curly_brace", curve(narrowed(rightCurlyBrace, to: factor))))
        }
        for (across, down) in [(0.3, 0.3), (0.45, 0.75)] {
            variants.append(("arrow", polyline([(0, 1), (0.92, 0.08), (0.92 - across, 0.08), (0.97, 0.03), (0.97, 0.03 + down)])))
        }
        variants.append(
            (
                "question_mark",
                curve([(0.05, 0.3), (0.2, 0.05), (0.5, 0), (0.8, 0.08), (0.85, 0.3), (0.65, 0.48), (0.5, 0.6), (0.5, 0.8), (0.5, 1.0)])
            ))
        variants.append(("question_mark", curve(narrowed(questionMark, to: 0.6))))
        // Rectangles and triangles a second time each way round: clockwise
        // (without it a rectangle drawn clockwise scores circle 0.92 and
        // fires as one), and anticlockwise beside the first, so that every
        // way of drawing has two samples and each is judged against the
        // other when the library is checked for ambiguity.
        for height in [1.0, 0.7] {
            variants.append(("rectangle", polyline([(0.05, 0), (1, 0), (1, height), (0, height), (0, 0.05)])))
        }
        variants.append(("rectangle", polyline([(0, 0.05), (0, 0.7), (1, 0.7), (1, 0.05), (0, 0.05)])))
        variants.append(("triangle", polyline([(0.55, 0), (1, 1), (0, 1), (0.55, 0)])))
        variants.append(("triangle", polyline([(0.5, 0), (0.95, 0.9), (0.05, 0.9), (0.5, 0)])))
        variants.append(("triangle", polyline([(0.5, 0), (0.05, 0.9), (0.95, 0.9), (0.5, 0)])))
        return variants
    }()
}
