/// Why a trace could not be read or written, and where.
///
/// The description is one sentence naming the file, the line (text formats)
/// or frame index, and what is wrong:
/// `scroll.jsonl line 1: unsupported trace version 3; this reader reads version 1.`
public struct TraceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var kind: Kind
    /// The file, when reading or writing one.
    public var file: String?
    /// The 1-based line in a text file, when known.
    public var line: Int?
    /// The 0-based frame index, when known.
    public var frame: Int?

    public init(_ kind: Kind, file: String? = nil, line: Int? = nil, frame: Int? = nil) {
        self.kind = kind
        self.file = file
        self.line = line
        self.frame = frame
    }

    /// The specific problems.
    public enum Kind: Error, Hashable, Sendable {
        // Any format
        case emptyFile
        case unknownFormat
        case unreadable(reason: String)
        /// More than `limit` bytes (`bytes` when the size is known).
        case fileTooLarge(bytes: Int?, limit: Int)
        case lineTooLong(limit: Int)
        case tooManyDevices(found: Int, limit: Int)
        case tooManySlots(found: Int, limit: Int)
        case tooManyEvents(limit: Int)
        case numberOutOfRange(String)
        // JSON trace
        case notATrace
        case unsupportedVersion(found: Int)
        case malformedHeader(String)
        case malformedFrame(String)
        case unknownDevice(index: Int, deviceCount: Int)
        case truncated
        case countMismatch(what: String, declared: Int, found: Int)
        case dataAfterEnd
        // evemu
        case malformedEvemuLine(String)
        case missingDeviceDescription(expected: String)
        // libinput record
        case malformedYAML(String)
        case unsupportedRecordVersion(found: String)
        case missingKey(String)
        case invalidValue(key: String, reason: String)
        // Writing
        case cannotExport(String)
    }

    /// Returns the error with the file set (when it has none yet).
    public func inFile(_ path: String) -> TraceError {
        var copy = self
        if copy.file == nil { copy.file = path }
        return copy
    }

    public var description: String {
        var place: [String] = []
        if let file { place.append(file) }
        if let line { place.append("line \(line)") }
        if let frame { place.append("frame \(frame)") }
        let prefix = place.isEmpty ? "" : place.joined(separator: " ") + ": "
        return prefix + message + "."
    }

    private var message: String {
        switch kind {
        case .emptyFile: return "the file is empty"
        case .unknownFormat: return "not a gestures trace, libinput record YAML or evemu recording"
        case .unreadable(let reason): return "cannot be read (\(reason))"
        case .fileTooLarge(let bytes, let limit): return InputFile.tooLargeMessage(bytes: bytes, limit: limit)
        case .lineTooLong(let limit): return "the line is longer than the limit of \(limit) bytes"
        case .tooManyDevices(let found, let limit): return "\(found) devices, more than the limit of \(limit)"
        case .tooManySlots(let found, let limit): return "a device with \(found) touch slots, more than the limit of \(limit)"
        case .tooManyEvents(let limit): return "a frame with more than \(limit) events"
        case .numberOutOfRange(let what): return "\(what) is out of range"
        case .notATrace: return "the first line is not a gestures-trace header ({\"format\":\"gestures-trace\",\"version\":1,...})"
        case .unsupportedVersion(let found): return "unsupported trace version \(found); this reader reads version 1"
        case .malformedHeader(let what): return "malformed header: \(what)"
        case .malformedFrame(let what): return "malformed frame line: \(what)"
        case .unknownDevice(let index, let count): return "device \(index) is not one of the \(count) devices in the header"
        case .truncated: return "the trace ends without its end line; the file is truncated"
        case .countMismatch(let what, let declared, let found):
            return "the end line declares \(declared) \(what) but the trace has \(found); the file is damaged"
        case .dataAfterEnd: return "data after the end line"
        case .malformedEvemuLine(let what): return "malformed evemu line: \(what)"
        case .missingDeviceDescription(let expected):
            return "the events have no device description and there is no \(expected) beside them"
        case .malformedYAML(let what): return "malformed YAML: \(what)"
        case .unsupportedRecordVersion(let found): return "unsupported libinput record version \(found); this reader reads version 1"
        case .missingKey(let key): return "the libinput recording has no '\(key)'"
        case .invalidValue(let key, let reason): return "'\(key)' \(reason)"
        case .cannotExport(let why): return "cannot export: \(why)"
        }
    }
}
