/// Decides what of an intercepted mouse reaches its clone while strokes are
/// drawn with one button, so that a stroke never clicks: the stroke button's
/// press is withheld until it is known what it is. A mouse's
/// ``GesturePipeline`` runs it (``MouseStrokeEngine``) when the button is
/// withheld from the desktop; it reads the frames the pipeline's one decoder
/// made, and passes on the frame's own events.
///
/// - A press and release that travel less than ``Settings/minimumLengthCounts``
///   is a click: it reaches the clone at the release, as a press and a
///   release in two frames (``Decision/click``).
/// - A press held still (less travel than that) for ``Settings/pressDelay``
///   reaches the clone then, as a normal press: drags with that button work,
///   and the stroke is abandoned (``Decision/press``, ``Output/abandonsStroke``).
/// - Otherwise it is a stroke: neither its press nor its release reaches the
///   clone, recognised or not (``Decision/withheld``). Its motion does when
///   ``Settings/passesMotion``.
/// - A press that no binding claims (the `claims` question of
///   ``process(_:frame:claims:)``, asked when the button goes down: the
///   focused window has no binding that claims mouse strokes) reaches the
///   clone at once, in its frame, as a plain press, and so does its release
///   (``Decision/passed``). The stroke drawn with it is still recognised.
/// - Everything else (other buttons, the wheel, motion outside strokes)
///   passes in its frame at once.
///
///     var filter = StrokeButtonFilter(settings: .init(button: BTN.RIGHT))
///     let out = filter.process(events, frame: decoded)   // the frame's events and what the decoder made of them
///     for frame in out.frames { try clone.writeFrame(frame) }
///     if out.abandonsStroke { _ = tracker.cancel() }
public struct StrokeButtonFilter: Sendable {
    /// How strokes are told from clicks and presses.
    public struct Settings: Hashable, Sendable {
        /// The button that draws.
        public var button: UInt16
        /// Travel, in mouse counts, below which a press is not a stroke (the
        /// stroke tracker's `minimumLengthCounts`).
        public var minimumLengthCounts: Double
        /// How long a press held still waits before it passes as a press: 300 ms.
        public var pressDelay: Duration
        /// Whether the pointer moves while a stroke is drawn.
        public var passesMotion: Bool

        /// Settings for strokes drawn with `button`.
        public init(
            button: UInt16 = BTN.RIGHT, minimumLengthCounts: Double = 20,
            pressDelay: Duration = .milliseconds(300), passesMotion: Bool = true
        ) {
            self.button = button
            self.minimumLengthCounts = minimumLengthCounts
            self.pressDelay = pressDelay
            self.passesMotion = passesMotion
        }
    }

    /// What the filter decided about a press of the stroke button.
    public enum Decision: Hashable, Sendable {
        /// Released before it travelled far enough: the press and release reach the clone now.
        case click(travelCounts: Double)
        /// Held still for the press delay: the press reaches the clone now.
        case press
        /// It travelled far enough to be a stroke: the button stays withheld.
        case withheld(travelCounts: Double)
        /// Nothing claims it: the press reached the clone at once, in its frame.
        case passed
    }

    /// What to do after a frame or a timer.
    public struct Output: Hashable, Sendable {
        /// The frames to write to the clone, in order, each without `SYN_REPORT`.
        public var frames: [[InputEvent]] = []
        /// The press went out as a normal press: what follows is no stroke.
        public var abandonsStroke = false
        /// What was decided about the stroke button's press, if anything was.
        public var decision: Decision?
    }

    /// Where the stroke button is.
    public enum Phase: Hashable, Sendable {
        /// Up, or down and passed out.
        case idle
        /// Down and withheld; it may still be a click or a press.
        case pressed(since: Int64, travel: Double)
        /// Down and withheld, drawing a stroke.
        case stroking
        /// Down and passed out as a normal press (held still, or not claimed).
        case passedThrough
    }

    /// The settings in use.
    public var settings: Settings
    /// Where the stroke button is.
    public private(set) var phase: Phase = .idle
    private var now: Int64 = 0
    /// Whether the decoded frames showed the button held, as of the last one.
    private var wasHeld = false

    /// A filter with `settings`.
    public init(settings: Settings) {
        self.settings = settings
    }

    /// When a withheld press is due to pass as a press (microseconds, the events' clock), or nil.
    public var nextDeadlineMicroseconds: Int64? {
        guard case .pressed(let since, _) = phase else { return nil }
        return EventTime.adding(EventTime.microseconds(roundingUp: settings.pressDelay), to: since)
    }

    /// Takes one frame read from the mouse: its events (with or without the
    /// closing `SYN_REPORT`) and `frame`, what the pipeline's decoder made of
    /// them. When the frame presses the stroke button, `claims` says whether
    /// a binding claims the press (asked then only, with the focus of that
    /// moment): if not, the press passes in its frame (``Decision/passed``).
    public mutating func process(_ frameEvents: [InputEvent], frame: TouchFrame, claims: () -> Bool = { true }) -> Output {
        now = max(now, frame.microseconds)
        var output = advance(toMicroseconds: now)
        var events = frameEvents.filter { !$0.isSynReport }
        let (pressed, released) = buttonChange(frame)
        let travel = (Double(frame.relativeX) * Double(frame.relativeX) + Double(frame.relativeY) * Double(frame.relativeY)).squareRoot()
        switch phase {
        case .idle:
            if pressed && !claims() {
                phase = .passedThrough
                output.decision = .passed
            } else if pressed {
                events.removeAll(where: isStrokeButton)
                phase = .pressed(since: now, travel: 0)
            }
        case .pressed(let since, let previous):
            let total = previous + travel
            if !settings.passesMotion { events.removeAll(where: Self.isMotion) }
            events.removeAll(where: isStrokeButton)
            if released {
                phase = .idle
                if total < settings.minimumLengthCounts {
                    output.frames.append(events)
                    output.frames.append([key(1)])
                    output.frames.append([key(0)])
                    output.decision = .click(travelCounts: total)
                    return output.compacted
                }
                output.decision = .withheld(travelCounts: total)
            } else if total >= settings.minimumLengthCounts {
                phase = .stroking
                output.decision = .withheld(travelCounts: total)
            } else {
                phase = .pressed(since: since, travel: total)
            }
        case .stroking:
            if !settings.passesMotion { events.removeAll(where: Self.isMotion) }
            events.removeAll(where: isStrokeButton)
            if released { phase = .idle }
        case .passedThrough:
            if released { phase = .idle }
        }
        output.frames.append(events)
        return output.compacted
    }

    /// Lets time pass: a press held still past the delay goes out as a press.
    public mutating func advance(toMicroseconds microseconds: Int64) -> Output {
        now = max(now, microseconds)
        guard let due = nextDeadlineMicroseconds, due <= now else { return Output() }
        phase = .passedThrough
        return Output(frames: [[key(1)]], abandonsStroke: true, decision: .press)
    }

    /// Takes the frame the reader's resync gave after `SYN_DROPPED` (its events
    /// and the decoded `frame`): it goes out without the stroke button unless
    /// the press was passed out; a stroke in progress is abandoned (the
    /// tracker cancels it) and the button's withheld press, if it is still
    /// down, stays withheld.
    public mutating func resynchronize(_ frameEvents: [InputEvent], frame: TouchFrame) -> Output {
        now = max(now, frame.microseconds)
        var events = frameEvents.filter { !$0.isSynReport }
        let held = frame.buttons.contains(strokeButton)
        wasHeld = held
        switch phase {
        case .passedThrough:
            if !held { phase = .idle }
        case .idle, .pressed, .stroking:
            events.removeAll(where: isStrokeButton)
            phase = held ? .stroking : .idle
        }
        return Output(frames: [events]).compacted
    }

    /// Forgets the button (the device is gone): nothing more reaches the clone for it.
    public mutating func reset() {
        phase = .idle
        wasHeld = false
    }

    /// The stroke button as the decoder's buttons name it.
    private var strokeButton: Buttons { Buttons(code: settings.button) ?? [] }

    /// Whether `frame` shows the stroke button going down, or up, since the previous frame.
    private mutating func buttonChange(_ frame: TouchFrame) -> (pressed: Bool, released: Bool) {
        let held = frame.buttons.contains(strokeButton)
        defer { wasHeld = held }
        return (held && !wasHeld, !held && wasHeld)
    }

    private func key(_ value: Int32) -> InputEvent {
        InputEvent(type: EV.KEY, code: settings.button, value: value, microseconds: now)
    }

    private func isStrokeButton(_ event: InputEvent) -> Bool {
        event.type == EV.KEY && event.code == settings.button
    }

    private static func isMotion(_ event: InputEvent) -> Bool {
        event.type == EV.REL && (event.code == REL.X || event.code == REL.Y)
    }
}

extension StrokeButtonFilter.Output {
    /// Without empty frames.
    var compacted: Self {
        var copy = self
        copy.frames.removeAll { $0.isEmpty }
        return copy
    }
}
