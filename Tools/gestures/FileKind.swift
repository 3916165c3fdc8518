import Foundation
import GestureTraces
import InputChecks

/// What a path holds, judged from the file system and the first bytes of
/// the file: the one sniffer every command asks before handing a file to a
/// reader, so a file of the wrong kind gets a sentence saying what it is
/// (see ``FileArgument``) instead of a parser's complaint about line 1.
///
/// It only recognises; the readers still check everything. A file it cannot
/// place is ``other`` and goes to the reader, whose error names the line.
///
///     FileKind.of("Recordings/strokes/check.json")             // .strokes
///     FileKind.of("Recordings/synthetic/rmi4.2-finger-tap.jsonl") // .recording(.json)
enum FileKind: Hashable, Sendable {
    /// Nothing at the path.
    case missing
    /// A directory.
    case directory
    /// Something that is neither a file nor a directory (a device node, a pipe).
    case special
    /// A file that cannot be opened (permissions).
    case unreadable
    /// A file with nothing (or only blanks) in it.
    case empty
    /// A touch recording in one of the trace formats.
    case recording(TraceFormat)
    /// An evemu device description (`N:`, `I:`, `B:`, `A:` lines) without events.
    case evemuDescription
    /// A $-family XML stroke log (`<Gesture Name=...>`).
    case strokeLog
    /// XML that is not a stroke log.
    case xml
    /// A JSON stroke file: `{"name": ..., "points": [[x, y], ...]}` or a list of them.
    case strokes
    /// A template library (`"format": "gestures-templates"`).
    case templateLibrary
    /// The daemon's configuration, JSON or YAML.
    case configuration
    /// A `--sequences` file: `{"sequences": [...]}`.
    case sequences
    /// `gestures replay` output: one gesture event per line.
    case gestureEvents
    /// A `bench-patterns` corpus: `{"entries": [...]}`.
    case patternCorpus
    /// Binary data: it holds NUL bytes.
    case binary
    /// Text that is not UTF-8 (an invalid byte sequence, no NUL bytes).
    case notUTF8
    /// A text file of no kind the tool knows; the reader decides.
    case other

    /// The size of the file at `path` in bytes (following links), or nil.
    static func size(of path: String) -> Int? {
        guard let opened = try? InputFile.open(path) else { return nil }
        try? opened.handle.close()
        return opened.size
    }

    /// How many bytes are looked at.
    static let prefixBytes = 64 * 1024
    /// JSON documents up to this size are parsed whole when their first line is not a whole value.
    static let wholeDocumentBytes = 16 << 20

    /// The kind of what is at `path`, opened through ``InputFile/open(_:)``
    /// (the one checked opener: a link is followed, a FIFO or a device is
    /// ``special`` at once and never waited on).
    static func of(_ path: String) -> FileKind {
        let handle: FileHandle, size: Int
        do { (handle, size) = try InputFile.open(path) } catch {
            switch error.problem {
            case .missing: return .missing
            case .directory: return .directory
            case .notARegularFile: return .special
            case .unreadable, .tooLarge: return .unreadable
            }
        }
        defer { try? handle.close() }
        let prefix: Data
        do { prefix = try handle.read(upToCount: prefixBytes) ?? Data() } catch { return .unreadable }
        return of(prefix: prefix, size: max(size, prefix.count)) { try? InputFile.read(path, maximumBytes: wholeDocumentBytes) }
    }

    /// The kind of content that starts with `prefix` and has `size` bytes in
    /// all; `whole` reads all of it, for a JSON document that needs parsing whole.
    static func of(prefix: Data, size: Int, whole: () -> Data?) -> FileKind {
        let bytes = [UInt8](prefix)
        if bytes.contains(0) { return .binary }
        if !isValidUTF8Prefix(bytes) { return .notUTF8 }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }) else { return .empty }
        switch bytes[first] {
        case UInt8(ascii: "<"):
            let text = String(decoding: bytes, as: UTF8.self)
            return text.contains("<Gesture") ? .strokeLog : .xml
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return json(bytes, from: first, size: size, whole: whole)
        default:
            break
        }
        switch TraceFormat.detect(prefix) {
        case .evemu?:
            return lines(of: bytes).contains { $0.hasPrefix("E:") } ? .recording(.evemu) : .evemuDescription
        case .libinput?:
            return yaml(bytes)
        case .json?, nil:
            return .other
        }
    }

    // MARK: JSON

    /// The kind of a JSON file from the top-level keys of its first value:
    /// the first line's when it is a whole value (JSON Lines), else the
    /// whole document's when it is small enough to parse.
    private static func json(_ bytes: [UInt8], from start: Int, size: Int, whole: () -> Data?) -> FileKind {
        let lineEnd = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        let firstLine = Data(bytes[start..<lineEnd])
        if let kind = jsonKind(firstLine) {
            // A line of replay output or a trace header is the first of many; one whole document otherwise.
            if kind != .other || lineEnd == bytes.endIndex { return kind }
        }
        if String(decoding: firstLine.prefix(4096), as: UTF8.self).contains("\"gestures-trace\"") { return .recording(.json) }
        guard size <= wholeDocumentBytes, let data = size <= bytes.count ? Data(bytes) : whole(), let kind = jsonKind(data) else {
            return .other
        }
        return kind
    }

    /// The kind JSON `data` shows by its top-level keys (and a list by its
    /// first element's), or nil when it is not JSON. Read with a
    /// ``JSONCursor``, which skips every value it does not need: a 16 MiB
    /// template library costs no more than its bytes (a parsed tree of its
    /// points took 1.2 GB).
    private static func jsonKind(_ data: Data) -> FileKind? {
        try? JSONText.read(data) { cursor throws(JSONText.ReadError) -> FileKind in
            switch cursor.kind() {
            case .list:
                var kind = FileKind.other
                try cursor.readList(at: "") { cursor, index throws(JSONText.ReadError) in
                    guard index == 0, cursor.kind() == .object else { return cursor.skipValue() }
                    try cursor.readObject(at: "") { cursor, key throws(JSONText.ReadError) in
                        if key == "points" { kind = .strokes }
                        cursor.skipValue()
                    }
                }
                return kind
            case .object:
                var keys: Set<String> = []
                var format: String?
                try cursor.readObject(at: "") { cursor, key throws(JSONText.ReadError) in
                    keys.insert(key)
                    if key == "format" && cursor.kind() == .string {
                        format = try cursor.readString(at: "format", maximumBytes: 1_000)
                    } else {
                        cursor.skipValue()
                    }
                }
                return json(keys: keys, format: format)
            default:
                return .other
            }
        }
    }

    /// The kind a JSON object's top-level keys (and its `format`) show.
    private static func json(keys: Set<String>, format: String?) -> FileKind {
        switch format {
        case "gestures-trace"?: return .recording(.json)
        case "gestures-templates"?: return .templateLibrary
        default: break
        }
        if keys.contains("points") { return .strokes }
        // A gesture line, or a mouse decision line of the same output.
        if (keys.contains("type") || keys.contains("mouse")) && keys.contains("time_ms") { return .gestureEvents }
        if keys.contains("version") && keys.isSubset(of: configurationKeys) { return .configuration }
        if keys.contains("bindings") { return .configuration }
        if keys == ["sequences"] { return .sequences }
        if keys.contains("entries") { return .patternCorpus }
        return .other
    }

    /// The top-level keys of the daemon's configuration.
    static let configurationKeys: Set<String> = ["version", "devices", "engine", "sequences", "templates", "actions", "mouse", "bindings"]

    // MARK: YAML

    /// The kind of a YAML file from its top-level keys: `libinput record`
    /// writes `ndevices` and `libinput`; the configuration has its own.
    private static func yaml(_ bytes: [UInt8]) -> FileKind {
        var keys: Set<String> = []
        for line in lines(of: bytes) where !line.hasPrefix(" ") && !line.hasPrefix("\t") && !line.hasPrefix("#") && !line.hasPrefix("-") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            if !key.isEmpty && key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) { keys.insert(key) }
        }
        if keys.contains("ndevices") || keys.contains("libinput") { return .recording(.libinput) }
        if keys.contains("version") && !keys.isEmpty && keys.isSubset(of: configurationKeys) { return .configuration }
        if keys.contains("bindings") { return .configuration }
        return .other
    }

    // MARK: Bytes

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0xEF || byte == 0xBB || byte == 0xBF
    }

    /// Whether `bytes` is UTF-8 apart from a character cut at the end of the prefix.
    private static func isValidUTF8Prefix(_ bytes: [UInt8]) -> Bool {
        for cut in 0...min(3, bytes.count) {
            if String(validating: bytes.dropLast(cut), as: UTF8.self) != nil { return true }
        }
        return false
    }

    private static func lines(of bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
}
