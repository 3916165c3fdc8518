import GestureRecognition

/// The engine of a mouse, as `GestureEngine` is a touch surface's: what a
/// mouse's ``GesturePipeline`` runs on the frames of its one decoder. A
/// ``MouseStrokeTracker`` draws strokes with the stroke button held, a
/// ``StrokeButtonFilter`` (when the button is withheld from the desktop)
/// decides what reaches the mouse's clone, and a finished stroke is
/// recognised ``unplugGrace`` after its release: a `stroke` gesture event
/// (``GestureEvent/Source/mouse``, no fingers) when a template accepts it.
/// Every press ends in a ``MouseDecision``.
///
/// Like `GestureEngine` it has no clock: times come from the frames, and its
/// timers (the filter's press delay, the unplug grace) are stamped with their
/// due time, fired by the next frame, ``fireTimers(dueByMicroseconds:into:)``
/// or ``finish(into:)``.
public struct MouseStrokeEngine: Sendable {
    /// How a mouse draws strokes and how they are recognised.
    public struct Settings: Hashable, Sendable {
        /// The button, the click length, the press delay and whether the pointer moves while drawing.
        public var strokes: StrokeButtonFilter.Settings
        /// The recognizer's orientation and threshold; by default orientation
        /// matters (30 degrees) and best scores below 0.75 are no match.
        public var recognition: UnistrokeRecognizer.Configuration
        /// The stroke rule a drawn stroke must pass to fire, the one touch
        /// strokes pass (`StrokeRule`): its lengths in mouse counts
        /// (``defaultRule`` by default; the threshold is ``recognition``'s).
        public var rule: StrokeRule
        /// Whether the stroke button is withheld from the desktop (the mouse
        /// is intercepted): then clicks and presses held still are passed on
        /// by the ``StrokeButtonFilter``, and a press held still abandons its
        /// stroke; a press that no binding claims (asked as it goes down)
        /// passes at once. Without it the desktop sees every event as it happens.
        public var withholdsButton: Bool

        /// Settings; the defaults are the daemon's `mouse: {}`, intercepted.
        public init(
            strokes: StrokeButtonFilter.Settings = StrokeButtonFilter.Settings(),
            recognition: UnistrokeRecognizer.Configuration = Self.defaultRecognition,
            rule: StrokeRule = Self.defaultRule,
            withholdsButton: Bool = true
        ) {
            self.strokes = strokes
            self.recognition = recognition
            self.rule = rule
            self.withholdsButton = withholdsButton
        }

        /// Orientation-sensitive within 30 degrees, threshold 0.75.
        public static let defaultRecognition = UnistrokeRecognizer.Configuration(orientation: .sensitive, rejectionThreshold: 0.75)

        /// The smallest mouse stroke by default, in counts: the diagonal of
        /// the box round its path (about 1.3 mm of hand motion on a 1,000 dpi
        /// mouse, 3 mm on a 400 dpi one; 50 pixels of pointer motion without
        /// acceleration). The $1 shapes drawn 100 counts across pass it.
        public static let defaultMinimumSizeCounts = 50.0

        /// The engine's stroke rule with ``defaultMinimumSizeCounts``.
        public static let defaultRule = rule(minimumSizeCounts: defaultMinimumSizeCounts)

        /// The stroke rule of a mouse: at least `minimumSizeCounts` (the
        /// diagonal of the box round the path, in counts: a mouse says
        /// nothing of millimetres), and the width ratio and margin of
        /// `engine` (`strokeMinimumWidthRatio`, `strokeMinimumTemplateWidthShare`, `strokeMinimumMargin`), as
        /// touch strokes have them.
        public static func rule(
            minimumSizeCounts: Double, engine: GestureEngine.Configuration = GestureEngine.Configuration()
        ) -> StrokeRule {
            StrokeRule(
                minimumLength: minimumSizeCounts, unit: .counts, minimumWidthRatio: engine.strokeMinimumWidthRatio,
                minimumTemplateWidthShare: engine.strokeMinimumTemplateWidthShare, minimumMargin: engine.strokeMinimumMargin)
        }
    }

    /// How long a stroke waits after its release before it is recognised:
    /// unplugging a mouse makes the kernel release its buttons just before the
    /// device goes, and that stroke must end cancelled, not recognised.
    public static let unplugGrace: Duration = .milliseconds(100)

    /// The settings in use.
    public private(set) var settings: Settings
    /// The time, in the events' clock (microseconds), that event times count from.
    public let originMicroseconds: Int64

    private let recognizer: UnistrokeRecognizer
    private var tracker: MouseStrokeTracker
    private var filter: StrokeButtonFilter?
    /// Released strokes waiting out the unplug grace, oldest first; `passed`:
    /// the press reached the desktop at once (no binding claimed it).
    private var waiting: [(points: [Point], lengthCounts: Double, dueMicroseconds: Int64, passed: Bool)] = []
    /// Whether the press being drawn reached the desktop at once (``MouseDecision/Kind/passed``).
    private var pressPassed = false
    /// Whether the next frame is the state after lost events.
    private var resynchronizing = false
    private var latestMicroseconds: Int64
    private var decisions: [MouseDecision] = []
    private var cloneFrames: [[InputEvent]] = []

    /// An engine recognising against `templates`, times counted from `originMicroseconds`.
    public init(settings: Settings, templates: TemplateLibrary, originMicroseconds: Int64) {
        self.settings = settings
        self.originMicroseconds = originMicroseconds
        latestMicroseconds = originMicroseconds
        recognizer = UnistrokeRecognizer(library: templates, configuration: settings.recognition)
        tracker = MouseStrokeTracker(button: settings.strokes.button, minimumLengthCounts: settings.strokes.minimumLengthCounts)
        filter = settings.withholdsButton ? StrokeButtonFilter(settings: settings.strokes) : nil
    }

    /// Judges `points` (mouse counts) by the settings' ``Settings/rule``,
    /// the `StrokeRule` touch strokes are judged by: accepted, or rejected
    /// with the rule and its figures (`too short: 31.2 of 50 counts`).
    public func verdict(for points: [Point]) -> StrokeVerdict {
        settings.rule.judge(points, with: recognizer)
    }

    /// The earliest timer due (microseconds, the events' clock): a withheld
    /// press passing as a press, or a released stroke's grace ending.
    public var nextDeadlineMicroseconds: Int64? {
        [filter?.nextDeadlineMicroseconds, waiting.first?.dueMicroseconds].compactMap { $0 }.min()
    }

    /// Takes one decoded frame and its events (needed to pass them on when
    /// the button is withheld); timers due by its time fire first. When the
    /// button is withheld and the frame presses it, `claimsButton` says
    /// whether a binding claims the press (asked then only): if not, the
    /// press reaches the clone at once and the stroke is still drawn and
    /// recognised, its decision ``MouseDecision/Kind/passed``.
    public mutating func process(
        _ frame: TouchFrame, events: [InputEvent], into gestures: inout [GestureEvent], claimsButton: () -> Bool = { true }
    ) {
        let now = max(latestMicroseconds, frame.microseconds)
        fireTimers(dueByMicroseconds: now, into: &gestures)
        latestMicroseconds = now
        if frame.followsDroppedEvents {
            if tracker.cancel() != nil { decide(.cancelled, reason: "events were lost", at: now) }
            pressPassed = false
            resynchronizing = true
            return
        }
        if resynchronizing {
            resynchronizing = false
            tracker.resynchronize(frame)
            if let out = filter?.resynchronize(events, frame: frame) { cloneFrames += out.frames }
            return
        }
        if var filter {
            let out = filter.process(events, frame: frame, claims: claimsButton)
            self.filter = filter
            take(out, at: now)
        }
        switch tracker.process(frame) {
        case .ended(let points, let length)?:
            waiting.append((points, length, EventTime.adding(EventTime.microseconds(roundingUp: Self.unplugGrace), to: now), pressPassed))
            pressPassed = false
        case .click(let length)? where pressPassed:
            pressPassed = false
            decide(
                .passed,
                reason:
                    "\(Self.passedReason); a click: moved \(GestureEvent.decimalText(length)) of the \(GestureEvent.decimalText(settings.strokes.minimumLengthCounts)) counts a stroke needs",
                lengthCounts: length, at: now)
        case .click(let length)? where filter == nil:
            decide(
                .click,
                reason:
                    "moved \(GestureEvent.decimalText(length)) of the \(GestureEvent.decimalText(settings.strokes.minimumLengthCounts)) counts a stroke needs",
                lengthCounts: length, at: now)
        default:
            break
        }
    }

    /// Fires the timers due by `microseconds` (the events' clock), each at its own time.
    public mutating func fireTimers(dueByMicroseconds microseconds: Int64, into gestures: inout [GestureEvent]) {
        while let due = nextDeadlineMicroseconds, due <= microseconds {
            latestMicroseconds = max(latestMicroseconds, due)
            if let press = filter?.nextDeadlineMicroseconds, press == due {
                let out = filter!.advance(toMicroseconds: due)
                take(out, at: due)
            } else {
                let stroke = waiting.removeFirst()
                recognize(stroke.points, lengthCounts: stroke.lengthCounts, passed: stroke.passed, at: due, into: &gestures)
            }
        }
    }

    /// Cancels what is in progress: a stroke being drawn and those waiting
    /// out the grace (`reason`: the device is gone).
    public mutating func cancel(reason: String) {
        if tracker.cancel() != nil { decide(.cancelled, reason: reason, at: latestMicroseconds) }
        pressPassed = false
        for stroke in waiting { decide(.cancelled, reason: reason, lengthCounts: stroke.lengthCounts, at: latestMicroseconds) }
        waiting.removeAll()
        filter?.reset()
        resynchronizing = false
    }

    /// Ends the input (the end of a recording): released strokes are
    /// recognised when their grace is over (the device did not go away), a
    /// stroke still being drawn ends cancelled.
    public mutating func finish(into gestures: inout [GestureEvent]) {
        while let stroke = waiting.first {
            waiting.removeFirst()
            latestMicroseconds = max(latestMicroseconds, stroke.dueMicroseconds)
            recognize(stroke.points, lengthCounts: stroke.lengthCounts, passed: stroke.passed, at: stroke.dueMicroseconds, into: &gestures)
        }
        if tracker.cancel() != nil { decide(.cancelled, reason: "the input ended with the button held", at: latestMicroseconds) }
        pressPassed = false
    }

    /// Stops withholding the stroke button (the mouse's clone is given up
    /// and the desktop reads the mouse itself): from now on the desktop sees
    /// every event as it happens, and nothing goes to a clone.
    public mutating func stopWithholdingButton() {
        filter = nil
        settings.withholdsButton = false
        cloneFrames.removeAll()
    }

    /// The decisions made since the last call, in time order.
    public mutating func takeDecisions() -> [MouseDecision] {
        defer { decisions.removeAll(keepingCapacity: true) }
        return decisions
    }

    /// The frames for the mouse's clone since the last call (each without
    /// `SYN_REPORT`), when the button is withheld; else none.
    public mutating func takeCloneFrames() -> [[InputEvent]] {
        defer { cloneFrames.removeAll(keepingCapacity: true) }
        return cloneFrames
    }

    private mutating func take(_ out: StrokeButtonFilter.Output, at microseconds: Int64) {
        cloneFrames += out.frames
        if out.abandonsStroke { _ = tracker.cancel() }
        switch out.decision {
        case .click(let travel)?:
            decide(
                .click,
                reason:
                    "moved \(GestureEvent.decimalText(travel)) of the \(GestureEvent.decimalText(settings.strokes.minimumLengthCounts)) counts a stroke needs: passed to the desktop at the release",
                lengthCounts: travel, at: microseconds)
        case .press?:
            decide(
                .press,
                reason:
                    "held still for \(GestureEvent.decimalText(MouseDecision.milliseconds(settings.strokes.pressDelay))) ms: passed to the desktop as a press, no stroke",
                held: settings.strokes.pressDelay, at: microseconds)
        case .passed?:
            pressPassed = true
        case .withheld?, nil:
            break
        }
    }

    /// What a ``MouseDecision/Kind/passed`` decision's reason starts with.
    static let passedReason = "no binding claimed the press: it reached the desktop at once"

    private mutating func recognize(
        _ points: [Point], lengthCounts: Double, passed: Bool, at microseconds: Int64, into gestures: inout [GestureEvent]
    ) {
        let time = EventTime.duration(from: originMicroseconds, to: microseconds)
        let kept = passed || filter == nil ? "" : "; its button was kept from the desktop"
        let prefix = passed ? "\(Self.passedReason); the stroke: " : ""
        let verdict = verdict(for: points)
        switch verdict {
        case .accepted(let acceptance):
            let match = acceptance.match
            gestures.append(GestureEvent(type: .stroke, time: time, fingers: 0, template: match.name, score: match.score, source: .mouse))
            decisions.append(
                MouseDecision(
                    kind: passed ? .passed : .stroke, time: time, lengthCounts: lengthCounts, template: match.name,
                    score: match.score, reason: "\(prefix)\(verdict)\(kept)", points: points, verdict: verdict))
        case .rejected(let rejection):
            decisions.append(
                MouseDecision(
                    kind: passed ? .passed : .rejected, time: time, lengthCounts: lengthCounts, template: rejection.best?.name,
                    score: rejection.best?.score, reason: "\(prefix)\(rejection)\(kept)", points: points,
                    verdict: verdict))
        }
    }

    private mutating func decide(
        _ kind: MouseDecision.Kind, reason: String, lengthCounts: Double? = nil, held: Duration? = nil,
        at microseconds: Int64
    ) {
        decisions.append(
            MouseDecision(
                kind: kind, time: EventTime.duration(from: originMicroseconds, to: microseconds),
                lengthCounts: lengthCounts, held: held, reason: reason))
    }
}
