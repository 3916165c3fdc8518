import InputChecks

/// Why a list of points could not be read: the one reader of `[[x, y], ...]`
/// that template libraries and JSON stroke files share.
public enum PointListError: Error, Hashable, Sendable {
    /// The list holds `count` points, more than the reader's limit.
    case tooMany(count: Int)
    /// The point at `index` is not a pair of finite numbers.
    case notAPair(index: Int)
    /// The value is not a list, or another reading error.
    case read(JSONText.ReadError)
}

extension JSONCursor {
    /// Reads `[[x, y], ...]` at the cursor, keeping at most `maximumCount`
    /// points (the rest are only counted, for the message), so the memory
    /// it takes is 16 bytes a point it accepts, whatever the text holds.
    ///
    /// - Parameter extraCoordinates: Whether a point may hold more numbers
    ///   after x and y (a time, a pressure), which are skipped.
    /// - Throws: ``PointListError``.
    public mutating func readPoints(
        at path: @autoclosure () -> String, maximumCount: Int, extraCoordinates: Bool = false
    ) throws(PointListError) -> [Point] {
        var points: [Point] = []
        var count = 0
        var problem: PointListError?
        let stop = JSONText.ReadError.value(InvalidValue(path: "", message: "stopped"))
        do {
            try readList(at: path()) { cursor, index throws(JSONText.ReadError) in
                count = index + 1
                guard index < maximumCount else { return cursor.skipValue() }
                guard cursor.kind() == .list else { problem = .notAPair(index: index); throw stop }
                var x = 0.0, y = 0.0, numbers = 0
                try cursor.readList(at: "") { cursor, coordinate throws(JSONText.ReadError) in
                    guard cursor.kind() == .number, coordinate < 2 || extraCoordinates else {
                        problem = .notAPair(index: index)
                        throw stop
                    }
                    let value = try cursor.readNumber(at: "")
                    if coordinate == 0 { x = value } else if coordinate == 1 { y = value }
                    numbers += 1
                }
                guard numbers >= 2 else { problem = .notAPair(index: index); throw stop }
                points.append(Point(x: x, y: y))
            }
        } catch {
            throw problem ?? .read(error)
        }
        guard count <= maximumCount else { throw .tooMany(count: count) }
        return points
    }
}
