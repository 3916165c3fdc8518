/// One gesture, or one step of a gesture, that ``GestureEngine`` reports.
///
/// Continuous gestures (swipe, pinch, hold) come as a `begin`, any number of
/// `update`s and exactly one `end`, whose `cancelled` says whether it
/// completed. Taps, strokes and sequences have no duration: one event with no
/// phase. Its JSON form is the output contract of `gestures replay`, one
/// object per line with snake_case keys, absent values left out:
///
///     {"type":"swipe","phase":"end","time_ms":412,"fingers":3,"cancelled":false,
///      "direction":"left","dx_mm":-31.5,"dy_mm":1.2}
public struct GestureEvent: Hashable, Sendable {
    /// What kind of gesture this is.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        case swipe, pinch, hold, tap, stroke, sequence
    }

    /// Where a continuous gesture is.
    public enum Phase: String, Hashable, Sendable, Codable, CaseIterable {
        case begin, update, end
    }

    /// The edge of the surface a swipe started from.
    public enum Edge: String, Hashable, Sendable, Codable, CaseIterable {
        case top, bottom, left, right
    }

    /// The kind of gesture (the contract's `type`).
    public var type: Kind
    /// Begin, update or end; `nil` for a tap, stroke or sequence.
    public var phase: Phase?
    /// The time of the frame (or timer) that produced the event.
    public var time: Duration
    /// The number of fingers (palms not counted).
    public var fingers: Int
    /// On ends: whether the gesture was cancelled rather than completed.
    public var cancelled: Bool?
    /// Swipe updates and ends: the direction of the whole displacement, or
    /// `nil` when it is ambiguous.
    public var direction: SwipeDirection?
    /// Swipe updates and ends: the horizontal movement so far, in millimetres.
    public var dxMillimeters: Double?
    /// Swipe updates and ends: the vertical movement so far, in millimetres
    /// (positive is down).
    public var dyMillimeters: Double?
    /// Swipes that started inside an edge zone: that edge.
    public var edge: Edge?
    /// Pinch updates and ends: the spread relative to the start.
    public var scale: Double?
    /// Pinch updates and ends: the rotation since the start in degrees,
    /// clockwise positive.
    public var angleDegrees: Double?
    /// Strokes: the name of the template that matched.
    public var template: String?
    /// Strokes: the recognizer's score in 0...1.
    public var score: Double?
    /// Sequences: the name of the sequence.
    public var name: String?

    /// An event of `type` at `time` with `fingers`; the other fields are set
    /// by the caller as the gesture needs.
    public init(
        type: Kind, phase: Phase? = nil, time: Duration, fingers: Int,
        cancelled: Bool? = nil, direction: SwipeDirection? = nil,
        dxMillimeters: Double? = nil, dyMillimeters: Double? = nil, edge: Edge? = nil,
        scale: Double? = nil, angleDegrees: Double? = nil,
        template: String? = nil, score: Double? = nil, name: String? = nil
    ) {
        self.type = type
        self.phase = phase
        self.time = time
        self.fingers = fingers
        self.cancelled = cancelled
        self.direction = direction
        self.dxMillimeters = dxMillimeters
        self.dyMillimeters = dyMillimeters
        self.edge = edge
        self.scale = scale
        self.angleDegrees = angleDegrees
        self.template = template
        self.score = score
        self.name = name
    }

    /// Whether this event completes a gesture: an end or a single event.
    public var isCompletion: Bool { phase == nil || phase == .end }

    /// The time in milliseconds, as the contract's `time_ms` gives it.
    public var timeMilliseconds: Double { Self.milliseconds(time) }

    static func milliseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }
}

extension GestureEvent: Codable {
    /// The contract's keys, in the order ``jsonLine`` writes them.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case type, phase
        case timeMilliseconds = "time_ms"
        case fingers, cancelled, direction
        case dxMillimeters = "dx_mm"
        case dyMillimeters = "dy_mm"
        case edge, scale
        case angleDegrees = "angle_degrees"
        case template, score, name
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        // Any time an event can carry (Int64 microseconds) fits; no value traps.
        guard let milliseconds = try c.decodeNumber(forKey: .timeMilliseconds, in: NumberRange(-9.2e15...9.2e15)) else {
            throw InvalidValue(codingPath: c.codingPath + [CodingKeys.timeMilliseconds], message: "is required")
        }
        self.init(
            type: try c.decode(Kind.self, forKey: .type),
            phase: try c.decodeIfPresent(Phase.self, forKey: .phase),
            // Whole nanoseconds while they fit in Int64 (exact round trips), else as a Double.
            time: abs(milliseconds) < 9e12 ? .nanoseconds(Int64((milliseconds * 1_000_000).rounded())) : .milliseconds(milliseconds),
            fingers: try c.decode(Int.self, forKey: .fingers),
            cancelled: try c.decodeIfPresent(Bool.self, forKey: .cancelled),
            direction: try c.decodeIfPresent(SwipeDirection.self, forKey: .direction),
            dxMillimeters: try c.decodeIfPresent(Double.self, forKey: .dxMillimeters),
            dyMillimeters: try c.decodeIfPresent(Double.self, forKey: .dyMillimeters),
            edge: try c.decodeIfPresent(Edge.self, forKey: .edge),
            scale: try c.decodeIfPresent(Double.self, forKey: .scale),
            angleDegrees: try c.decodeIfPresent(Double.self, forKey: .angleDegrees),
            template: try c.decodeIfPresent(String.self, forKey: .template),
            score: try c.decodeIfPresent(Double.self, forKey: .score),
            name: try c.decodeIfPresent(String.self, forKey: .name))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encodeIfPresent(phase, forKey: .phase)
        try c.encode(Self.rounded(timeMilliseconds), forKey: .timeMilliseconds)
        try c.encode(fingers, forKey: .fingers)
        try c.encodeIfPresent(cancelled, forKey: .cancelled)
        try c.encodeIfPresent(direction, forKey: .direction)
        try c.encodeIfPresent(dxMillimeters.map(Self.rounded), forKey: .dxMillimeters)
        try c.encodeIfPresent(dyMillimeters.map(Self.rounded), forKey: .dyMillimeters)
        try c.encodeIfPresent(edge, forKey: .edge)
        try c.encodeIfPresent(scale.map(Self.rounded), forKey: .scale)
        try c.encodeIfPresent(angleDegrees.map(Self.rounded), forKey: .angleDegrees)
        try c.encodeIfPresent(template, forKey: .template)
        try c.encodeIfPresent(score.map(Self.rounded), forKey: .score)
        try c.encodeIfPresent(name, forKey: .name)
    }

    /// `value` rounded to a thousandth, so output does not depend on the last
    /// bits of floating-point arithmetic.
    static func rounded(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        let result = (value * 1000).rounded() / 1000
        return result == 0 ? 0 : result
    }
}

extension GestureEvent {
    /// The event as one line of JSON in the contract's key order, numbers
    /// rounded to a thousandth, absent values left out:
    ///
    ///     GestureEvent(type: .tap, time: .milliseconds(120), fingers: 3).jsonLine
    ///     // {"type":"tap","time_ms":120,"fingers":3}
    public var jsonLine: String {
        var fields: [String] = []
        func add(_ key: CodingKeys, _ value: String?) {
            if let value { fields.append("\"\(key.rawValue)\":\(value)") }
        }
        add(.type, JSONText.quoted(type.rawValue))
        add(.phase, phase.map { JSONText.quoted($0.rawValue) })
        add(.timeMilliseconds, Self.number(timeMilliseconds))
        add(.fingers, String(fingers))
        add(.cancelled, cancelled.map { $0 ? "true" : "false" })
        add(.direction, direction.map { JSONText.quoted($0.rawValue) })
        add(.dxMillimeters, dxMillimeters.map(Self.number))
        add(.dyMillimeters, dyMillimeters.map(Self.number))
        add(.edge, edge.map { JSONText.quoted($0.rawValue) })
        add(.scale, scale.map(Self.number))
        add(.angleDegrees, angleDegrees.map(Self.number))
        add(.template, template.map(JSONText.quoted))
        add(.score, score.map(Self.number))
        add(.name, name.map(JSONText.quoted))
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// `value` rounded to a thousandth, without a fraction when whole.
    static func number(_ value: Double) -> String {
        let value = rounded(value)
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
