import TouchInput

/// Decides what of an intercepted mouse reaches its clone while strokes are
/// drawn with one button, so that a stroke never clicks: the stroke button's
/// press is withheld until it is known what it is.
///
/// - A press and release that travel less than ``Settings/minimumLengthCounts``
///   is a click: it reaches the clone at the release, as a press and a
///   release in two frames.
/// - A press held still (less travel than that) for ``Settings/pressDelay``
///   reaches the clone then, as a normal press: drags with that button work,
///   and the stroke is abandoned (``Output/abandonsStroke``).
/// - Otherwise it is a stroke: neither its press nor its release reaches the
///   clone, recognised or not. Its motion does when ``Settings/passesMotion``.
/// - Everything else (other buttons, the wheel, motion outside strokes)
///   passes in its frame at once.
///
///     var filter = StrokeButtonFilter(settings: .init(button: BTN.RIGHT))
///     let out = filter.process(frame)
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
        public init(button: UInt16 = BTN.RIGHT, minimumLengthCounts: Double = 20,
                    pressDelay: Duration = .milliseconds(300), passesMotion: Bool = true) {
            self.button = button
            self.minimumLengthCounts = minimumLengthCounts
            self.pressDelay = pressDelay
            self.passesMotion = passesMotion
        }
    }

    /// What to do after a frame or a timer.
    public struct Output: Hashable, Sendable {
        /// The frames to write to the clone, in order, each without `SYN_REPORT`.
        public var frames: [[InputEvent]] = []
        /// The press went out as a normal press: what follows is no stroke.
        public var abandonsStroke = false
    }

    /// Where the stroke button is.
    public enum Phase: Hashable, Sendable {
        /// Up, or down and passed out.
        case idle
        /// Down and withheld; it may still be a click or a press.
        case pressed(since: Int64, travel: Double)
        /// Down and withheld, drawing a stroke.
        case stroking
        /// Down and passed out as a normal press.
        case passedThrough
    }

    /// The settings in use.
    public var settings: Settings
    /// Where the stroke button is.
    public private(set) var phase: Phase = .idle
    private var now: Int64 = 0

    /// A filter with `settings`.
    public init(settings: Settings) {
        self.settings = settings
    }

    /// When a withheld press is due to pass as a press (microseconds, the events' clock), or nil.
    public var nextDeadlineMicroseconds: Int64? {
        guard case .pressed(let since, _) = phase else { return nil }
        return since + EventTime.microseconds(roundingUp: settings.pressDelay)
    }

    /// Takes one frame read from the mouse (ending in `SYN_REPORT`).
    public mutating func process(_ frame: [InputEvent]) -> Output {
        now = max(now, frame.last?.microseconds ?? now)
        var output = advance(toMicroseconds: now)
        var events = frame.filter { !$0.isSynReport }
        var delta = (x: 0.0, y: 0.0)
        for event in events where event.type == EV.REL {
            if event.code == REL.X { delta.x += Double(event.value) }
            if event.code == REL.Y { delta.y += Double(event.value) }
        }
        let change = events.last { $0.type == EV.KEY && $0.code == settings.button && $0.value != 2 }?.value
        let travel = (delta.x * delta.x + delta.y * delta.y).squareRoot()
        switch phase {
        case .idle:
            if change == 1 {
                events.removeAll { $0.type == EV.KEY && $0.code == settings.button }
                phase = .pressed(since: now, travel: 0)
            }
        case .pressed(let since, let previous):
            let total = previous + travel
            if !settings.passesMotion { events.removeAll(where: Self.isMotion) }
            events.removeAll { $0.type == EV.KEY && $0.code == settings.button }
            if change == 0 {
                phase = .idle
                if total < settings.minimumLengthCounts {
                    output.frames.append(events)
                    output.frames.append([key(1)])
                    output.frames.append([key(0)])
                    return output.compacted
                }
            } else {
                phase = total >= settings.minimumLengthCounts ? .stroking : .pressed(since: since, travel: total)
            }
        case .stroking:
            if !settings.passesMotion { events.removeAll(where: Self.isMotion) }
            events.removeAll { $0.type == EV.KEY && $0.code == settings.button }
            if change == 0 { phase = .idle }
        case .passedThrough:
            if change == 0 { phase = .idle }
        }
        output.frames.append(events)
        return output.compacted
    }

    /// Lets time pass: a press held still past the delay goes out as a press.
    public mutating func advance(toMicroseconds microseconds: Int64) -> Output {
        now = max(now, microseconds)
        guard let due = nextDeadlineMicroseconds, due <= now else { return Output() }
        phase = .passedThrough
        return Output(frames: [[key(1)]], abandonsStroke: true)
    }

    /// Takes the frame libevdev's resync gave after `SYN_DROPPED`: it goes
    /// out without the stroke button unless the press was passed out; a
    /// stroke in progress is abandoned (the tracker cancels it) and the
    /// button's withheld press, if it is still down, stays withheld.
    public mutating func resynchronize(_ frame: [InputEvent]) -> Output {
        now = max(now, frame.last?.microseconds ?? now)
        var events = frame.filter { !$0.isSynReport }
        let change = events.last { $0.type == EV.KEY && $0.code == settings.button }?.value
        switch phase {
        case .passedThrough:
            if change == 0 { phase = .idle }
        case .idle:
            events.removeAll { $0.type == EV.KEY && $0.code == settings.button }
            if change == 1 { phase = .stroking }
        case .pressed, .stroking:
            events.removeAll { $0.type == EV.KEY && $0.code == settings.button }
            phase = change == 0 ? .idle : .stroking
        }
        return Output(frames: [events]).compacted
    }

    private func key(_ value: Int32) -> InputEvent {
        InputEvent(type: EV.KEY, code: settings.button, value: value, microseconds: now)
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
