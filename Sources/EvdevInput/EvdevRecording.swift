import Foundation

/// The recording format of `gestures record`: JSON Lines, lossless, one device.
///
/// Line 1 is the header, decoded first:
///
///     {"format":"gestures-evdev-record","version":1,"node":"/dev/input/event5","device":{...EvdevDeviceInfo...}}
///
/// Every later line is one frame: the kernel time in microseconds, and the
/// events as `[type, code, value]` without the terminating `SYN_REPORT`
/// (which is implied). A frame that is libevdev's resync after `SYN_DROPPED`
/// (the state after lost events, not events that happened) has `"resynced":true`:
///
///     {"time":1700000000123456,"events":[[3,47,1],[3,57,12],[3,53,2100],[1,330,1]]}
///     {"time":1700000000133456,"events":[[3,53,2140]],"resynced":true}
///
/// A file is complete when every line is a whole JSON object; the recorder
/// writes whole lines only. (A later merge switches recording to the project's
/// trace format.)
public enum EvdevRecording {
    /// The `format` value of the header.
    public static let formatName = "gestures-evdev-record"
    /// The version this code writes and reads.
    public static let version = 1

    /// The first line: what was recorded.
    public struct Header: Hashable, Sendable, Codable {
        /// Always `gestures-evdev-record`.
        public var format: String
        /// The format version; 1.
        public var version: Int
        /// The device node recorded from.
        public var node: String
        /// The device description.
        public var device: EvdevDeviceInfo

        /// Creates the header of a version-1 recording.
        public init(node: String, device: EvdevDeviceInfo) {
            self.format = EvdevRecording.formatName
            self.version = EvdevRecording.version
            self.node = node
            self.device = device
        }
    }

    /// One recorded frame.
    public struct Line: Hashable, Sendable {
        /// The frame, with its kernel time.
        public var frame: EvdevFrame
        /// Whether the frame is libevdev's resync after `SYN_DROPPED`.
        public var resynced: Bool

        /// Creates a frame line.
        public init(frame: EvdevFrame, resynced: Bool = false) {
            self.frame = frame
            self.resynced = resynced
        }
    }

    /// A recording that does not decode, with the 1-based line where it failed.
    public struct DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The 1-based line number.
        public var line: Int
        /// What is wrong.
        public var reason: String

        /// `line 3: ...`.
        public var description: String { "line \(line): \(reason)" }
    }

    /// The header line, without its newline.
    public static func encode(_ header: Header) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain integers and strings cannot fail.
        return String(decoding: try! encoder.encode(header), as: UTF8.self)
    }

    /// One frame line, without its newline.
    public static func encode(_ line: Line) -> String {
        var text = "{\"time\":\(line.frame.timeMicroseconds),\"events\":["
        text += line.frame.events.map { "[\($0.type),\($0.code),\($0.value)]" }.joined(separator: ",")
        text += "]"
        if line.resynced { text += ",\"resynced\":true" }
        return text + "}"
    }

    /// Decodes a whole recording: the header first (its version checked), then every frame.
    public static func decode(_ text: String) throws -> (header: Header, lines: [Line]) {
        var rows = text.split(separator: "\n", omittingEmptySubsequences: false)
        if rows.last == "" { rows.removeLast() }
        guard let first = rows.first else { throw DecodingError(line: 1, reason: "the file is empty, no header") }
        let header = try decodeHeader(String(first))
        var lines: [Line] = []
        for (index, row) in rows.enumerated().dropFirst() {
            lines.append(try decodeLine(String(row), lineNumber: index + 1))
        }
        return (header, lines)
    }

    /// Decodes the header line; the version is read before anything else.
    public static func decodeHeader(_ text: String) throws -> Header {
        struct Version: Decodable { var format: String?; var version: Int? }
        let data = Data(text.utf8)
        guard let version = try? JSONDecoder().decode(Version.self, from: data) else {
            throw DecodingError(line: 1, reason: "the header is not a JSON object")
        }
        guard version.format == formatName else {
            throw DecodingError(line: 1, reason: "the format is '\(version.format ?? "missing")', expected '\(formatName)'")
        }
        guard version.version == Self.version else {
            throw DecodingError(line: 1, reason: "unsupported version \(version.version.map(String.init) ?? "missing"), expected \(Self.version)")
        }
        do {
            return try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw DecodingError(line: 1, reason: "the header's device description is invalid")
        }
    }

    /// Decodes one frame line.
    public static func decodeLine(_ text: String, lineNumber: Int) throws -> Line {
        struct Row: Decodable { var time: Int64; var events: [[Int64]]; var resynced: Bool? }
        guard let row = try? JSONDecoder().decode(Row.self, from: Data(text.utf8)) else {
            throw DecodingError(line: lineNumber, reason: "not a frame object with 'time' and 'events'")
        }
        var events: [EvdevEvent] = []
        for triple in row.events {
            guard triple.count == 3, let type = UInt16(exactly: triple[0]), let code = UInt16(exactly: triple[1]),
                  let value = Int32(exactly: triple[2]) else {
                throw DecodingError(line: lineNumber, reason: "an event is not [type, code, value] in range")
            }
            events.append(EvdevEvent(type: type, code: code, value: value))
        }
        return Line(frame: EvdevFrame(timeMicroseconds: row.time, events: events), resynced: row.resynced ?? false)
    }
}
