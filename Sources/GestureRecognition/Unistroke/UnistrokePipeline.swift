import Foundation

/// The pure preprocessing steps of the $1 family, with the paper's names:
/// resample -> rotate to the indicative angle -> scale -> translate.
///
/// Every step returns a new array; none mutates its input.
public enum UnistrokePipeline {
    /// The side of the reference square strokes are scaled into, in the
    /// stroke's own unit. Scores do not depend on it.
    public static let squareSize = 250.0
    /// Half the diagonal of the reference square: the largest mean distance
    /// between two strokes scaled into it, used to map $1 distances to 0...1.
    public static let halfDiagonal = 0.5 * (2 * squareSize * squareSize).squareRoot()
    /// A stroke whose short side is at most this fraction of its long side is
    /// one-dimensional (a line) and is scaled uniformly, so it keeps its shape.
    public static let oneDimensionalRatio = 0.3

    /// The total length of the path through `points`.
    ///
    /// - Complexity: O(*n*).
    public static func pathLength(_ points: [Point]) -> Double {
        var length = 0.0
        for i in points.indices.dropFirst() {
            length += points[i - 1].distance(to: points[i])
        }
        return length
    }

    /// `points` resampled to `count` points equally spaced along the path.
    ///
    /// The first and last points are kept. `points` must hold at least two
    /// points and have a positive, finite path length; `count` at least 2.
    ///
    ///     resampled([(0,0), (3,0)], count: 4)  // (0,0) (1,0) (2,0) (3,0)
    ///
    /// - Complexity: O(*n* + *count*).
    public static func resampled(_ points: [Point], count: Int) -> [Point] {
        precondition(count >= 2 && points.count >= 2)
        let interval = pathLength(points) / Double(count - 1)
        var result = [points[0]]
        result.reserveCapacity(count)
        var accumulated = 0.0
        var previous = points[0]
        var index = 1
        while index < points.count && result.count < count - 1 {
            let current = points[index]
            let step = previous.distance(to: current)
            if step > 0 && accumulated + step >= interval {
                let t = (interval - accumulated) / step
                let q = Point(x: previous.x + t * (current.x - previous.x),
                              y: previous.y + t * (current.y - previous.y))
                result.append(q)
                previous = q
                accumulated = 0
            } else {
                accumulated += step
                previous = current
                index += 1
            }
        }
        // Rounding can leave the path a hair short: the last point closes it.
        while result.count < count { result.append(points[points.count - 1]) }
        return result
    }

    /// The mean of `points`.
    public static func centroid(_ points: [Point]) -> Point {
        var x = 0.0, y = 0.0
        for p in points { x += p.x; y += p.y }
        let n = Double(max(points.count, 1))
        return Point(x: x / n, y: y / n)
    }

    /// The indicative angle, as $1 defines it: the direction in radians of
    /// the line from the first point towards the centroid (`atan2` of the
    /// centroid minus the first point). Rotating by its negative puts the
    /// centroid straight to the right of the first point.
    public static func indicativeAngle(_ points: [Point]) -> Double {
        let c = centroid(points)
        return atan2(c.y - points[0].y, c.x - points[0].x)
    }

    /// `points` rotated by `radians` about their centroid.
    public static func rotated(_ points: [Point], by radians: Double) -> [Point] {
        let c = centroid(points)
        let cosA = cos(radians), sinA = sin(radians)
        return points.map { p in
            let dx = p.x - c.x, dy = p.y - c.y
            return Point(x: dx * cosA - dy * sinA + c.x, y: dx * sinA + dy * cosA + c.y)
        }
    }

    /// `points` scaled into the reference square: non-uniformly for
    /// two-dimensional strokes, uniformly (by the long side) for lines.
    public static func scaled(_ points: [Point], to size: Double = squareSize) -> [Point] {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let width = maxX - minX, height = maxY - minY
        let long = max(width, height)
        guard long > 0 else { return points }
        var sx = size / long, sy = size / long
        if min(width, height) / long > oneDimensionalRatio {
            sx = size / width
            sy = size / height
        }
        return points.map { Point(x: $0.x * sx, y: $0.y * sy) }
    }

    /// `points` moved so that their centroid is at the origin.
    public static func translatedToOrigin(_ points: [Point]) -> [Point] {
        let c = centroid(points)
        return points.map { Point(x: $0.x - c.x, y: $0.y - c.y) }
    }

    /// Finite points of `raw` with consecutive duplicates removed, or the
    /// reason the stroke cannot be recognised.
    public static func sanitized(_ raw: [Point], maximumPoints: Int) -> Result<[Point], UnistrokeRecognizer.Degeneracy> {
        if raw.isEmpty { return .failure(.empty) }
        if raw.count > maximumPoints { return .failure(.tooManyPoints(raw.count)) }
        var points: [Point] = []
        points.reserveCapacity(raw.count)
        for p in raw {
            guard p.isFinite else { return .failure(.nonFiniteCoordinate) }
            if let last = points.last, last == p { continue }
            points.append(p)
        }
        guard points.count >= 2 else { return .failure(.singlePoint) }
        let length = pathLength(points)
        guard length.isFinite else { return .failure(.nonFiniteCoordinate) }
        guard length > 0 else { return .failure(.singlePoint) }
        return .success(points)
    }
}
