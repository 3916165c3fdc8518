/// The values a number written in a configuration may take, and the phrase
/// that says so: every reader of a configuration checks its numbers with one
/// of these, so a value out of range gets the same message wherever it is read.
///
///     let count = NumberRange.integers(8...1024)
///     count.contains(100_000_000)   // false
///     count.requirement             // "must be an integer between 8 and 1024"
///     NumberRange(0.5...100).requirement   // "must be a number between 0.5 and 100"
public struct NumberRange: Hashable, Sendable, CustomStringConvertible {
    /// The least value allowed.
    public var minimum: Double
    /// The greatest value allowed.
    public var maximum: Double
    /// Whether only whole numbers are allowed.
    public var wholeNumbers: Bool

    /// Any number in `range`.
    public init(_ range: ClosedRange<Double>) {
        minimum = range.lowerBound
        maximum = range.upperBound
        wholeNumbers = false
    }

    /// Whole numbers in `range`.
    public static func integers(_ range: ClosedRange<Int>) -> NumberRange {
        var result = NumberRange(Double(range.lowerBound)...Double(range.upperBound))
        result.wholeNumbers = true
        return result
    }

    /// Whether `value` is finite, within the range and (for integers) whole.
    public func contains(_ value: Double) -> Bool {
        value.isFinite && value >= minimum && value <= maximum && (!wholeNumbers || value == value.rounded())
    }

    /// `value` as an `Int` when the range holds it and it is a whole number.
    public func integer(_ value: Double) -> Int? {
        guard contains(value), value == value.rounded() else { return nil }
        return Int(exactly: value)
    }

    /// What a value must be: `must be a number between 0.5 and 100`,
    /// `must be an integer between 1 and 5`.
    public var requirement: String {
        "must be \(wholeNumbers ? "an integer" : "a number") between \(Self.format(minimum)) and \(Self.format(maximum))"
    }

    /// `0.5 to 100`.
    public var description: String { "\(Self.format(minimum)) to \(Self.format(maximum))" }

    /// A number as written in messages and documentation: `100`, `0.5`, `1e-06`.
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

/// A decoded value that its type does not accept, said in the project's
/// words with the path of the value: `strokeRecognition.resampleCount: must
/// be an integer between 8 and 1024`.
///
/// Thrown by the `Decodable` initialisers of configuration types (see
/// ``NumberRange``) and by ``JSONText/decode(_:from:maximumDepth:)``, which
/// also turns Foundation's decoding errors into it.
public struct InvalidValue: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where, as `sequences[2].directions[0]`; empty for the whole document.
    public var path: String
    /// What is wrong, as a phrase: `must be one of up, down, left, right`.
    public var message: String

    /// An error at `path` saying `message`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// An error at the coding path `codingPath` saying `message`.
    public init(codingPath: [any CodingKey], message: String) {
        self.init(path: JSONText.keyPath(codingPath), message: message)
    }

    /// The path under `root`: `engine` + `swipeDirection.ways` is `engine.swipeDirection.ways`.
    public func path(under root: String) -> String {
        if path.isEmpty { return root }
        if root.isEmpty { return path }
        return path.hasPrefix("[") ? root + path : root + "." + path
    }

    /// `path: message`, or the message alone for the whole document.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

extension KeyedDecodingContainer {
    /// The number at `key`, or nil when absent or null; anything else that
    /// is not a number in `range` throws ``InvalidValue`` with the range's
    /// ``NumberRange/requirement``.
    public func decodeNumber(forKey key: Key, in range: NumberRange) throws -> Double? {
        let value: Double?
        do { value = try decodeIfPresent(Double.self, forKey: key) } catch {
            throw InvalidValue(codingPath: codingPath + [key], message: range.requirement)
        }
        guard let value else { return nil }
        guard range.contains(value) else { throw InvalidValue(codingPath: codingPath + [key], message: range.requirement) }
        return value
    }

    /// The integer at `key`, or nil when absent or null, checked as ``decodeNumber(forKey:in:)`` checks.
    public func decodeInteger(forKey key: Key, in range: NumberRange) throws -> Int? {
        var whole = range
        whole.wholeNumbers = true
        guard let value = try decodeNumber(forKey: key, in: whole) else { return nil }
        guard let integer = whole.integer(value) else { throw InvalidValue(codingPath: codingPath + [key], message: whole.requirement) }
        return integer
    }

    /// The boolean at `key`, or nil when absent or null.
    public func decodeFlag(forKey key: Key) throws -> Bool? {
        do { return try decodeIfPresent(Bool.self, forKey: key) } catch {
            throw InvalidValue(codingPath: codingPath + [key], message: "must be true or false")
        }
    }

    /// The string at `key`, or nil when absent or null.
    public func decodeText(forKey key: Key) throws -> String? {
        do { return try decodeIfPresent(String.self, forKey: key) } catch {
            throw InvalidValue(codingPath: codingPath + [key], message: "must be a string")
        }
    }
}
