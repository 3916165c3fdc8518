import Foundation
import GestureRecognition
import InputChecks
import TouchInput

/// A mouse decision as a line of `gestures replay`'s output, beside the
/// gesture lines: its first key is `mouse` (the kind) where a gesture's is
/// `type`, then `time_ms` and, where they apply, `length_counts`, `held_ms`,
/// `template`, `score` and `reason`; numbers rounded as gesture lines are:
///
///     {"mouse":"click","time_ms":120,"length_counts":3,"reason":"moved 3 of the 20 counts a stroke needs: passed to the desktop at the release"}
extension MouseDecision {
    /// The keys, in the order ``jsonLine`` writes them.
    enum JSONKey: String, CodingKey, CaseIterable {
        case mouse
        case timeMilliseconds = "time_ms"
        case lengthCounts = "length_counts"
        case heldMilliseconds = "held_ms"
        case template, score, reason
    }

    /// The decision as one line of JSON (its points are left out).
    public var jsonLine: String {
        var line = JSONLineFields<JSONKey>()
        line.add(.mouse, text: kind.rawValue)
        line.add(.timeMilliseconds, milliseconds: time)
        line.add(.lengthCounts, number: lengthCounts)
        line.add(.heldMilliseconds, milliseconds: held)
        line.add(.template, text: template)
        line.add(.score, number: score)
        line.add(.reason, text: reason)
        return line.text
    }

    /// Reads one line of the format (keys in any order, unknown keys ignored).
    ///
    /// - Throws: `JSONText.ReadError` when the line is not JSON, or `mouse`,
    ///   `time_ms` or `reason` is missing or of the wrong type.
    public init(jsonLine: String) throws(JSONText.ReadError) {
        self = try Self.read(jsonLine: jsonLine)
    }
}

extension MouseDecision: JSONLineValue {
    /// Reads a decision line's fields.
    init(line c: KeyedDecodingContainer<JSONKey>) throws {
        guard let kind = MouseDecision.Kind(rawValue: try c.decode(String.self, forKey: .mouse)) else {
            throw InvalidValue(
                codingPath: c.codingPath + [JSONKey.mouse],
                message: "is not one of \(MouseDecision.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.init(
            kind: kind, time: try c.decodeMilliseconds(forKey: .timeMilliseconds, required: true)!,
            lengthCounts: try c.decodeIfPresent(Double.self, forKey: .lengthCounts),
            held: try c.decodeMilliseconds(forKey: .heldMilliseconds, in: NumberRange(0...9.2e15)),
            template: try c.decodeIfPresent(String.self, forKey: .template),
            score: try c.decodeIfPresent(Double.self, forKey: .score),
            reason: try c.decode(String.self, forKey: .reason))
    }
}
