import Foundation

extension JSONText {
    /// The deepest nesting of lists and objects a JSON reader of this package
    /// accepts: 64 levels (YAML documents have the same limit).
    public static let maximumDepth = 64

    /// Why JSON text is not valid, with the line and column (both 1-based,
    /// the column in bytes) where the problem was found.
    ///
    ///     line 1, column 9: the number '1e400' is out of range
    ///     line 3, column 12: lists and objects are nested deeper than the limit of 64 levels
    public struct SyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The 1-based line.
        public var line: Int
        /// The 1-based column, in bytes.
        public var column: Int
        /// What is wrong, as a phrase.
        public var message: String

        /// A syntax error at `line` and `column` saying `message`.
        public init(line: Int, column: Int, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }

        /// `line 3, column 12: message`.
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    /// Why JSON text could not be decoded: its syntax (with line and
    /// column) or a value (with its key path).
    public enum ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The text is not JSON, or passes a limit.
        case syntax(SyntaxError)
        /// The text is JSON, but a value is not what the type accepts.
        case value(InvalidValue)

        /// One phrase: `line 1, column 9: ...` or `points[3]: must be a number`.
        public var description: String {
            switch self {
            case .syntax(let error): error.description
            case .value(let error): error.description
            }
        }
    }

    /// Decodes `type` from JSON `data`, checking its syntax and nesting
    /// first (``checkSyntax(_:maximumDepth:)``), so every problem is said in
    /// the project's words with where it is.
    ///
    ///     try JSONText.decode([Double].self, from: Data("[1, 2,]".utf8))
    ///     // throws: line 1, column 7: expected a value, found ']'
    public static func decode<T: Decodable>(
        _ type: T.Type, from data: Data, maximumDepth: Int = maximumDepth
    ) throws(ReadError) -> T {
        do { try checkSyntax(data, maximumDepth: maximumDepth) } catch { throw .syntax(error) }
        do { return try JSONDecoder().decode(type, from: data) } catch {
            throw .value(invalidValue(error))
        }
    }

    /// Checks that `data` is one JSON value (RFC 8259) in UTF-8 nested at
    /// most `maximumDepth` deep, whose numbers are finite doubles; an
    /// optional UTF-8 byte order mark may precede it.
    ///
    /// - Complexity: O(n) in the bytes of `data`, with constant memory.
    public static func checkSyntax(_ data: Data, maximumDepth: Int = maximumDepth) throws(SyntaxError) {
        let outcome: SyntaxError? = data.withUnsafeBytes { raw in
            var scanner = SyntaxScanner(bytes: raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
            return scanner.scanDocument()
        }
        if let outcome { throw outcome }
    }
}

/// The scanner behind ``JSONText/checkSyntax(_:maximumDepth:)``.
private struct SyntaxScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var index = 0
    var line = 1
    var lineStart = 0
    /// Each open container: true for an object.
    var open: [Bool] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func error(_ message: String, at position: Int? = nil) -> JSONText.SyntaxError {
        JSONText.SyntaxError(line: line, column: (position ?? index) - lineStart + 1, message: message)
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// What is at the current position, for messages: `'x'`, or the end of the text.
    var found: String {
        guard let byte = current else { return "the end of the text" }
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte >= 0x80 {
            // A whole character when it is valid UTF-8.
            let end = min(bytes.count, index + 4)
            for length in stride(from: end - index, through: 1, by: -1) {
                if let text = String(validating: UnsafeBufferPointer(rebasing: bytes[index..<index + length]), as: UTF8.self),
                    text.unicodeScalars.count == 1
                {
                    return Excerpt.quoted(text)
                }
            }
            return "the byte 0x" + String(byte, radix: 16)
        }
        return Excerpt.quoted(String(Unicode.Scalar(byte)))
    }

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    mutating func scanDocument() -> JSONText.SyntaxError? {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3; lineStart = 3 }
        skipSpace()
        guard index < bytes.count else { return error("the text is empty: expected a JSON value") }
        if let problem = scanValues() { return problem }
        skipSpace()
        guard index == bytes.count else { return error("expected the end of the text after the value, found \(found)") }
        return nil
    }

    /// Scans one value, with the containers inside it, without recursion.
    mutating func scanValues() -> JSONText.SyntaxError? {
        while true {
            // A value is expected here.
            skipSpace()
            guard let byte = current else { return error("the text ends where a value is expected") }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = byte == UInt8(ascii: "{")
                guard open.count < maximumDepth else {
                    return error("lists and objects are nested deeper than the limit of \(maximumDepth) levels")
                }
                open.append(isObject)
                index += 1
                skipSpace()
                if current == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    open.removeLast()
                } else {
                    if isObject, let problem = scanKey() { return problem }
                    continue
                }
            case UInt8(ascii: "\""):
                if let problem = scanString() { return problem }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if let problem = scanNumber() { return problem }
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                if let problem = scanLiteral() { return problem }
            default:
                return error("expected a value, found \(found)")
            }
            // A value ended: close containers or go to the next element.
            while true {
                guard let isObject = open.last else { return nil }
                skipSpace()
                let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if current == UInt8(ascii: ",") {
                    index += 1
                    if isObject, let problem = scanKey() { return problem }
                    break
                }
                guard current == close else {
                    if current == nil { return error("the text ends inside \(isObject ? "an object" : "a list")") }
                    return error("expected ',' or '\(Character(Unicode.Scalar(close)))', found \(found)")
                }
                index += 1
                open.removeLast()
            }
        }
    }

    /// A member's key and the colon after it.
    mutating func scanKey() -> JSONText.SyntaxError? {
        skipSpace()
        guard current == UInt8(ascii: "\"") else { return error("expected a key in double quotes, found \(found)") }
        if let problem = scanString() { return problem }
        skipSpace()
        guard current == UInt8(ascii: ":") else { return error("expected ':' after a key, found \(found)") }
        index += 1
        return nil
    }

    mutating func scanLiteral() -> JSONText.SyntaxError? {
        for word in ["true", "false", "null"] {
            let utf8 = Array(word.utf8)
            if bytes.count - index >= utf8.count, Array(bytes[index..<index + utf8.count]) == utf8 {
                index += utf8.count
                return nil
            }
        }
        return error("expected a value, found \(found)")
    }

    mutating func scanNumber() -> JSONText.SyntaxError? {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - first
        }
        var invalid = false
        if current == UInt8(ascii: "-") { index += 1 }
        let leadingZero = current == UInt8(ascii: "0")
        let whole = digits()
        if whole == 0 || (leadingZero && whole > 1) { invalid = true }
        var simple = true
        if current == UInt8(ascii: ".") {
            index += 1
            if digits() == 0 { invalid = true }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            simple = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            if digits() == 0 { invalid = true }
        }
        // Letters and dots straight after a number belong to it in messages.
        while let byte = current,
            byte == UInt8(ascii: ".") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
                || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
        {
            invalid = true
            index += 1
        }
        // Only an exponent or a very long number can overflow or underflow a
        // double; the text of others is never made.
        guard invalid || !simple || index - start > 300 else { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if invalid { return error("\(Excerpt.quoted(text)) is not a number", at: start) }
        let value = Double(text) ?? .infinity
        let hasNonZeroDigit = text.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            .contains { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }
        if !value.isFinite || (value == 0 && hasNonZeroDigit) {
            return error("the number \(Excerpt.quoted(text)) is out of range", at: start)
        }
        return nil
    }

    /// A string: escapes, no raw control characters, valid UTF-8, paired surrogates.
    mutating func scanString() -> JSONText.SyntaxError? {
        let start = index
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return nil
            case UInt8(ascii: "\\"):
                if let problem = scanEscape() { return problem }
            case 0..<0x20:
                return error("a string holds a raw control character (\(found)); write it as an escape such as \\n or \\u0009")
            case 0x80...:
                guard let length = validUTF8Length(at: index) else { return error("a string holds bytes that are not UTF-8") }
                index += length
            default:
                index += 1
            }
        }
        return error("a string is not closed: the text ends before its closing '\"'", at: start)
    }

    mutating func scanEscape() -> JSONText.SyntaxError? {
        let escapeStart = index
        index += 1
        guard let byte = current else { return error("the text ends inside an escape") }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 1
            return nil
        case UInt8(ascii: "u"):
            index += 1
            guard let unit = hex4() else { return error("'\\u' must be followed by four hexadecimal digits", at: escapeStart) }
            if (0xDC00...0xDFFF).contains(unit) {
                return error("the escape \\u\(String(unit, radix: 16)) is half of a character (a lone low surrogate)", at: escapeStart)
            }
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    return error(
                        "the escape \\u\(String(unit, radix: 16)) is half of a character (a high surrogate without its low half)",
                        at: escapeStart)
                }
                index += 2
                guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else {
                    return error(
                        "the escape \\u\(String(unit, radix: 16)) is not followed by the low half of its character", at: escapeStart)
                }
            }
            return nil
        default:
            return error(
                "\(found) cannot follow '\\' in a string; the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", at: escapeStart)
        }
    }

    mutating func hex4() -> Int? {
        guard bytes.count - index >= 4 else { return nil }
        var value = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte) - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte) - 0x61 + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte) - 0x41 + 10
            default: return nil
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at `position`, or nil.
    func validUTF8Length(at position: Int) -> Int? {
        let lead = bytes[position]
        let length: Int
        var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return nil
        }
        guard bytes.count - position >= length else { return nil }
        let second = bytes[position + 1]
        guard second >= lower, second <= upper else { return nil }
        for offset in 2..<max(2, length) where bytes[position + offset] & 0xC0 != 0x80 { return nil }
        return length
    }
}
