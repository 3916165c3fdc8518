/// The file formats a ``Trace`` is read from and written to.
public enum TraceFormat: String, CaseIterable, Hashable, Sendable {
    /// This package's JSON Lines trace, version 1 (see Recordings/README.md).
    case json
    /// `libinput record` YAML, version 1.
    case libinput
    /// evemu's text format (`evemu-record`, `.events` / `.desc`).
    case evemu

    /// The format a file name's extension implies: `.jsonl`/`.json` -> json,
    /// `.yml`/`.yaml` -> libinput, `.events`/`.evemu`/`.desc` -> evemu.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "jsonl", "json", "trace": self = .json
        case "yml", "yaml": self = .libinput
        case "events", "evemu", "desc", "txt": self = .evemu
        default: return nil
        }
    }

    /// The format the content is in, from its first line that is neither
    /// blank nor a `#` comment: `{` starts a JSON trace, `N:`/`I:`/`P:`/`B:`/`A:`/`E:`
    /// an evemu recording, anything else that looks like a YAML key a libinput recording.
    /// Nil for empty or comment-only content.
    public static func detect(_ content: some Collection<UInt8>) -> TraceFormat? {
        var lineStart = true
        var inComment = false
        var index = content.startIndex
        var sawYAMLKey = false
        while index != content.endIndex {
            let byte = content[index]
            defer { index = content.index(after: index) }
            if byte == UInt8(ascii: "\n") { lineStart = true; inComment = false; continue }
            if inComment { continue }
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") { continue }
            if byte == 0xEF || byte == 0xBB || byte == 0xBF { continue }  // UTF-8 byte order mark
            if lineStart && byte == UInt8(ascii: "#") { inComment = true; continue }
            if byte == UInt8(ascii: "{") { return .json }
            let next = content.index(after: index)
            if next != content.endIndex && content[next] == UInt8(ascii: ":"),
                "NIPBAE".utf8.contains(byte)
            {
                let after = content.index(after: next)
                if after == content.endIndex || content[after] == UInt8(ascii: " ") || content[after] == UInt8(ascii: "\t") {
                    return .evemu
                }
            }
            sawYAMLKey = true
            break
        }
        return sawYAMLKey ? .libinput : nil
    }

    /// The usual file extension for the format.
    public var pathExtension: String {
        switch self {
        case .json: return "jsonl"
        case .libinput: return "yml"
        case .evemu: return "events"
        }
    }
}
