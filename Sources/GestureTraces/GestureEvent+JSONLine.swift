import Foundation
import GestureRecognition
import InputChecks

/// The replay output format: one `GestureEvent` per line of JSON, the
/// output contract of `gestures replay` and `gestures watch` and the format
/// of every `Recordings/**/*.expected.jsonl`.
///
/// Keys are snake_case in a fixed order, numbers are rounded to a thousandth
/// (``GestureEvent/decimalText(_:)``), and absent values are left out:
///
///     {"type":"swipe","phase":"end","time_ms":412,"fingers":3,"cancelled":false,
///      "direction":"left","dx_mm":-31.5,"dy_mm":1.2}
extension GestureEvent {
    /// The contract's keys, in the order ``jsonLine`` writes them.
    enum JSONKey: String, CodingKey, CaseIterable {
        case type, phase
        case timeMilliseconds = "time_ms"
        case source, fingers, cancelled, direction
        case dxMillimeters = "dx_mm"
        case dyMillimeters = "dy_mm"
        case edge, scale
        case angleDegrees = "angle_degrees"
        case template, score, name
    }

    /// The event as one line of JSON in the contract's key order, numbers
    /// rounded to a thousandth, absent values left out:
    ///
    ///     GestureEvent(type: .tap, time: .milliseconds(120), fingers: 3).jsonLine
    ///     // {"type":"tap","time_ms":120,"fingers":3}
    public var jsonLine: String {
        var fields: [String] = []
        func add(_ key: JSONKey, _ value: String?) {
            if let value { fields.append("\"\(key.rawValue)\":\(value)") }
        }
        let number = GestureEvent.decimalText
        add(.type, JSONText.quoted(type.rawValue))
        add(.phase, phase.map { JSONText.quoted($0.rawValue) })
        add(.timeMilliseconds, number(timeMilliseconds))
        // A mouse drew it: its source instead of a finger count (touch lines have neither key changed).
        add(.source, source == .touch ? nil : JSONText.quoted(source.rawValue))
        add(.fingers, source == .touch ? String(fingers) : nil)
        add(.cancelled, cancelled.map { $0 ? "true" : "false" })
        add(.direction, direction.map { JSONText.quoted($0.rawValue) })
        add(.dxMillimeters, dxMillimeters.map(number))
        add(.dyMillimeters, dyMillimeters.map(number))
        add(.edge, edge.map { JSONText.quoted($0.rawValue) })
        add(.scale, scale.map(number))
        add(.angleDegrees, angleDegrees.map(number))
        add(.template, template.map(JSONText.quoted))
        add(.score, score.map(number))
        add(.name, name.map(JSONText.quoted))
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Reads one line of the format (keys in any order, unknown keys
    /// ignored); `time_ms` is taken to the nearest nanosecond.
    ///
    ///     try GestureEvent(jsonLine: #"{"type":"tap","time_ms":120,"fingers":3}"#).fingers   // 3
    ///
    /// - Throws: `JSONText.ReadError` when the line is not JSON, or a required
    ///   key (`type`, `time_ms`, `fingers`) is missing, of the wrong type or
    ///   out of range; its description says which and where in one phrase.
    public init(jsonLine: String) throws(JSONText.ReadError) {
        self = try JSONText.decode(JSONLine.self, from: Data(jsonLine.utf8)).event
    }
}

/// A line of the format, decoded.
private struct JSONLine: Decodable {
    var event: GestureEvent

    init(from decoder: any Decoder) throws {
        typealias Key = GestureEvent.JSONKey
        let c = try decoder.container(keyedBy: Key.self)
        // Any time an event can carry (Int64 microseconds) fits; no value traps.
        guard let milliseconds = try c.decodeNumber(forKey: .timeMilliseconds, in: NumberRange(-9.2e15...9.2e15)) else {
            throw InvalidValue(codingPath: c.codingPath + [Key.timeMilliseconds], message: "is required")
        }
        let source = try c.decodeIfPresent(GestureEvent.Source.self, forKey: .source) ?? .touch
        event = GestureEvent(
            type: try c.decode(GestureEvent.Kind.self, forKey: .type),
            phase: try c.decodeIfPresent(GestureEvent.Phase.self, forKey: .phase),
            // Whole nanoseconds while they fit in Int64 (exact round trips), else as a Double.
            time: abs(milliseconds) < 9e12 ? .nanoseconds(Int64((milliseconds * 1_000_000).rounded())) : .milliseconds(milliseconds),
            fingers: source == .touch ? try c.decode(Int.self, forKey: .fingers) : try c.decodeIfPresent(Int.self, forKey: .fingers) ?? 0,
            cancelled: try c.decodeIfPresent(Bool.self, forKey: .cancelled),
            direction: try c.decodeIfPresent(SwipeDirection.self, forKey: .direction),
            dxMillimeters: try c.decodeIfPresent(Double.self, forKey: .dxMillimeters),
            dyMillimeters: try c.decodeIfPresent(Double.self, forKey: .dyMillimeters),
            edge: try c.decodeIfPresent(GestureEvent.Edge.self, forKey: .edge),
            scale: try c.decodeIfPresent(Double.self, forKey: .scale),
            angleDegrees: try c.decodeIfPresent(Double.self, forKey: .angleDegrees),
            template: try c.decodeIfPresent(String.self, forKey: .template),
            score: try c.decodeIfPresent(Double.self, forKey: .score),
            name: try c.decodeIfPresent(String.self, forKey: .name),
            source: source)
    }
}
