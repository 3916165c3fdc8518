import InputChecks

/// One gesture, or one step of a gesture, that ``GestureEngine`` reports.
///
/// Continuous gestures (swipe, pinch, hold) come as a `begin`, any number of
/// `update`s and exactly one `end`, whose `cancelled` says whether it
/// completed. Taps, strokes and sequences have no duration: one event with no
/// phase. Its JSON form, one object per line, is the output contract of
/// `gestures replay`; GestureTraces writes and reads it (`jsonLine`,
/// `init(jsonLine:)`):
///
///     {"type":"swipe","phase":"end","time_ms":412,"fingers":3,"cancelled":false,
///      "direction":"left","dx_mm":-31.5,"dy_mm":1.2}
public struct GestureEvent: Hashable, Sendable {
    /// What kind of gesture this is.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable, ClosedWord {
        case swipe, pinch, hold, tap, stroke, sequence

        /// The gesture types, as files write them.
        public static let closedWords = ClosedWords("gesture", Kind.self)
    }

    /// Where a continuous gesture is.
    public enum Phase: String, Hashable, Sendable, Codable, CaseIterable, ClosedWord {
        case begin, update, end

        /// The phases, as files write them.
        public static let closedWords = ClosedWords("phase", Phase.self)
    }

    /// What drew a gesture.
    public enum Source: String, Hashable, Sendable, Codable, CaseIterable {
        /// Fingers on a touchpad or touchscreen: ``GestureEvent/fingers`` counts them (1 to 5).
        case touch
        /// A mouse, with its stroke button held: a `stroke` with no fingers
        /// (``GestureEvent/fingers`` is 0 and its JSON line has none).
        case mouse
    }

    /// The edge of the surface a swipe started from.
    public enum Edge: String, Hashable, Sendable, Codable, CaseIterable, ClosedWord {
        case top, bottom, left, right

        /// The edges, as files write them.
        public static let closedWords = ClosedWords("edge", Edge.self)
    }

    /// The kind of gesture (the contract's `type`).
    public var type: Kind
    /// Begin, update or end; `nil` for a tap, stroke or sequence.
    public var phase: Phase?
    /// The time of the frame (or timer) that produced the event.
    public var time: Duration
    /// The number of fingers (palms not counted), 1 to 5 for touch; 0 when
    /// ``source`` is a mouse, which no finger drew.
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
    /// What drew it: fingers (the default) or a mouse.
    public var source: Source

    /// An event of `type` at `time` with `fingers`; the other fields are set
    /// by the caller as the gesture needs.
    public init(
        type: Kind, phase: Phase? = nil, time: Duration, fingers: Int,
        cancelled: Bool? = nil, direction: SwipeDirection? = nil,
        dxMillimeters: Double? = nil, dyMillimeters: Double? = nil, edge: Edge? = nil,
        scale: Double? = nil, angleDegrees: Double? = nil,
        template: String? = nil, score: Double? = nil, name: String? = nil,
        source: Source = .touch
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
        self.source = source
    }

    /// Whether this event completes a gesture: an end or a single event.
    public var isCompletion: Bool { phase == nil || phase == .end }

    /// The time in milliseconds, as the contract's `time_ms` gives it.
    public var timeMilliseconds: Double { Self.milliseconds(time) }

    /// `duration` in milliseconds, as `time_ms` gives it.
    public static func milliseconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
    }

    /// `value` as every output of gestures writes a number: rounded to a
    /// thousandth, so that it does not depend on the last bits of
    /// floating-point arithmetic, without a fraction when whole, and 0 when
    /// not finite.
    ///
    ///     GestureEvent.decimalText(-31.20049)   // "-31.2"
    ///     GestureEvent.decimalText(412.0)       // "412"
    public static func decimalText(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var rounded = (value * 1000).rounded() / 1000
        if rounded == 0 { rounded = 0 }  // no "-0"
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }
}
