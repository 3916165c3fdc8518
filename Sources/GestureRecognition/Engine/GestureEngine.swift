/// Turns touch frames into gestures: swipes, pinches (with rotation), holds,
/// taps, drawn strokes and swipe sequences.
///
/// The engine is one state machine in the manner of libinput's gesture code:
/// one enum of states (``StateName`` names them), one handler per state, and
/// every (state, input) pair handled; a pair that should not happen is kept
/// as a ``Diagnostic`` instead of trapping. It reads no clock: time comes from
/// the frames, and timers (hold, finger-change debounce, sequence gaps) fire
/// when ``advance(to:)`` or the next frame passes them, at the time they were
/// due. The same frames therefore always give the same events, whether they
/// come from a device or a recording, and however often `advance` is called.
///
///     var engine = GestureEngine(surface: GestureSurface(
///         kind: .touchpad, widthMillimeters: 100, heightMillimeters: 60))
///     for frame in frames {
///         for event in engine.process(frame) { print(event.jsonLine) }
///     }
///     engine.finish()
///     // {"type":"swipe","phase":"begin","time_ms":52,"fingers":3}
///     // ...
///     // {"type":"swipe","phase":"end","time_ms":230,"fingers":3,"cancelled":false,
///     //  "direction":"left","dx_mm":-31.2,"dy_mm":0.4}
///
/// See Docs/GestureEngine.md for the state diagram.
///
/// - Complexity: ``process(_:)`` is O(n log n) for n contacts, plus the
///   recognizer's cost when a stroke ends.
public struct GestureEngine: Sendable {
    /// The most fingers a gesture can have; more are ignored until they all lift.
    public static let maximumFingers = 5

    /// The names of the states, for diagnostics, tests and the state diagram.
    public enum StateName: String, Hashable, Sendable, Codable, CaseIterable {
        /// No finger touches.
        case idle
        /// Fingers touch and nothing is decided yet: it may become a tap, a
        /// hold, a swipe, a pinch, a stroke or pointer motion.
        case undecided
        /// A hold has begun.
        case holding
        /// A swipe has begun.
        case swiping
        /// A pinch has begun.
        case pinching
        /// A stroke is being drawn.
        case stroking
        /// The fingers do something that is no gesture (pointer motion,
        /// scrolling, too many fingers, a resynchronisation): wait.
        case ignoring
    }

    /// The device this engine reads.
    public let surface: GestureSurface
    /// The thresholds in use.
    public let configuration: Configuration
    /// What went wrong so far, oldest first.
    public private(set) var diagnostics: [Diagnostic] = []

    var state: State = .idle
    /// The fingers since their count last settled, and how they moved: what
    /// every state with fingers down (undecided, holding, swiping, pinching,
    /// stroking) follows; stale in the others.
    var baseline = Baseline(Snapshot(time: .zero, fingers: 0, contacts: InlineList()), at: .zero)
    let recognizer: UnistrokeRecognizer
    var sequenceMatcher: SwipeSequenceMatcher?
    /// The fingers of the latest completed swipe, reported with sequences.
    var latestSwipeFingers = 0
    /// The latest time seen from a frame or `advance(to:)`.
    var latestTime: Duration?
    /// The latest frame as the state machine saw it.
    var latestSnapshot = Snapshot(time: .zero, fingers: 0, contacts: InlineList())
    /// Contacts the device called a palm once: they stay palms until they lift
    /// (emptied keeping its capacity: no allocation per frame).
    var palmIDs: [Int] = []
    /// Where each palm down in the latest frame was, by id (emptied
    /// keeping its capacity).
    var palmPositions: [(id: Int, position: Point)] = []
    /// Where and when palms lifted, for ``Configuration/relandingGap``: a
    /// contact landing there soon after is the palm again.
    var liftedPalms: [(position: Point, time: Duration)] = []
    /// Contacts down now that have pressed past
    /// ``Configuration/touchPressureFraction``: the others hover (emptied
    /// keeping its capacity).
    var touchedIDs: [Int] = []
    /// Whether the device has reported a pressure above its range's
    /// minimum: one that never does reports none, and nothing on it hovers.
    var pressureReported = false
    /// Whether the latest frame flagged as a palm a contact that the frame
    /// before counted as a finger.
    var palmTurned = false
    /// When each contact down now landed, by id (emptied keeping its
    /// capacity): a thumb that rested before a finger landed beside it.
    var contactLandings: [(id: Int, time: Duration)] = []
    /// Whether the touch in progress may still be a tap: follows the fingers
    /// from the first landing to the last lift, beside the states (as
    /// libinput's tap machine runs beside its gesture machine); nil once
    /// something rules a tap out.
    var tap: TapTracker?
    /// When the fingers last all lifted (a frame with none after one with
    /// some): a touch landing within ``Configuration/relandingGap`` of
    /// it is a palm landing again, no tap.
    var lastLift: Duration?
    /// A 1-finger tap whose finger lifted, at its lift time, waiting out
    /// ``Configuration/relandingGap``: a touch landing before the gap is
    /// over is the same contact found again (a palm the firmware lost), so
    /// neither touch was a tap; else it fires when the gap is over.
    var pendingTap: GestureEvent?
    /// Events produced by the handlers during one call; every public entry
    /// point hands them over and empties it, keeping its capacity.
    var outbox: [GestureEvent] = []
    /// The strokes drawn since ``takeDrawnStrokes()`` last took them, with
    /// their verdicts; at most ``maximumKeptStrokes``, the oldest dropped.
    var drawnStrokes: [DrawnStroke] = []

    /// An engine for `surface` with `configuration`, recognising strokes
    /// against `templates` (none by default: no strokes).
    public init(
        surface: GestureSurface,
        configuration: Configuration = Configuration(),
        templates: TemplateLibrary = TemplateLibrary()
    ) {
        self.surface = surface
        self.configuration = configuration
        self.recognizer = UnistrokeRecognizer(library: templates, configuration: configuration.strokeRecognition)
        if !configuration.sequences.isEmpty {
            sequenceMatcher = SwipeSequenceMatcher(
                configuration.sequences,
                maximumGap: configuration.sequenceMaximumGap,
                timeout: configuration.sequenceTimeout)
            if sequenceMatcher == nil {
                let problems = SwipeSequenceMatcher.problems(
                    in: configuration.sequences,
                    maximumGap: configuration.sequenceMaximumGap,
                    timeout: configuration.sequenceTimeout)
                diagnostics.append(
                    Diagnostic(
                        kind: .invalidConfiguration, time: .zero, state: .idle,
                        message: "sequences are off: " + problems.map(\.description).joined(separator: " ")))
            }
        }
    }

    /// The state the engine is in.
    public var stateName: StateName { state.name }

    /// Takes one frame: lets time pass to the frame's time (firing any timer
    /// due before it), then reacts to the touches, and returns the events in
    /// the order they happened.
    public mutating func process(_ frame: GestureFrame) -> [GestureEvent] {
        var events: [GestureEvent] = []
        process(frame, into: &events)
        return events
    }

    /// Takes one frame as ``process(_:)`` does, and appends the events to
    /// `events` instead of returning them: with a buffer the caller keeps and
    /// empties, a frame allocates nothing.
    ///
    ///     var events: [GestureEvent] = []
    ///     for frame in frames {
    ///         engine.process(frame, into: &events)
    ///         for event in events { print(event.jsonLine) }
    ///         events.removeAll(keepingCapacity: true)
    ///     }
    public mutating func process(_ frame: GestureFrame, into events: inout [GestureEvent]) {
        var time = frame.time
        if let latestTime, time < latestTime {
            report(
                .timeWentBackwards, at: time,
                "a frame at \(GestureEvent.decimalText(GestureEvent.milliseconds(time))) ms came after one at \(GestureEvent.decimalText(GestureEvent.milliseconds(latestTime))) ms; it is taken as happening at the later time."
            )
            time = latestTime
        }
        passTime(to: time)
        let fingersBefore = latestSnapshot.fingers
        latestSnapshot = makeSnapshot(frame, at: time)
        if palmTurned { palmRevealed(at: time) }
        if latestSnapshot.fingers > 0 { tap?.record(latestSnapshot, configuration, approximate: surface.positionsAreApproximate) }
        dispatch(.frame(latestSnapshot))
        if latestSnapshot.fingers == 0 && fingersBefore > 0 { lastLift = time }
        handOver(into: &events)
    }

    /// Lets time pass to `time` without a frame, and returns the events of
    /// the timers due by then (a hold beginning, a finger change cancelling a
    /// gesture, a waiting sequence firing), each at the time it was due.
    ///
    /// Call it between frames, for example when no frame came for a while.
    /// A time earlier than one already seen changes nothing.
    public mutating func advance(to time: Duration) -> [GestureEvent] {
        passTime(to: time)
        return handOver()
    }

    /// ``advance(to:)``, with the events left in ``outbox``.
    mutating func passTime(to time: Duration) {
        if let latestTime, time < latestTime { return }
        fireDueTimers(by: time)
        latestTime = time
    }

    /// Fires the timers due by `time`, each at the time it was due, like
    /// ``advance(to:)``, but moves the engine's clock only to the last timer
    /// fired, not to `time`.
    ///
    /// A live reader calls it when it wakes up for a timer: frames it reads
    /// afterwards may be stamped a little before the moment it woke, and they
    /// still count as in order. A time earlier than one already seen changes nothing.
    ///
    /// - Complexity: at most ``maximumTimersPerCall`` timers fire per call.
    public mutating func fireTimers(dueBy time: Duration) -> [GestureEvent] {
        fireDueTimers(by: time)
        return handOver()
    }

    /// ``fireTimers(dueBy:)``, with the events left in ``outbox``.
    mutating func fireDueTimers(by time: Duration) {
        if let latestTime, time < latestTime { return }
        for _ in 0..<Self.maximumTimersPerCall {
            let stateDue = state.deadline(configuration, countSettled: baseline.time).flatMap { $0 <= time ? $0 : nil }
            let sequenceDue = sequenceMatcher?.expiry.flatMap { $0 <= time ? $0 : nil }
            if let due = pendingTapDue, due <= time, stateDue.map({ due <= $0 }) ?? true, sequenceDue.map({ due <= $0 }) ?? true {
                latestTime = max(latestTime ?? due, due)
                firePendingTap()
            } else if let due = stateDue, sequenceDue.map({ due <= $0 }) ?? true {
                latestTime = max(latestTime ?? due, due)
                dispatch(.deadline(due))
                if state.deadline(configuration, countSettled: baseline.time) == due {
                    report(.unexpectedInput, at: due, "the timer due at this time did not change the state; it is dropped.")
                    state = .ignoring(Ignored(reason: .resynchronizing, fingers: latestSnapshot.fingers))
                }
            } else if let due = sequenceDue {
                latestTime = max(latestTime ?? due, due)
                fireWaitingSequences(at: due)
            } else {
                break
            }
        }
    }

    /// The most timers one call of ``fireTimers(dueBy:)`` (or
    /// ``advance(to:)``) fires. Each step fires the earliest due timer, and
    /// a handler always clears or moves its timer (one that does not is
    /// reported as `unexpectedInput` and dropped), so the bound is never
    /// reached; it only makes termination evident.
    public static let maximumTimersPerCall = 64

    /// The earliest time at which a timer is due (a hold beginning, a finger
    /// change settling, a waiting sequence firing), or nil when none is set.
    ///
    /// A live reader waits at most until then and calls ``advance(to:)``;
    /// a replay reaches it with the next frame. Either way the events come
    /// out at the time they were due.
    public var nextDeadline: Duration? {
        var earliest = state.deadline(configuration, countSettled: baseline.time)
        if let due = sequenceMatcher?.expiry, earliest.map({ due < $0 }) ?? true { earliest = due }
        if let due = pendingTapDue, earliest.map({ due < $0 }) ?? true { earliest = due }
        return earliest
    }

    /// When the tap waiting out ``Configuration/relandingGap`` fires, if one waits.
    var pendingTapDue: Duration? { pendingTap.map { $0.time + configuration.relandingGap } }

    /// Emits the tap that waited out ``Configuration/relandingGap`` (at its lift time).
    mutating func firePendingTap() {
        guard let tap = pendingTap else { return }
        pendingTap = nil
        emit(tap)
    }

    /// Ends the input (the end of a recording, the reader stopping): a
    /// gesture in progress ends cancelled, a tap waiting out
    /// ``Configuration/relandingGap`` and a sequence waiting for a
    /// continuation fire, and the engine is idle again.
    public mutating func finish() -> [GestureEvent] {
        let time = latestTime ?? .zero
        firePendingTap()  // nothing more lands: the wait is over
        dispatch(.finish(time))
        if let due = sequenceMatcher?.expiry {
            fireWaitingSequences(at: max(due, time))
        }
        palmIDs.removeAll(keepingCapacity: true)
        touchedIDs.removeAll(keepingCapacity: true)
        contactLandings.removeAll(keepingCapacity: true)
        palmPositions.removeAll(keepingCapacity: true)
        liftedPalms.removeAll(keepingCapacity: true)
        tap = nil
        lastLift = nil
        latestSnapshot = Snapshot(time: time, fingers: 0, contacts: InlineList())
        return handOver()
    }

    /// Cancels what is in progress because the input lost events (the
    /// device went away, or `SYN_DROPPED`): a gesture in progress ends
    /// cancelled, a tap still waiting out ``Configuration/relandingGap`` is
    /// dropped, and the fingers down now start nothing until they all lift.
    public mutating func cancel() -> [GestureEvent] {
        pendingTap = nil  // what was lost may have been the contact landing again
        dispatch(.cancel(latestTime ?? .zero))
        return handOver()
    }

    /// The strokes drawn since the last call, oldest first, each with its
    /// points and the verdict of the configuration's ``Configuration/strokeRule``:
    /// an accepted one was also emitted as a `stroke` event, a rejected one
    /// fired nothing, and its ``StrokeVerdict/Rejection`` says why (for the
    /// daemon's log and `gestures replay`). Taps and strokes cut short by a
    /// finger change or lost events are not drawn strokes.
    ///
    ///     for event in engine.process(frame) { print(event.jsonLine) }
    ///     for stroke in engine.takeDrawnStrokes() where !stroke.verdict.isAccepted { print(stroke) }
    ///     // stroke at 912 ms (1 finger, 40 points): not fired: too narrow: width 0.04 of its length, ...
    public mutating func takeDrawnStrokes() -> [DrawnStroke] {
        defer { drawnStrokes.removeAll(keepingCapacity: true) }
        return drawnStrokes
    }

    /// The most drawn strokes kept for ``takeDrawnStrokes()``: a caller that
    /// never takes them costs no more than this.
    public static let maximumKeptStrokes = 16

    // MARK: - Plumbing

    /// Keeps `stroke` for ``takeDrawnStrokes()``, dropping the oldest beyond ``maximumKeptStrokes``.
    mutating func keep(_ stroke: DrawnStroke) {
        if drawnStrokes.count >= Self.maximumKeptStrokes { drawnStrokes.removeFirst(drawnStrokes.count - Self.maximumKeptStrokes + 1) }
        drawnStrokes.append(stroke)
    }

    /// Appends the events in ``outbox`` to `events` and empties it, keeping its capacity.
    mutating func handOver(into events: inout [GestureEvent]) {
        guard !outbox.isEmpty else { return }
        events.append(contentsOf: outbox)
        outbox.removeAll(keepingCapacity: true)
    }

    /// The events in ``outbox``, which is emptied.
    mutating func handOver() -> [GestureEvent] {
        var events: [GestureEvent] = []
        handOver(into: &events)
        return events
    }

    /// Runs the handler of the current state for `input`; what it emits goes to ``outbox``.
    mutating func dispatch(_ input: Input) {
        switch state {
        case .idle: handleIdle(input)
        case .undecided(let touch): handleUndecided(touch, input)
        case .holding(let hold): handleHolding(hold, input)
        case .swiping(let motion): handleSwiping(motion, input)
        case .pinching(let motion): handlePinching(motion, input)
        case .stroking(let drawing): handleStroking(drawing, input)
        case .ignoring(let ignored): handleIgnoring(ignored, input)
        }
    }

    /// `frame` as the state machine sees it: palms, hovering and non-finite contacts
    /// left out, and the finger count without palms.
    mutating func makeSnapshot(_ frame: GestureFrame, at time: Duration) -> Snapshot {
        var snapshot = Snapshot(time: time, fingers: 0, contacts: InlineList(), isButtonDown: frame.isButtonDown)
        var palms = 0
        var hovering = 0
        var fingerContacts = 0
        palmTurned = false
        let touchPressure = configuration.touchPressure(on: surface)
        if touchPressure != nil && !pressureReported, let minimum = surface.pressureRange?.lowerBound {
            pressureReported = frame.contacts.contains { ($0.pressure ?? minimum) > minimum }
        }
        for contact in frame.contacts {
            if let touchPressure, pressureReported, !touchedIDs.contains(contact.id) {
                // Not pressed yet: a finger or thumb hovering, not touching.
                if let pressure = contact.pressure, !(pressure >= touchPressure) {
                    hovering += 1
                    continue
                }
                if touchedIDs.capacity == 0 { touchedIDs.reserveCapacity(Self.maximumFingers * 2) }
                touchedIDs.append(contact.id)
            }
            if !(liftedPalms.isEmpty && palmPositions.isEmpty) && landingTime(of: contact.id) == nil
                && !palmIDs.contains(contact.id)
                && isPalmLandingAgain(at: contact.position, time: time)
            {
                palmIDs.append(contact.id)  // a palm the pad lost and found again under a new id
            }
            if contact.isPalm && !palmIDs.contains(contact.id) {
                palmIDs.append(contact.id)
                // Counted as a finger until now: what it did was the palm's.
                if latestSnapshot.contacts.contains(where: { $0.id == contact.id }) { palmTurned = true }
            }
            if !palmIDs.isEmpty && palmIDs.contains(contact.id) {
                palms += 1
                continue
            }
            guard contact.position.isFinite else {
                report(.nonFiniteContact, at: time, "contact \(contact.id) has a NaN or infinite position; it is left out.")
                continue
            }
            fingerContacts += 1
            // More contacts than a snapshot keeps are more fingers than a gesture has: counted, not kept.
            guard snapshot.contacts.append(TransformState.Contact(id: contact.id, position: contact.position)) else { continue }
            if let pressure = contact.pressure, pressure.isFinite {
                // Pressures line up with contacts; none are kept for devices without.
                while snapshot.pressures.count < snapshot.contacts.count - 1 { snapshot.pressures.append(nil) }
                snapshot.pressures.append(pressure)
            }
        }
        if !snapshot.pressures.isEmpty {
            while snapshot.pressures.count < snapshot.contacts.count { snapshot.pressures.append(nil) }
        }
        // When each contact landed; those that lifted are forgotten.
        var keptLandings = 0
        for index in contactLandings.indices where frame.contacts.contains(where: { $0.id == contactLandings[index].id }) {
            contactLandings[keptLandings] = contactLandings[index]
            keptLandings += 1
        }
        contactLandings.removeLast(contactLandings.count - keptLandings)
        for contact in frame.contacts where !contactLandings.contains(where: { $0.id == contact.id }) {
            if contactLandings.isEmpty { contactLandings.reserveCapacity(Self.maximumFingers * 2) }
            contactLandings.append((contact.id, time))
        }
        rememberPalms(frame, at: time)
        // A palm stays one, and a contact that touched stays touching, while it is down: forget those that lifted.
        Self.keepDown(&palmIDs, in: frame)
        Self.keepDown(&touchedIDs, in: frame)
        snapshot.fingers = max(frame.fingerCount - palms - hovering, fingerContacts, 0)
        return snapshot
    }

    /// Keeps of `ids` those of contacts still down in `frame`, in order, in place (no allocation a frame).
    private static func keepDown(_ ids: inout [Int], in frame: GestureFrame) {
        guard !ids.isEmpty else { return }
        var kept = 0
        for index in ids.indices where frame.contacts.contains(where: { $0.id == ids[index] }) {
            ids[kept] = ids[index]
            kept += 1
        }
        ids.removeLast(ids.count - kept)
    }

    /// Notes where the palms of `frame` are, and where and when those of
    /// the frame before that are gone from it lifted; forgets lifts older
    /// than ``Configuration/relandingGap``.
    mutating func rememberPalms(_ frame: GestureFrame, at time: Duration) {
        guard configuration.palmRelandingDistanceMillimeters > 0, configuration.relandingGap > .zero else { return }
        liftedPalms.removeAll { time - $0.time >= configuration.relandingGap }
        for palm in palmPositions where !frame.contacts.contains(where: { $0.id == palm.id }) {
            if liftedPalms.capacity == 0 { liftedPalms.reserveCapacity(Self.maximumFingers * 2) }
            liftedPalms.append((palm.position, time))
        }
        palmPositions.removeAll(keepingCapacity: true)
        guard !palmIDs.isEmpty else { return }
        for contact in frame.contacts where palmIDs.contains(contact.id) && contact.position.isFinite {
            if palmPositions.capacity == 0 { palmPositions.reserveCapacity(Self.maximumFingers * 2) }
            palmPositions.append((contact.id, contact.position))
        }
    }

    /// Whether a contact landing at `position` at `time` is a palm coming
    /// back under a new id: within ``Configuration/palmRelandingDistanceMillimeters``
    /// of a palm that lifted there within ``Configuration/relandingGap``, or
    /// of one still down (the pad reports the new id a frame before it ends
    /// the old one).
    func isPalmLandingAgain(at position: Point, time: Duration) -> Bool {
        let distance = configuration.palmRelandingDistanceMillimeters
        guard distance > 0, configuration.relandingGap > .zero else { return false }
        return liftedPalms.contains { time - $0.time < configuration.relandingGap && $0.position.distance(to: position) <= distance }
            || palmPositions.contains { $0.position.distance(to: position) <= distance }
    }

    mutating func emit(_ event: GestureEvent) {
        outbox.append(event)
    }

    mutating func report(_ kind: Diagnostic.Kind, at time: Duration, _ message: String) {
        diagnostics.append(Diagnostic(kind: kind, time: time, state: state.name, message: message))
    }

    /// Records that the current state has no transition for `input`.
    mutating func unexpected(_ input: Input) {
        report(.unexpectedInput, at: input.time, "\(input.name) is not expected in \(state.name.rawValue); it is ignored.")
    }

    /// Feeds a completed swipe to the sequence matcher and emits what fires.
    mutating func feedSequence(_ direction: SwipeDirection, fingers: Int, at time: Duration) {
        guard sequenceMatcher != nil else { return }
        latestSwipeFingers = fingers
        for match in sequenceMatcher!.feed(direction, at: time) {
            emit(GestureEvent(type: .sequence, time: time, fingers: fingers, name: match.name))
        }
    }

    /// Fires the sequence waiting for a continuation whose wait ends at `time`.
    mutating func fireWaitingSequences(at time: Duration) {
        guard sequenceMatcher != nil else { return }
        for match in sequenceMatcher!.advance(to: time) {
            emit(GestureEvent(type: .sequence, time: time, fingers: latestSwipeFingers, name: match.name))
        }
    }
}
