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
        var line = JSONLineFields<JSONKey>()
        line.add(.type, text: type.rawValue)
        line.add(.phase, text: phase?.rawValue)
        line.add(.timeMilliseconds, milliseconds: time)
        // A mouse drew it: its source instead of a finger count (touch lines have neither key changed).
        line.add(.source, text: source == .touch ? nil : source.rawValue)
        line.add(.fingers, json: source == .touch ? String(fingers) : nil)
        line.add(.cancelled, json: cancelled.map { $0 ? "true" : "false" })
        line.add(.direction, text: direction?.rawValue)
        line.add(.dxMillimeters, number: dxMillimeters)
        line.add(.dyMillimeters, number: dyMillimeters)
        line.add(.edge, text: edge?.rawValue)
        line.add(.scale, number: scale)
        line.add(.angleDegrees, number: angleDegrees)
        line.add(.template, text: template)
        line.add(.score, number: score)
        line.add(.name, text: name)
        return line.text
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
        self = try Self.read(jsonLine: jsonLine)
    }
}

extension GestureEvent: JSONLineValue {
    /// Reads a gesture line's fields.
    init(line c: KeyedDecodingContainer<JSONKey>) throws {
        // Any time an event can carry (Int64 microseconds) fits; no value traps.
        let time = try c.decodeMilliseconds(forKey: .timeMilliseconds, required: true)!
        let source = try c.decodeIfPresent(GestureEvent.Source.self, forKey: .source) ?? .touch
        self.init(
            type: try c.decode(GestureEvent.Kind.self, forKey: .type),
            phase: try c.decodeIfPresent(GestureEvent.Phase.self, forKey: .phase),
            time: time,
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
