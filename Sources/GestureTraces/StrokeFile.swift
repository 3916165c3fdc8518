import Foundation
import GestureRecognition
import InputChecks

/// A drawn stroke read from a file: a $-family XML gesture log, or a JSON
/// stroke file `{"name": "circle", "points": [[x, y], ...]}` (`name` optional;
/// a JSON array of such objects holds several strokes).
public struct StrokeFile: Hashable, Sendable {
    /// The gesture name the file gives, if any.
    public var name: String?
    public var points: [Point]

    public init(name: String?, points: [Point]) {
        self.name = name
        self.points = points
    }

    /// The largest stroke file this reader accepts.
    public static let maximumBytes = 16 << 20

    /// Reads every stroke in the file at `url`, choosing the format from its content.
    public static func load(contentsOf url: URL) throws -> [StrokeFile] {
        let data: Data
        do { data = try InputFile.read(url, maximumBytes: maximumBytes) } catch {
            throw DollarGestureLog.ReadError(description: error.description)
        }
        return try load(data: data, source: url.path)
    }

    /// Reads every stroke in `data`, each of at most `maximumPoints` points;
    /// `source` names it in errors.
    public static func load(data: Data, source: String, maximumPoints: Int = maximumPoints) throws -> [StrokeFile] {
        guard data.count <= maximumBytes else {
            throw DollarGestureLog.ReadError(description: "\(source): \(InputFile.tooLargeMessage(bytes: data.count, limit: maximumBytes))")
        }
        let firstByte = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
        if firstByte == UInt8(ascii: "<") {
            let log = try DollarGestureLog(data: data, source: source)
            return [StrokeFile(name: log.gestureName, points: log.points)]
        }
        let list = firstByte == UInt8(ascii: "[")
        guard list || firstByte == UInt8(ascii: "{") else {
            throw DollarGestureLog.ReadError(description: "\(source) is neither an XML gesture log nor a JSON stroke file")
        }
        var strokes: [StrokeFile] = []
        var failure: String?
        let stop = JSONText.ReadError.value(InvalidValue(path: "", message: "stopped"))
        do {
            try JSONText.read(data) { cursor throws(JSONText.ReadError) in
                if list {
                    try cursor.readList(at: "the top level") { cursor, index throws(JSONText.ReadError) in
                        do throws(StrokeError) {
                            strokes.append(try readStroke(&cursor, path: "[\(index)]", maximumPoints: maximumPoints))
                        } catch {
                            failure = "stroke \(index), \(error)"
                            throw stop
                        }
                    }
                } else {
                    do throws(StrokeError) { strokes.append(try readStroke(&cursor, path: "", maximumPoints: maximumPoints)) } catch {
                        failure = error.description
                        throw stop
                    }
                }
            }
        } catch {
            throw DollarGestureLog.ReadError(
                description: "\(source): " + (failure ?? (list ? "not a list of JSON strokes (\(error))" : "not a JSON stroke (\(error))")))
        }
        return strokes
    }

    /// The most points a stroke in a file may hold: 100,000 (what the
    /// recognizer takes, `UnistrokeRecognizer.Configuration.maximumPoints`).
    public static let maximumPoints = 100_000

    /// Why one stroke of a JSON file cannot be read, as a phrase.
    struct StrokeError: Error, CustomStringConvertible {
        var description: String
    }

    /// `{"name": ..., "points": [[x, y], ...]}` at `cursor`.
    private static func readStroke(_ cursor: inout JSONCursor, path: String, maximumPoints: Int) throws(StrokeError) -> StrokeFile {
        var name: String?
        var points: [Point]?
        var problem: String?
        let stop = JSONText.ReadError.value(InvalidValue(path: "", message: "stopped"))
        do {
            try cursor.readObject(at: path.isEmpty ? "the top level" : path) { cursor, key throws(JSONText.ReadError) in
                switch key {
                case "name":
                    guard !cursor.readNull() else { return }
                    let text = try cursor.readString(at: "name", maximumBytes: 6 * TemplateLibrary.maximumNameLength)
                    guard TemplateLibrary.isValidName(text) else {
                        problem =
                            "the name \(Excerpt.quoted(text)) is not 1 to \(TemplateLibrary.maximumNameLength) characters of text without control characters"
                        throw stop
                    }
                    name = text
                case "points":
                    do throws(PointListError) {
                        points = try cursor.readPoints(at: "points", maximumCount: maximumPoints, extraCoordinates: true)
                    } catch {
                        switch error {
                        case .tooMany(let count): problem = "it has \(count) points, over the limit of \(maximumPoints)"
                        case .notAPair(let index): problem = "points[\(index)] is not a pair of finite numbers"
                        case .read(let error): throw error
                        }
                        throw stop
                    }
                default: cursor.skipValue()
                }
            }
        } catch {
            throw StrokeError(description: problem ?? error.description)
        }
        guard let points else { throw StrokeError(description: "points: is required") }
        return StrokeFile(name: name, points: points)
    }

    /// The stroke as JSON (`{"name": ..., "points": [[x, y], ...]}`).
    public func jsonData() -> Data {
        struct Stored: Encodable { var name: String?; var points: [[Double]] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(Stored(name: name, points: points.map { [$0.x, $0.y] }))) ?? Data()
    }
}
