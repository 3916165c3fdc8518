import Foundation

/// The bundled library: the 16 gesture shapes of the $1 study, generated here
/// from hand-placed control points in a unit square (y grows downwards), drawn
/// in the direction people draw them.
extension TemplateLibrary {
    /// One sample of each of the 16 shapes of the $1 study: arrow, caret,
    /// check, circle, delete_mark, left_curly_brace, left_sq_bracket, pigtail,
    /// question_mark, rectangle, right_curly_brace, right_sq_bracket, star,
    /// triangle, v, x.
    public static let dollarShapes: TemplateLibrary = {
        var library = TemplateLibrary()
        for (name, path) in DollarShapes.all {
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

    /// A circle drawn anticlockwise on screen from the top, a little past a full turn.
    static func circle() -> [Point] {
        (0...72).map { k in
            let angle = -Double.pi / 2 - Double(k) / 64 * 2 * Double.pi
            return Point(x: 50 + 50 * cos(angle), y: 50 + 50 * sin(angle))
        }
    }

    static let all: [(String, [Point])] = [
        ("arrow", polyline([(0, 1), (0.92, 0.08), (0.55, 0.06), (0.97, 0.03), (0.95, 0.5)])),
        ("caret", polyline([(0, 1), (0.5, 0), (1, 1)])),
        ("check", polyline([(0, 0.6), (0.35, 1), (1, 0)])),
        ("circle", circle()),
        ("delete_mark", polyline([(0.25, 0), (1, 0.9), (0, 1), (0.95, 0.05)])),
        ("left_curly_brace", curve([(0.75, 0), (0.35, 0.08), (0.32, 0.38), (0.08, 0.5), (0.32, 0.62), (0.35, 0.92), (0.75, 1)])),
        ("left_sq_bracket", polyline([(1, 0), (0, 0), (0, 1), (1, 1)])),
        ("pigtail", curve([(0, 0.9), (0.45, 0.75), (0.65, 0.35), (0.5, 0.02), (0.3, 0.25), (0.4, 0.7), (0.7, 1.0), (1, 0.9)])),
        ("question_mark", curve([(0, 0.18), (0.35, 0), (0.75, 0.02), (1, 0.3), (0.85, 0.52), (0.5, 0.65), (0.38, 0.82), (0.4, 1.0)])),
        ("rectangle", polyline([(0, 0.05), (0, 1), (1, 1), (1, 0.05), (0, 0.05)])),
        ("right_curly_brace", curve([(0.25, 0), (0.65, 0.08), (0.68, 0.38), (0.92, 0.5), (0.68, 0.62), (0.65, 0.92), (0.25, 1)])),
        ("right_sq_bracket", polyline([(0, 0), (1, 0), (1, 1), (0, 1)])),
        ("star", polyline([(0.1, 1), (0.5, 0), (0.9, 1), (0, 0.35), (1, 0.35), (0.1, 1)])),
        ("triangle", polyline([(0.45, 0), (0, 1), (1, 1), (0.45, 0)])),
        ("v", polyline([(0, 0), (0.55, 1), (1, 0)])),
        ("x", polyline([(0, 0), (1, 1), (1, 0), (0, 1)])),
    ]
}
