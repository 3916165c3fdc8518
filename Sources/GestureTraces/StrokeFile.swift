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

    /// Reads every stroke in `data`; `source` names it in errors.
    public static func load(data: Data, source: String) throws -> [StrokeFile] {
        guard data.count <= maximumBytes else {
            throw DollarGestureLog.ReadError(description: "\(source): \(InputFile.tooLargeMessage(bytes: data.count, limit: maximumBytes))")
        }
        let firstByte = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
        if firstByte == UInt8(ascii: "<") {
            let log = try DollarGestureLog(data: data, source: source)
            return [StrokeFile(name: log.gestureName, points: log.points)]
        }
        struct Stored: Decodable {
            var name: String?
            var points: [[Double]]
        }
        let stored: [Stored]
        if firstByte == UInt8(ascii: "[") {
            do { stored = try JSONText.decode([Stored].self, from: data) } catch {
                throw DollarGestureLog.ReadError(description: "\(source): not a list of JSON strokes (\(error))")
            }
        } else if firstByte == UInt8(ascii: "{") {
            do { stored = [try JSONText.decode(Stored.self, from: data)] } catch {
                throw DollarGestureLog.ReadError(description: "\(source): not a JSON stroke (\(error))")
            }
        } else {
            throw DollarGestureLog.ReadError(description: "\(source) is neither an XML gesture log nor a JSON stroke file")
        }
        return try stored.enumerated().map { index, stroke in
            var points: [Point] = []
            for (p, pair) in stroke.points.enumerated() {
                guard pair.count >= 2, pair[0].isFinite, pair[1].isFinite else {
                    throw DollarGestureLog.ReadError(description: "\(source): stroke \(index), points[\(p)] is not a pair of finite numbers")
                }
                points.append(Point(x: pair[0], y: pair[1]))
            }
            return StrokeFile(name: stroke.name, points: points)
        }
    }

    /// The stroke as JSON (`{"name": ..., "points": [[x, y], ...]}`).
    public func jsonData() -> Data {
        struct Stored: Encodable { var name: String?; var points: [[Double]] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(Stored(name: name, points: points.map { [$0.x, $0.y] }))) ?? Data()
    }
}
