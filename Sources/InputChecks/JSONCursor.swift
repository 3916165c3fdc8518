import Foundation

/// Walks JSON text value by value, without building a tree: the reader for
/// files whose memory must stay proportional to what they accept (template
/// libraries and stroke files, whose points would otherwise cost a list and
/// a decoder node each: 460 bytes a point instead of 16).
///
/// A cursor exists only inside ``JSONText/read(_:maximumDepth:_:)``, which
/// checks the syntax first (``JSONText/checkSyntax(_:maximumDepth:)``), so
/// the cursor reads text known to be one well-formed value: it only has to
/// say where a value is not of the kind asked for.
///
///     let total = try JSONText.read(data) { cursor throws(JSONText.ReadError) in
///         var sum = 0.0
///         try cursor.readList(at: "") { cursor, index throws(JSONText.ReadError) in
///             sum += try cursor.readNumber(at: "[\(index)]")
///         }
///         return sum
///     }
///
/// - Complexity: every value is read once, in O(its bytes).
public struct JSONCursor {
    /// The kinds of JSON value.
    public enum Kind: Hashable, Sendable {
        case object, list, string, number, boolean, null

        /// The kind as a phrase for messages: `an object`.
        var phrase: String {
            switch self {
            case .object: "an object"
            case .list: "a list"
            case .string: "a string"
            case .number: "a number"
            case .boolean: "true or false"
            case .null: "null"
            }
        }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index: Int

    fileprivate init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        index = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    private mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    private var current: UInt8 { index < bytes.count ? bytes[index] : 0 }

    /// The kind of the value at the cursor.
    public mutating func kind() -> Kind {
        skipSpace()
        switch current {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .list
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
        case UInt8(ascii: "n"): return .null
        default: return .number
        }
    }

    private mutating func expect(_ wanted: Kind, at path: () -> String) throws(JSONText.ReadError) {
        let found = kind()
        guard found == wanted else {
            throw .value(InvalidValue(path: path(), message: "must be \(wanted.phrase), not \(found.phrase)"))
        }
    }

    /// Reads the object at the cursor, calling `member` with each key; it must read or skip the value.
    ///
    /// - Throws: a value error at `path` when the value is not an object, or what `member` throws.
    public mutating func readObject(
        at path: @autoclosure () -> String,
        _ member: (inout JSONCursor, String) throws(JSONText.ReadError) -> Void
    ) throws(JSONText.ReadError) {
        try readItems(of: .object, closedBy: UInt8(ascii: "}"), at: path) { cursor, _ throws(JSONText.ReadError) in
            let key = try cursor.readString(at: path(), maximumBytes: .max)
            cursor.skipSpace()
            cursor.index += 1  // ':'
            try member(&cursor, key)
        }
    }

    /// Reads the list at the cursor, calling `element` with each index; it must read or skip the value.
    ///
    /// - Throws: a value error at `path` when the value is not a list, or what `element` throws.
    public mutating func readList(
        at path: @autoclosure () -> String,
        _ element: (inout JSONCursor, Int) throws(JSONText.ReadError) -> Void
    ) throws(JSONText.ReadError) {
        try readItems(of: .list, closedBy: UInt8(ascii: "]"), at: path, element)
    }

    /// Reads the object or list at the cursor, calling `item` with each
    /// member's or element's index (counted from 0), at its first byte.
    private mutating func readItems(
        of kind: Kind, closedBy closing: UInt8, at path: () -> String,
        _ item: (inout JSONCursor, Int) throws(JSONText.ReadError) -> Void
    ) throws(JSONText.ReadError) {
        try expect(kind, at: path)
        index += 1
        skipSpace()
        if current == closing { index += 1; return }
        var count = 0
        while index < bytes.count {
            skipSpace()
            try item(&self, count)
            count += 1
            skipSpace()
            let separator = current
            index += 1
            if separator != UInt8(ascii: ",") { return }
        }
    }

    /// Reads the number at the cursor (the syntax check made sure it is a finite double).
    public mutating func readNumber(at path: @autoclosure () -> String) throws(JSONText.ReadError) -> Double {
        try expect(.number, at: path)
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                index += 1
            default:
                return try number(from: start, at: path)
            }
        }
        return try number(from: start, at: path)
    }

    private func number(from start: Int, at path: () -> String) throws(JSONText.ReadError) -> Double {
        // Up to 15 bytes a string is stored inline: no allocation for most numbers.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw .value(InvalidValue(path: path(), message: "must be a finite number"))
        }
        return value
    }

    /// Reads `true` or `false` at the cursor.
    public mutating func readBoolean(at path: @autoclosure () -> String) throws(JSONText.ReadError) -> Bool {
        try expect(.boolean, at: path)
        let value = current == UInt8(ascii: "t")
        index += value ? 4 : 5
        return value
    }

    /// Whether the value at the cursor is null; if so, it is read.
    public mutating func readNull() -> Bool {
        guard kind() == .null else { return false }
        index += 4
        return true
    }

    /// Reads the string at the cursor, which may take at most `maximumBytes`
    /// bytes in the text (escapes counted as written), so that a long string
    /// is refused before it is made.
    public mutating func readString(
        at path: @autoclosure () -> String, maximumBytes: Int
    ) throws(JSONText.ReadError) -> String {
        try expect(.string, at: path)
        index += 1
        let start = index
        var escaped = false
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\") { escaped = true; index += 1 }
            index += 1
        }
        let end = min(index, bytes.count)
        index += 1
        guard end - start <= maximumBytes else {
            throw .value(InvalidValue(path: path(), message: "is longer than the limit of \(maximumBytes) bytes"))
        }
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<end])
        return escaped ? Self.unescaped(raw) : String(decoding: raw, as: UTF8.self)
    }

    /// The text of a string body with escapes (already checked by the syntax check).
    private static func unescaped(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        var plain: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: plain, as: UTF8.self).unicodeScalars)
            plain.removeAll(keepingCapacity: true)
        }
        func hex(_ at: Int) -> UInt32? {
            guard at + 4 <= raw.count else { return nil }
            return UInt32(String(decoding: UnsafeBufferPointer(rebasing: raw[at..<at + 4]), as: UTF8.self), radix: 16)
        }
        var i = 0
        while i < raw.count {
            guard raw[i] == UInt8(ascii: "\\"), i + 1 < raw.count else { plain.append(raw[i]); i += 1; continue }
            let letter = raw[i + 1]
            i += 2
            let simple: UInt8? =
                switch letter {
                case UInt8(ascii: "n"): 0x0A
                case UInt8(ascii: "t"): 0x09
                case UInt8(ascii: "r"): 0x0D
                case UInt8(ascii: "b"): 0x08
                case UInt8(ascii: "f"): 0x0C
                case UInt8(ascii: "u"): nil
                default: letter
                }
            if let simple { plain.append(simple); continue }
            guard var unit = hex(i) else { continue }
            i += 4
            if (0xD800...0xDBFF).contains(unit), i + 6 <= raw.count, let low = hex(i + 2) {
                unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                i += 6
            }
            flush()
            scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
        }
        flush()
        return String(scalars)
    }

    /// Skips the value at the cursor, with everything inside it.
    public mutating func skipValue() {
        var depth = 0
        repeat {
            skipSpace()
            guard index < bytes.count else { return }
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                index += 1
            case UInt8(ascii: "\""):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                index += 1
            default:
                // A number or a literal: up to the next delimiter.
                while index < bytes.count, !Self.delimiters.contains(bytes[index]) { index += 1 }
            }
        } while depth > 0
    }

    /// After a value inside a list or object: skips a `,` and the value after
    /// it and returns true, or returns false at the list's or object's end
    /// (which it leaves for the reader of the container). For counting the
    /// rest of a list without reading it.
    public mutating func skipSeparatorAndValue() -> Bool {
        skipSpace()
        guard current == UInt8(ascii: ",") else { return false }
        index += 1
        skipValue()
        return true
    }

    private static let delimiters: Set<UInt8> = [
        UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":"), 0x20, 0x0A, 0x0D, 0x09,
    ]
}

extension JSONText {
    /// Checks the syntax of `data` (``checkSyntax(_:maximumDepth:)``) and then
    /// hands a ``JSONCursor`` at its value to `body`, which reads what it
    /// needs and checks its limits as it goes.
    ///
    /// - Throws: a syntax error with line and column, or what `body` throws.
    public static func read<T>(
        _ data: Data, maximumDepth: Int = maximumDepth, _ body: (inout JSONCursor) throws(ReadError) -> T
    ) throws(ReadError) -> T {
        do { try checkSyntax(data, maximumDepth: maximumDepth) } catch { throw .syntax(error) }
        let outcome: Result<T, ReadError> = data.withUnsafeBytes { raw in
            var cursor = JSONCursor(bytes: raw.bindMemory(to: UInt8.self))
            do throws(ReadError) { return .success(try body(&cursor)) } catch { return .failure(error) }
        }
        return try outcome.get()
    }
}
