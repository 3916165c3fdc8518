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
        points.withUnsafeBufferPointer { pathLength($0) }
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
        return [Point](unsafeUninitializedCapacity: count) { result, initialized in
            points.withUnsafeBufferPointer { resample($0, into: result) }
            initialized = count
        }
    }

    /// The mean of `points`.
    public static func centroid(_ points: [Point]) -> Point {
        points.withUnsafeBufferPointer { centroid($0) }
    }

    /// The indicative angle, as $1 defines it: the direction in radians of
    /// the line from the first point towards the centroid (`atan2` of the
    /// centroid minus the first point). Rotating by its negative puts the
    /// centroid straight to the right of the first point.
    public static func indicativeAngle(_ points: [Point]) -> Double {
        points.withUnsafeBufferPointer { indicativeAngle($0) }
    }

    /// `points` rotated by `radians` about their centroid.
    public static func rotated(_ points: [Point], by radians: Double) -> [Point] {
        var result = points
        result.withUnsafeMutableBufferPointer { rotate($0, by: radians) }
        return result
    }

    /// `points` scaled into the reference square: non-uniformly for
    /// two-dimensional strokes, uniformly (by the long side) for lines.
    public static func scaled(_ points: [Point], to size: Double = squareSize) -> [Point] {
        var result = points
        result.withUnsafeMutableBufferPointer { scale($0, to: size) }
        return result
    }

    /// `points` moved so that their centroid is at the origin.
    public static func translatedToOrigin(_ points: [Point]) -> [Point] {
        var result = points
        result.withUnsafeMutableBufferPointer { translateToOrigin($0) }
        return result
    }

    /// The largest coordinate a stroke may have, either sign: 1e150. Squares
    /// and sums of differences of such numbers stay finite, so normalising
    /// a stroke never overflows into infinity or NaN.
    public static let maximumCoordinate = 1e150

    /// Finite points of `raw` with consecutive duplicates removed, or the
    /// reason the stroke cannot be recognised.
    public static func sanitized(_ raw: [Point], maximumPoints: Int) -> Result<[Point], UnistrokeRecognizer.Degeneracy> {
        if raw.isEmpty { return .failure(.empty) }
        if raw.count > maximumPoints { return .failure(.tooManyPoints(raw.count, limit: maximumPoints)) }
        var failure: UnistrokeRecognizer.Degeneracy?
        let points = [Point](unsafeUninitializedCapacity: raw.count) { buffer, initialized in
            switch raw.withUnsafeBufferPointer({ sanitize($0, into: buffer, maximumPoints: maximumPoints) }) {
            case .success(let count): initialized = count
            case .failure(let reason): failure = reason; initialized = 0
            }
        }
        if let failure { return .failure(failure) }
        return .success(points)
    }
}

// MARK: The steps on buffers

/// The steps above on memory the caller owns, so that recognising a stroke
/// needs no allocation. The array versions run these: one arithmetic.
extension UnistrokePipeline {
    static func pathLength(_ points: UnsafeBufferPointer<Point>) -> Double {
        var length = 0.0
        var i = 1
        while i < points.count {
            length += points[i - 1].distance(to: points[i])
            i += 1
        }
        return length
    }

    /// Fills all of `result` (at least 2 points) from `points` (at least 2).
    static func resample(_ points: UnsafeBufferPointer<Point>, into result: UnsafeMutableBufferPointer<Point>) {
        let count = result.count
        let interval = pathLength(points) / Double(count - 1)
        result[0] = points[0]
        var written = 1
        var accumulated = 0.0
        var previous = points[0]
        var index = 1
        while index < points.count && written < count - 1 {
            let current = points[index]
            let step = previous.distance(to: current)
            if step > 0 && accumulated + step >= interval {
                let t = (interval - accumulated) / step
                let q = Point(
                    x: previous.x + t * (current.x - previous.x),
                    y: previous.y + t * (current.y - previous.y))
                result[written] = q
                written += 1
                previous = q
                accumulated = 0
            } else {
                accumulated += step
                previous = current
                index += 1
            }
        }
        // Rounding can leave the path a hair short: the last point closes it.
        while written < count {
            result[written] = points[points.count - 1]
            written += 1
        }
    }

    static func centroid(_ points: UnsafeBufferPointer<Point>) -> Point {
        var x = 0.0, y = 0.0
        for p in points { x += p.x; y += p.y }
        let n = Double(max(points.count, 1))
        return Point(x: x / n, y: y / n)
    }

    static func indicativeAngle(_ points: UnsafeBufferPointer<Point>) -> Double {
        let c = centroid(points)
        return atan2(c.y - points[0].y, c.x - points[0].x)
    }

    static func rotate(_ points: UnsafeMutableBufferPointer<Point>, by radians: Double) {
        let c = centroid(UnsafeBufferPointer(points))
        let cosA = cos(radians), sinA = sin(radians)
        for i in points.indices {
            let dx = points[i].x - c.x, dy = points[i].y - c.y
            points[i] = Point(x: dx * cosA - dy * sinA + c.x, y: dx * sinA + dy * cosA + c.y)
        }
    }

    static func scale(_ points: UnsafeMutableBufferPointer<Point>, to size: Double) {
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let width = maxX - minX, height = maxY - minY
        let long = max(width, height)
        guard long > 0 else { return }
        var sx = size / long, sy = size / long
        if min(width, height) / long > oneDimensionalRatio {
            sx = size / width
            sy = size / height
        }
        for i in points.indices { points[i] = Point(x: points[i].x * sx, y: points[i].y * sy) }
    }

    static func translateToOrigin(_ points: UnsafeMutableBufferPointer<Point>) {
        let c = centroid(UnsafeBufferPointer(points))
        for i in points.indices { points[i] = Point(x: points[i].x - c.x, y: points[i].y - c.y) }
    }

    /// Writes the finite points of `raw` without consecutive duplicates to
    /// `result` (room for `raw.count`); returns how many.
    static func sanitize(
        _ raw: UnsafeBufferPointer<Point>, into result: UnsafeMutableBufferPointer<Point>,
        maximumPoints: Int
    ) -> Result<Int, UnistrokeRecognizer.Degeneracy> {
        if raw.isEmpty { return .failure(.empty) }
        if raw.count > maximumPoints { return .failure(.tooManyPoints(raw.count, limit: maximumPoints)) }
        var count = 0
        for p in raw {
            guard p.isFinite else { return .failure(.nonFiniteCoordinate) }
            guard abs(p.x) <= maximumCoordinate, abs(p.y) <= maximumCoordinate else { return .failure(.coordinateOutOfRange) }
            if count > 0, result[count - 1] == p { continue }
            result[count] = p
            count += 1
        }
        guard count >= 2 else { return .failure(.singlePoint) }
        let length = pathLength(UnsafeBufferPointer(rebasing: result[0..<count]))
        guard length.isFinite else { return .failure(.nonFiniteCoordinate) }
        guard length > 0 else { return .failure(.singlePoint) }
        return .success(count)
    }
}
