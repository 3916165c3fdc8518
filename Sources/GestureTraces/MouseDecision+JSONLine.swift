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
        var fields: [String] = []
        func add(_ key: JSONKey, _ value: String?) {
            if let value { fields.append("\"\(key.rawValue)\":\(value)") }
        }
        let number = GestureEvent.decimalText
        add(.mouse, JSONText.quoted(kind.rawValue))
        add(.timeMilliseconds, number(Self.milliseconds(time)))
        add(.lengthCounts, lengthCounts.map(number))
        add(.heldMilliseconds, held.map { number(Self.milliseconds($0)) })
        add(.template, template.map(JSONText.quoted))
        add(.score, score.map(number))
        add(.reason, JSONText.quoted(reason))
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Reads one line of the format (keys in any order, unknown keys ignored).
    ///
    /// - Throws: `JSONText.ReadError` when the line is not JSON, or `mouse`,
    ///   `time_ms` or `reason` is missing or of the wrong type.
    public init(jsonLine: String) throws(JSONText.ReadError) {
        self = try JSONText.decode(DecisionLine.self, from: Data(jsonLine.utf8)).decision
    }
}

/// A decision line, decoded.
private struct DecisionLine: Decodable {
    var decision: MouseDecision

    init(from decoder: any Decoder) throws {
        typealias Key = MouseDecision.JSONKey
        let c = try decoder.container(keyedBy: Key.self)
        guard let kind = MouseDecision.Kind(rawValue: try c.decode(String.self, forKey: .mouse)) else {
            throw InvalidValue(
                codingPath: c.codingPath + [Key.mouse],
                message: "is not one of \(MouseDecision.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard let milliseconds = try c.decodeNumber(forKey: .timeMilliseconds, in: NumberRange(-9.2e15...9.2e15)) else {
            throw InvalidValue(codingPath: c.codingPath + [Key.timeMilliseconds], message: "is required")
        }
        let held = try c.decodeNumber(forKey: .heldMilliseconds, in: NumberRange(0...9.2e15))
        decision = MouseDecision(
            kind: kind, time: .nanoseconds(Int64((milliseconds * 1_000_000).rounded())),
            lengthCounts: try c.decodeIfPresent(Double.self, forKey: .lengthCounts),
            held: held.map { .nanoseconds(Int64(($0 * 1_000_000).rounded())) },
            template: try c.decodeIfPresent(String.self, forKey: .template),
            score: try c.decodeIfPresent(Double.self, forKey: .score),
            reason: try c.decode(String.self, forKey: .reason))
    }
}
