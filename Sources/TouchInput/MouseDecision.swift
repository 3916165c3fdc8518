import GestureRecognition

/// What a mouse's ``GesturePipeline`` decided about one press of its stroke
/// button, with the reason and the figures: the value that `gestures replay`
/// prints as a line, the daemon logs, and tests read.
///
/// Every press of the stroke button ends in one decision: a ``Kind/click``
/// or a ``Kind/press`` (when the button is withheld from the desktop), a
/// ``Kind/passed`` press (intercepted, but no binding claimed it), a
/// ``Kind/stroke`` (the pipeline also gives its `stroke` gesture event), a
/// ``Kind/rejected`` stroke, or a ``Kind/cancelled`` one.
///
///     for decision in pipeline.takeDecisions() { print(decision) }
///     // 1212 ms  mouse rejected  412 counts  below the threshold: circle scores 0.62 of 0.75
public struct MouseDecision: Hashable, Sendable, CustomStringConvertible {
    /// What became of the press.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Released before it moved far enough for a stroke: a click (with the
        /// button withheld, it reaches the desktop at the release).
        case click
        /// Held still for the press delay: it reaches the desktop as a press, and no stroke is drawn.
        case press
        /// A stroke a template accepted; its `stroke` gesture event has the template and score.
        case stroke
        /// A stroke no template accepted, with the rule that rejected it.
        case rejected
        /// A stroke cut short (events were lost, the device went away, the input ended).
        case cancelled
        /// No binding that claims mouse strokes applied when the button went
        /// down (none applies to the focused window): the press reached the
        /// desktop at once, as a plain press, and its release too. Decided
        /// when the press ends: a stroke drawn with it is still recognised,
        /// and when a template accepts it, ``template`` and ``score`` say
        /// which and its `stroke` gesture event fires the bindings that do
        /// not claim (`claim: false`); ``rejection`` says why one did not.
        case passed
    }

    /// What became of the press.
    public var kind: Kind
    /// When it was decided, counted as gesture times are (from the pipeline's origin).
    public var time: Duration
    /// Clicks and strokes: the path length drawn with the button held, in mouse counts.
    public var lengthCounts: Double?
    /// Presses: how long the button was held still before it was passed on.
    public var held: Duration?
    /// Strokes: the template accepted; rejected strokes: the best one, if any.
    public var template: String?
    /// The score of ``template``, in 0...1.
    public var score: Double?
    /// One phrase saying why, with the figures (`below the threshold: circle scores 0.62 of 0.75`).
    public var reason: String
    /// Strokes and rejected strokes: the points drawn, in mouse counts from
    /// where the button went down (y grows downwards); empty otherwise.
    public var points: [Point]
    /// Strokes (accepted, rejected, or drawn with a press that passed): the
    /// stroke rule's verdict, as the engine judged the stroke (``reason``
    /// says it in words). What `gestures strokes` prints, so that it says
    /// what the daemon does.
    public var verdict: StrokeVerdict?

    /// Rejected strokes: the stroke rule's rejection, so that a caller can
    /// tell a stroke refused by the capture (too short, a drag along one
    /// line) from one no template accepted.
    public var rejection: StrokeVerdict.Rejection? { verdict?.rejection }

    /// A decision of `kind` at `time`.
    public init(
        kind: Kind, time: Duration, lengthCounts: Double? = nil, held: Duration? = nil,
        template: String? = nil, score: Double? = nil, reason: String, points: [Point] = [],
        verdict: StrokeVerdict? = nil
    ) {
        self.kind = kind
        self.time = time
        self.lengthCounts = lengthCounts
        self.held = held
        self.template = template
        self.score = score
        self.reason = reason
        self.points = points
        self.verdict = verdict
    }

    /// One readable line: `1212 ms  mouse rejected  412 counts  below the threshold: circle scores 0.62 of 0.75`.
    public var description: String {
        var parts = ["\(GestureEvent.decimalText(Self.milliseconds(time))) ms", "mouse \(kind.rawValue)"]
        if let lengthCounts { parts.append("\(GestureEvent.decimalText(lengthCounts)) counts") }
        parts.append(reason)
        return parts.joined(separator: "  ")
    }

    /// `duration` in milliseconds, as `time_ms` gives it.
    public static func milliseconds(_ duration: Duration) -> Double { GestureEvent.milliseconds(duration) }
}
