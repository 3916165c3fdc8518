import Foundation
import GestureRecognition
import InputChecks

/// The fields of one line of the replay output, written in the order they
/// are added: what gesture lines (``GestureEvent/jsonLine``) and mouse
/// decision lines (`MouseDecision.jsonLine`) are both written with. Absent
/// values are left out, numbers are rounded to a thousandth
/// (`GestureEvent.decimalText(_:)`), times are in milliseconds.
///
///     var line = JSONLineFields<GestureEvent.JSONKey>()
///     line.add(.type, text: "tap")
///     line.add(.timeMilliseconds, milliseconds: .milliseconds(120))
///     line.text   // {"type":"tap","time_ms":120}
struct JSONLineFields<Key: CodingKey> {
    private var fields: [String] = []

    /// Adds a value already written as JSON; nil adds nothing.
    mutating func add(_ key: Key, json value: String?) {
        if let value { fields.append("\"\(key.stringValue)\":\(value)") }
    }

    /// Adds a string, quoted; nil adds nothing.
    mutating func add(_ key: Key, text: String?) { add(key, json: text.map(JSONText.quoted)) }

    /// Adds a number rounded to a thousandth; nil adds nothing.
    mutating func add(_ key: Key, number: Double?) { add(key, json: number.map(GestureEvent.decimalText)) }

    /// Adds a duration as its milliseconds; nil adds nothing.
    mutating func add(_ key: Key, milliseconds: Duration?) { add(key, number: milliseconds.map(GestureEvent.milliseconds)) }

    /// The line: `{` the fields `}`.
    var text: String { "{" + fields.joined(separator: ",") + "}" }
}

extension KeyedDecodingContainer {
    /// A duration written in milliseconds at `key` (a line's `time_ms`,
    /// `held_ms`): whole nanoseconds while they fit in Int64, so that times
    /// round-trip exactly, else as a Double; any value a line can carry
    /// (up to 9.2e15 ms either way, or `range`) fits, and none traps.
    ///
    /// - Throws: `InvalidValue` ("is required") when `required` and absent;
    ///   the range's error when the value is out of `range` or no number.
    func decodeMilliseconds(forKey key: Key, in range: NumberRange = NumberRange(-9.2e15...9.2e15), required: Bool = false)
        throws -> Duration?
    {
        guard let milliseconds = try decodeNumber(forKey: key, in: range) else {
            if required { throw InvalidValue(codingPath: codingPath + [key], message: "is required") }
            return nil
        }
        return abs(milliseconds) < 9e12 ? .nanoseconds(Int64((milliseconds * 1_000_000).rounded())) : .milliseconds(milliseconds)
    }
}

/// A value that is one line of the replay output (a gesture, a mouse
/// decision), read from the keyed container of its line: the one way such
/// lines are decoded, checked first by `JSONText.decode`.
protocol JSONLineValue {
    /// The line's keys.
    associatedtype JSONKey: CodingKey
    /// Reads the value from its line's fields.
    init(line: KeyedDecodingContainer<JSONKey>) throws
}

extension JSONLineValue {
    /// Reads one line of JSON (keys in any order, unknown keys ignored).
    ///
    /// - Throws: `JSONText.ReadError` when the line is not JSON, or a field is
    ///   missing, of the wrong type or out of range, with where.
    static func read(jsonLine: String) throws(JSONText.ReadError) -> Self {
        try JSONText.decode(DecodedLine<Self>.self, from: Data(jsonLine.utf8)).value
    }
}

/// The `Decodable` a ``JSONLineValue`` is read through.
private struct DecodedLine<Value: JSONLineValue>: Decodable {
    var value: Value

    init(from decoder: any Decoder) throws {
        value = try Value(line: decoder.container(keyedBy: Value.JSONKey.self))
    }
}
