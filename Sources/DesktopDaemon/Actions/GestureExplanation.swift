import GestureRecognition
import GestureTraces
import InputChecks

/// One gesture event and why each binding of its kind did or did not fire:
/// what `gestures run --explain` and `gestures replay --explain` print, as a
/// readable block or as one JSON object a line.
public struct GestureExplanation: Hashable, Sendable {
    /// The event.
    public var event: GestureEvent
    /// The device it came from.
    public var device: InputDevice
    /// The verdicts, in binding order; empty when no binding is of its kind.
    public var verdicts: [BindingVerdict]
    /// Why the device's gestures are not considered at all (the
    /// configuration's `devices` do not take it), or nil.
    public var deviceRejected: String?
    /// For a stroke the stroke rule rejected, the rule's reason (`too close
    /// to v: 0.1476 of the 0.2 margin`); the event is then the stroke as
    /// it would have been, matching no template.
    public var strokeRejected: String?
    /// The window focused when the gesture began, as the matcher saw it
    /// (nil: none known, or no focus source).
    public var focus: FocusedWindow?

    /// An explanation of `event` from `device`.
    public init(
        event: GestureEvent, device: InputDevice, verdicts: [BindingVerdict], deviceRejected: String? = nil,
        strokeRejected: String? = nil, focus: FocusedWindow? = nil
    ) {
        self.event = event
        self.device = device
        self.verdicts = verdicts
        self.deviceRejected = deviceRejected
        self.strokeRejected = strokeRejected
        self.focus = focus
    }

    /// The explanation of a stroke drawn on `device` that the stroke rule
    /// rejected, with the stroke bindings' `verdicts`
    /// (``BindingMatcher/explainRejected(_:from:)``); nil for an accepted stroke.
    public init?(rejected stroke: DrawnStroke, device: InputDevice, verdicts: [BindingVerdict]) {
        guard let rejection = stroke.verdict.rejection else { return nil }
        let event = GestureEvent(type: .stroke, time: stroke.time, fingers: stroke.fingers)
        self.init(event: event, device: device, verdicts: verdicts, strokeRejected: rejection.description)
    }

    /// Whether it is worth printing: every begin, end and single event, and
    /// an update only when a binding fired on it (a swipe has dozens).
    public var isWorthShowing: Bool {
        event.phase != .update || verdicts.contains(where: \.fired)
    }

    /// `510 ms  swipe end  3 fingers  left ... on 'SynPS/2 Synaptics TouchPad'`,
    /// then one indented line per binding.
    public var text: String {
        let focused = focus.map { "  in \($0)" } ?? ""
        var lines = ["\(event.description)  on \(Excerpt.quoted(device.name, limit: 60))\(focused)"]
        if let strokeRejected { lines.append("  the stroke rule rejected it: \(strokeRejected)") }
        if let deviceRejected {
            lines.append("  no binding considers it: \(deviceRejected)")
        } else if verdicts.isEmpty {
            lines.append("  no binding is of this kind (\(event.type.rawValue))")
        }
        lines += verdicts.map { "  \($0)" }
        // Names, patterns and the focused window come from files and other programs: escaped, line by line.
        return lines.map { Excerpt.printable($0) }.joined(separator: "\n")
    }

    /// One JSON object: `{"event":{...},"device":"...","bindings":[{"binding":...,"path":...,"fired":true,"reason":...,"claimed":true,"claim":...}]}`.
    public var jsonLine: String {
        let bindings = verdicts.map { verdict in
            "{\"binding\":\(JSONText.quoted(verdict.binding)),\"path\":\(JSONText.quoted(verdict.path)),\"fired\":\(verdict.fired),"
                + "\"reason\":\(JSONText.quoted(verdict.reason)),\"claimed\":\(verdict.claimed),\"claim\":\(JSONText.quoted(verdict.claimReason))}"
        }
        var line = "{\"event\":\(event.jsonLine),\"device\":\(JSONText.quoted(device.name))"
        if let focus { line += ",\"focus\":\(focus.jsonObject)" }
        if let deviceRejected { line += ",\"not_considered\":\(JSONText.quoted(deviceRejected))" }
        if let strokeRejected { line += ",\"stroke_rejected\":\(JSONText.quoted(strokeRejected))" }
        return line + ",\"bindings\":[\(bindings.joined(separator: ","))]}"
    }
}
