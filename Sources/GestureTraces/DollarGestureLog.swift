import Foundation
import GestureRecognition
import InputChecks

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One stroke from a $-family XML gesture log (the format of the $1 study's
/// `xml_logs`): `<Gesture Name="arrow01" Subject="2" Speed="fast" ...>` with
/// `<Point X="66" Y="252" T="11462293" />` children, in pixels and milliseconds.
public struct DollarGestureLog: Hashable, Sendable {
    /// The name as logged, e.g. `arrow01`.
    public var name: String
    /// The gesture name without the trailing sample number, e.g. `arrow`.
    public var gestureName: String
    public var subject: String?
    public var speed: String?
    /// The points in pixels (y grows downwards).
    public var points: [Point]
    /// The time of each point in milliseconds, as logged.
    public var times: [Double]

    /// The largest log this reader accepts.
    public static let maximumBytes = 4 << 20
    /// The most points one logged stroke may hold.
    public static let maximumPoints = 100_000

    /// Why a log could not be read.
    public struct ReadError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The `encoding` of the XML declaration at the start of `data` (after a byte order
    /// mark and white space), or nil when there is no declaration or it names none.
    static func declaredEncoding(in data: Data) -> String? {
        var bytes = data.prefix(1024)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        let declaration = String(decoding: bytes.prefix { $0 != UInt8(ascii: ">") }, as: UTF8.self)
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return "" }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// The line of the first `<?` that is not the XML declaration at the very start, or nil.
    /// Only `<?xml` followed by white space is the declaration: any other target there
    /// (`<?xm?>`, `<?XML?>`, `<?xml-stylesheet?>`) is a processing instruction.
    static func processingInstructionLine(in data: Data) -> Int? {
        let bytes = [UInt8](data)
        let whiteSpace: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, whiteSpace.contains(bytes[start]) { start += 1 }
        let declaration = Array("<?xml".utf8)
        let startsWithDeclaration =
            bytes[start...].starts(with: declaration)
            && start + declaration.count < bytes.count && whiteSpace.contains(bytes[start + declaration.count])
        var line = 1
        for index in bytes.indices {
            if bytes[index] == 0x0A { line += 1 }
            if bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "?"),
                index != start || !startsWithDeclaration
            {
                return line
            }
        }
        return nil
    }

    /// Parses a log from `data`; `source` names it in errors. The log must
    /// be UTF-8 (checked before the XML parser sees it).
    public init(data: Data, source: String = "the log") throws {
        guard data.count <= Self.maximumBytes else {
            throw ReadError(description: "\(source): \(InputFile.tooLargeMessage(bytes: data.count, limit: Self.maximumBytes))")
        }
        /// The error at `line` of the log.
        func refused(_ line: Int, _ text: String) -> ReadError { ReadError(description: "\(source), line \(line): \(text)") }
        if let invalid = Self.firstInvalidUTF8(in: data) {
            throw refused(invalid.line, "the byte 0x\(String(invalid.byte, radix: 16)) is not UTF-8; a gesture log must be UTF-8 text")
        }
        // XML allows no C0 control character but tab and line breaks, and libxml2 reads NUL bytes
        // at the start as a UTF-16 or UCS-4 signature and switches encoding (`\0\0\0<` crashed it).
        if let control = Self.firstControlCharacter(in: data) {
            throw refused(
                control.line,
                "the control character 0x\(String(format: "%02x", control.byte)) is not allowed in XML; a gesture log must be UTF-8 text without control characters other than tab and line breaks"
            )
        }
        // libxml2 switches to the encoding the declaration names (UTF-7 crashed it): only UTF-8 is read.
        if let encoding = Self.declaredEncoding(in: data), !["utf-8", "utf8"].contains(encoding.lowercased()) {
            throw refused(1, "the XML declaration names the encoding \(Excerpt.quoted(encoding)); a gesture log must be UTF-8 text")
        }
        // Foundation's parser crashes on some processing instructions (`<?x?`): a log has none
        // but its XML declaration.
        if let line = Self.processingInstructionLine(in: data) {
            throw refused(
                line, "a processing instruction (<?...?>) is not allowed in a gesture log; only the XML declaration may start with <?")
        }
        // Foundation's parser crashes on notations and unparsed entities without a public
        // identifier (`<!NOTATION n SYSTEM "">`): a log has no document type declaration.
        if let line = Self.documentTypeLine(in: data) {
            throw refused(line, "a document type declaration (<!DOCTYPE ...>) is not allowed in a gesture log")
        }
        let delegate = LogParserDelegate()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        // Foundation's parser on Linux returns true even after an error, and
        // for a document whose elements are never closed: the delegate sees both.
        let ok = parser.parse()
        if let failure = delegate.failure {
            throw ReadError(description: "\(source): \(failure)")
        }
        guard ok, delegate.openElements == 0, delegate.sawRoot else {
            throw ReadError(description: "\(source), line \(parser.lineNumber): not well-formed XML")
        }
        guard let name = delegate.name else {
            throw ReadError(description: "\(source): no <Gesture Name=...> element")
        }
        self.name = name
        self.gestureName = Self.gestureName(from: name)
        self.subject = delegate.subject
        self.speed = delegate.speed
        self.points = delegate.points
        self.times = delegate.times
    }

    /// Reads the log at `url` (at most ``maximumBytes``, checked before reading).
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try InputFile.read(url, maximumBytes: Self.maximumBytes) } catch {
            throw ReadError(description: error.description)
        }
        try self.init(data: data, source: url.path)
    }

    /// The line and value of the first byte of `data` that is not part of
    /// well-formed UTF-8, or nil when all of it is.
    static func firstInvalidUTF8(in data: Data) -> (line: Int, byte: UInt8)? {
        var iterator = data.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var line = 1
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1 && encoded.first == 0x0A { line += 1 }
                offset += encoded.count
            case .error:
                return (line, data[data.startIndex + offset])
            case .emptyInput:
                return nil
            }
        }
    }

    /// The line of the first `<!DOCTYPE` in `data`, or nil.
    static func documentTypeLine(in data: Data) -> Int? {
        let bytes = [UInt8](data)
        let doctype = Array("<!DOCTYPE".utf8)
        var line = 1
        for index in bytes.indices {
            if bytes[index] == 0x0A { line += 1 }
            if bytes[index] == UInt8(ascii: "<"), bytes[index...].starts(with: doctype) { return line }
        }
        return nil
    }

    /// The line and value of the first C0 control character in `data` other than tab, line
    /// feed and carriage return (none is allowed in XML 1.0), or nil. In UTF-8 such a byte is
    /// always the character itself, never part of a longer sequence.
    static func firstControlCharacter(in data: Data) -> (line: Int, byte: UInt8)? {
        var line = 1
        for byte in data {
            if byte == 0x0A { line += 1 }
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { return (line, byte) }
        }
        return nil
    }

    /// `arrow01` -> `arrow`, `delete_mark10` -> `delete_mark`.
    static func gestureName(from name: String) -> String {
        var base = Substring(name)
        while let last = base.last, last.isNumber { base = base.dropLast() }
        return base.isEmpty ? name : String(base)
    }

    /// Every log under `directory` (recursively), sorted by path.
    public static func logs(under directory: URL) throws -> [(url: URL, log: DollarGestureLog)] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw ReadError(description: "cannot list \(directory.path)")
        }
        var urls: [URL] = []
        for case let url as URL in enumerator where url.pathExtension.lowercased() == "xml" { urls.append(url) }
        urls.sort { $0.path < $1.path }
        return try urls.map { ($0, try DollarGestureLog(contentsOf: $0)) }
    }
}

private final class LogParserDelegate: NSObject, XMLParserDelegate {
    var name: String?
    var subject: String?
    var speed: String?
    var points: [Point] = []
    var times: [Double] = []
    var failure: String?
    /// Elements started and not yet ended.
    var openElements = 0
    /// Whether a root element was seen.
    var sawRoot = false

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        fail(parser, "line \(parser.lineNumber): not well-formed XML")
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        openElements -= 1
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        openElements += 1
        sawRoot = true
        switch element {
        case "Gesture":
            name = attributes["Name"]
            subject = attributes["Subject"]
            speed = attributes["Speed"]
        case "Point":
            guard let x = attributes["X"].flatMap(Double.init), let y = attributes["Y"].flatMap(Double.init),
                x.isFinite, y.isFinite
            else {
                fail(parser, "line \(parser.lineNumber): a <Point> without finite X and Y attributes")
                return
            }
            guard points.count < DollarGestureLog.maximumPoints else {
                fail(parser, "more than \(DollarGestureLog.maximumPoints) points")
                return
            }
            points.append(Point(x: x, y: y))
            times.append(attributes["T"].flatMap(Double.init) ?? Double(times.count))
        default:
            break
        }
    }

    private func fail(_ parser: XMLParser, _ message: String) {
        if failure == nil { failure = message }
        parser.abortParsing()
    }
}
