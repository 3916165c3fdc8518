#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// One handler per state. Each one switches over every input, so the compiler
// checks that no (state, input) pair is forgotten; a pair that cannot happen
// is reported with `unexpected(_:)` and changes nothing.

extension GestureEngine {
    // MARK: idle

    mutating func handleIdle(_ input: Input) {
        switch input {
        case .frame(let snapshot):
            guard snapshot.fingers > 0 else { return }
            // Landing within the relanding gap of the last lift: the contact before,
            // found again (a palm the pad lost). The 1-finger tap waiting out the gap
            // (`pendingTap`; fired already once the gap was over) was none, this touch
            // taps nothing, and it holds nothing.
            let relanded = lastLift.map { snapshot.time - $0 < configuration.relandingGap } ?? false
            if relanded { pendingTap = nil }
            guard !snapshot.isButtonDown else { return click(snapshot) }
            tap = TapTracker(snapshot)
            if relanded { tap?.ruleOut() }
            startTouch(snapshot, at: snapshot.time, holdPossible: !relanded)
        case .deadline:
            unexpected(input)  // idle has no timer
        case .cancel, .finish:
            break
        }
    }

    // MARK: undecided

    mutating func handleUndecided(_ touch: Touch, _ input: Input) {
        switch input {
        case .frame(let snapshot):
            var touch = touch
            if snapshot.fingers == 0 {
                endTouch(at: snapshot.time)
                state = .idle
                return
            }
            guard !snapshot.isButtonDown else { return click(snapshot) }
            if snapshot.fingers != baseline.fingers {
                if snapshot.fingers < baseline.fingers { touch.holdPossible = false }
                guard snapshot.fingers <= Self.maximumFingers else {
                    tap = nil
                    state = .ignoring(Ignored(reason: .tooManyFingers, fingers: snapshot.fingers))
                    return
                }
                baseline = Baseline(snapshot, at: snapshot.time)
                for index in snapshot.contacts.indices {
                    let contact = snapshot.contacts[index]
                    // An approximate position describes the new set of fingers:
                    // it starts again, so its jump is no movement.
                    guard touch.landings[contact.id] == nil || surface.positionsAreApproximate else { continue }
                    touch.landings.set(contact.position, for: contact.id, touching: snapshot.contacts)
                }
                state = .undecided(touch)
                return
            }
            if surface.positionsAreApproximate
                && snapshot.time - baseline.time <= configuration.approximatePositionSettleTime
            {
                // Still settling after the count changed: the fingers start from here.
                baseline = Baseline(snapshot, at: baseline.time)
                for index in snapshot.contacts.indices {
                    touch.landings.set(snapshot.contacts[index].position, for: snapshot.contacts[index].id, touching: snapshot.contacts)
                }
                state = .undecided(touch)
                return
            }
            baseline.update(snapshot, configuration)
            for index in snapshot.contacts.indices where touch.landings[snapshot.contacts[index].id] == nil {
                touch.landings.set(snapshot.contacts[index].position, for: snapshot.contacts[index].id, touching: snapshot.contacts)
            }
            decide(touch, snapshot)
        case .deadline(let time):
            guard touch.holdPossible else { return unexpected(input) }
            // Fingers creeping slowly (under the motion threshold per finger
            // count, over the one-finger one) are starting to move, not resting.
            guard baseline.largestDisplacement(in: latestSnapshot) < configuration.motionThresholdMillimeters else {
                var touch = touch
                touch.holdPossible = false
                state = .undecided(touch)
                return
            }
            guard !landedInSidePalmZones(baseline.transform.current, touch.landings) else {
                // A palm or thumb resting at the side of the pad holds nothing.
                var touch = touch
                touch.holdPossible = false
                state = .undecided(touch)
                return
            }
            emit(GestureEvent(type: .hold, phase: .begin, time: time, fingers: baseline.fingers))
            tap = nil
            state = .holding(
                Hold(
                    fingers: baseline.fingers, landings: touch.landings, countChanged: nil))
        case .cancel, .finish:
            drop(input)
        }
    }

    /// Decides, on a frame with the settled finger count, whether the
    /// fingers now make a gesture, and moves to its state.
    mutating func decide(_ touch: Touch, _ snapshot: Snapshot) {
        var touch = touch
        let fingers = baseline.fingers
        let moved =
            baseline.largestDisplacement(in: snapshot)
            >= configuration.motionThresholdMillimeters(fingers: fingers)
        if moved { touch.holdPossible = false }

        if fingers == configuration.strokeFingers(on: surface.kind) {
            guard moved else { return state = .undecided(touch) }
            // A stroke starts moving within the hold delay of the landing: a
            // finger that rested first (a long press, a hover) and then moves
            // drags, as one finger scrolls on a touchscreen.
            guard snapshot.time - baseline.time <= configuration.holdDelay else {
                state = .ignoring(Ignored(reason: .pointerMotion, fingers: fingers))
                return
            }
            state = .stroking(
                Drawing(
                    fingers: fingers,
                    points: [baseline.startCentroid ?? baseline.centroid, baseline.centroid],
                    countChanged: nil))
            return
        }
        if fingers == 1 {
            guard moved else { return state = .undecided(touch) }
            state = .ignoring(Ignored(reason: .pointerMotion, fingers: 1))
            return
        }

        if let resting = restingContacts(in: snapshot) {
            // A thumb or palm resting while the others move together: left
            // out as a palm is, until it lifts, and the others decide alone,
            // their travel counted from where they settled.
            var start = Snapshot(time: baseline.time, fingers: 0, contacts: InlineList())
            var now = Snapshot(
                time: snapshot.time, fingers: snapshot.fingers - resting.count, contacts: InlineList(),
                isButtonDown: snapshot.isButtonDown)
            for index in snapshot.contacts.indices where !resting.contains(snapshot.contacts[index].id) {
                let contact = snapshot.contacts[index]
                now.contacts.append(contact)
                if index < snapshot.pressures.count { now.pressures.append(snapshot.pressures[index]) }
                start.contacts.append(.init(id: contact.id, position: baseline.start[contact.id] ?? contact.position))
            }
            start.fingers = now.fingers
            palmIDs.append(contentsOf: resting)
            baseline = Baseline(start, at: baseline.time)
            baseline.update(now, configuration)
            latestSnapshot = now
            return decide(touch, now)
        }

        let travel = baseline.travelMillimeters
        let shapeChange = baseline.spreadChangeMillimeters + baseline.arcMillimeters
        // A swipe begins once the centroid and every finger have moved the
        // begin threshold (libinput: both touches past 1.5 mm) in a finger
        // count that has lasted the finger-change debounce, or the centroid
        // the swipe threshold: fingers sliding as they lift off a tap move
        // the centroid but not every finger, and a hand whose fingers land
        // one after another (a third 40 ms after two, already moving) has
        // not yet said how many fingers it swipes with.
        let begin = configuration.swipeBeginThresholdMillimeters(fingers: fingers, on: surface)
        let countSettled = snapshot.time - baseline.time >= configuration.fingerChangeDebounce
        let swipeReady =
            (travel >= configuration.swipeThresholdMillimeters(fingers: fingers)
                || (countSettled && travel >= begin && baseline.smallestDisplacement(in: snapshot) >= begin))
            && travel >= configuration.swipeDominanceRatio * shapeChange
        let pinchReady =
            shapeChange >= configuration.pinchThresholdMillimeters
            && (abs(baseline.transform.scale - 1) >= configuration.pinchScaleThreshold
                || abs(baseline.transform.rotationDegrees) >= configuration.rotationThresholdDegrees)
        if swipeReady {
            if fingers == 2 && !configuration.twoFingerSwipes {
                state = .ignoring(Ignored(reason: .scrolling, fingers: fingers))
                return
            }
            let edge = edge(of: touch, travel: baseline.translation)
            emit(GestureEvent(type: .swipe, phase: .begin, time: snapshot.time, fingers: fingers, edge: edge))
            tap = nil
            state = .swiping(Motion(fingers: fingers, edge: edge, countChanged: nil))
        } else if pinchReady {
            emit(GestureEvent(type: .pinch, phase: .begin, time: snapshot.time, fingers: fingers))
            tap = nil
            state = .pinching(Motion(fingers: fingers, edge: nil, countChanged: nil))
        } else {
            state = .undecided(touch)
        }
    }

    /// The contacts of `snapshot` that rest while all the others move
    /// together: a thumb or palm beside fingers that scroll or swipe. Each
    /// resting one is within the motion threshold of where the fingers
    /// settled; the others have each moved
    /// ``Configuration/restingContactMotionMillimeters`` from there, their
    /// directions within ``restingContactAgreementDegrees`` of each other.
    /// When fewer than two are seen moving (one finger beside a still one,
    /// or a pad with fewer slots than fingers, whose other fingers are only
    /// counted), nothing says the still one is no pivot of a pinch, so each
    /// resting one must also have landed ``Configuration/holdDelay`` or more
    /// before the moving ones, or rest in the thumb zone along the lower
    /// edge (``Configuration/thumbZone(on:)``). Nil when there is none.
    func restingContacts(in snapshot: Snapshot) -> [Int]? {
        let fingers = baseline.fingers
        let minimum = configuration.restingContactMotionMillimeters
        // Thumbs and palms rest on touchpads; on a screen every finger is meant.
        // Fingers beyond the slots (BTN_TOOL_TRIPLETAP on a 2-slot pad) are
        // counted but have no position: the seen ones decide.
        guard surface.kind == .touchpad, minimum > 0, fingers >= 2, snapshot.contacts.count <= fingers else { return nil }
        let still = configuration.motionThresholdMillimeters(fingers: fingers)
        var resting: [Int] = []
        var moves: [Point] = []
        var movingLanded = Duration.zero
        var movingLowest = -Double.infinity
        for index in snapshot.contacts.indices {
            let contact = snapshot.contacts[index]
            guard let origin = baseline.start[contact.id] else { return nil }
            let move = contact.position - origin
            let distance = Point.zero.distance(to: move)
            if distance < still {
                resting.append(contact.id)
            } else if distance >= minimum {
                moves.append(move)
                movingLanded = max(movingLanded, landingTime(of: contact.id) ?? .zero)
                movingLowest = max(movingLowest, origin.y)
            } else {
                return nil  // still deciding
            }
        }
        guard !resting.isEmpty, !moves.isEmpty else { return nil }
        if moves.count == 1 {
            // One finger seen moving beside a still one is a pinch about it
            // too, unless the still one rested well before the finger landed
            // or rests where a thumb does: in the lower edge's thumb zone,
            // down before the finger, below a finger that moves from above
            // it (two fingers scrolling up from the lower edge land and
            // start one after the other, the lower one last).
            let zone = configuration.thumbZone(on: surface).map { surface.heightMillimeters - $0 }
            guard
                resting.allSatisfy({ id in
                    guard let landed = landingTime(of: id) else { return false }
                    if movingLanded - landed >= configuration.holdDelay { return true }
                    guard let zone, let y = baseline.start[id]?.y else { return false }
                    return y > zone && movingLowest <= zone && landed <= movingLanded
                })
            else { return nil }
        }
        let agreement = cos(Self.restingContactAgreementDegrees * Double.pi / 180)
        for (a, b) in zip(moves, moves.dropFirst()) {
            let dot = a.x * b.x + a.y * b.y
            guard dot >= agreement * Point.zero.distance(to: a) * Point.zero.distance(to: b) else { return nil }
        }
        return resting
    }

    /// Whether every one of `contacts` landed (by `landings`) in the side
    /// palm zones of the surface (``Configuration/palmEdgeZone(on:)``): a
    /// hand resting beside the pad, which neither taps nor holds. False
    /// when there is no zone, no contact or a landing is unknown.
    func landedInSidePalmZones(_ contacts: InlineList<TransformState.Contact>, _ landings: ContactPositions) -> Bool {
        guard let zone = configuration.palmEdgeZone(on: surface), !contacts.isEmpty else { return false }
        return contacts.allSatisfy { contact in
            guard let x = landings[contact.id]?.x else { return false }
            return x < zone || x > surface.widthMillimeters - zone
        }
    }

    /// When the contact `id`, down now, landed.
    func landingTime(of id: Int) -> Duration? {
        contactLandings.first { $0.id == id }?.time
    }

    /// How far apart, in degrees, the directions of fingers moving beside a
    /// resting contact may be for them to move together (libinput compares
    /// two touches in 8 sectors of 45 degrees).
    static let restingContactAgreementDegrees = 45.0

    // MARK: holding

    mutating func handleHolding(_ hold: Hold, _ input: Input) {
        switch input {
        case .frame(let snapshot):
            var hold = hold
            if snapshot.fingers == 0 {
                emit(GestureEvent(type: .hold, phase: .end, time: snapshot.time, fingers: hold.fingers, cancelled: false))
                state = .idle
                return
            }
            if snapshot.isButtonDown {
                emit(GestureEvent(type: .hold, phase: .end, time: snapshot.time, fingers: hold.fingers, cancelled: true))
                return click(snapshot)
            }
            if snapshot.fingers != hold.fingers {
                countChanged(&hold.countChanged, at: snapshot.time)
                state = .holding(hold)
                return
            }
            hold.countChanged = nil
            baseline.update(snapshot, configuration)
            let threshold = configuration.motionThresholdMillimeters(fingers: hold.fingers)
            guard baseline.largestDisplacement(in: snapshot) >= threshold else {
                state = .holding(hold)
                return
            }
            // Motion ends the hold (as in libinput) and may begin a gesture
            // on this very frame: the travel counts from where the hold began.
            emit(GestureEvent(type: .hold, phase: .end, time: snapshot.time, fingers: hold.fingers, cancelled: true))
            let touch = Touch(landings: hold.landings, holdPossible: false)
            decide(touch, snapshot)
        case .deadline(let time):
            guard hold.countChanged != nil else { return unexpected(input) }
            emit(GestureEvent(type: .hold, phase: .end, time: time, fingers: hold.fingers, cancelled: true))
            restart(at: time, countChanged: hold.countChanged, holdPossible: latestSnapshot.fingers > hold.fingers)
        case .cancel(let time):
            emit(GestureEvent(type: .hold, phase: .end, time: time, fingers: hold.fingers, cancelled: true))
            state = .ignoring(Ignored(reason: .resynchronizing, fingers: latestSnapshot.fingers))
        case .finish(let time):
            emit(GestureEvent(type: .hold, phase: .end, time: time, fingers: hold.fingers, cancelled: true))
            state = .idle
        }
    }

    // MARK: swiping

    mutating func handleSwiping(_ motion: Motion, _ input: Input) {
        switch input {
        case .frame(let snapshot):
            var motion = motion
            if snapshot.fingers == 0 {
                let end = swipeEnd(motion, at: snapshot.time, cancelled: false)
                emit(end)
                state = .idle
                if end.cancelled == false, let direction = end.direction {
                    feedSequence(direction, fingers: motion.fingers, at: snapshot.time)
                }
                return
            }
            if snapshot.isButtonDown {
                emit(swipeEnd(motion, at: snapshot.time, cancelled: true))
                return click(snapshot)
            }
            guard updateMotion(&motion, with: snapshot) else { return state = .swiping(motion) }
            motion.farthest = max(motion.farthest, baseline.travelMillimeters)
            let translation = baseline.translation
            emit(
                GestureEvent(
                    type: .swipe, phase: .update, time: snapshot.time, fingers: motion.fingers,
                    dxMillimeters: translation.x, dyMillimeters: translation.y))
            state = .swiping(motion)
        case .deadline(let time):
            guard motion.countChanged != nil else { return unexpected(input) }
            // Fingers lifting one after another, down to one, end the swipe
            // (a scroll's fingers seldom lift together, and one may run off
            // the edge; one finger left swipes nothing); a finger joining,
            // or lifting while two or more go on, cancels it.
            let lifted = latestSnapshot.fingers < motion.fingers && latestSnapshot.fingers <= 1
            let end = swipeEnd(motion, at: time, cancelled: !lifted)
            emit(end)
            if end.cancelled == false, let direction = end.direction { feedSequence(direction, fingers: motion.fingers, at: time) }
            restart(at: time, countChanged: motion.countChanged, holdPossible: false)
        case .cancel(let time):
            emit(swipeEnd(motion, at: time, cancelled: true))
            state = .ignoring(Ignored(reason: .resynchronizing, fingers: latestSnapshot.fingers))
        case .finish(let time):
            emit(swipeEnd(motion, at: time, cancelled: true))
            state = .idle
        }
    }

    /// The end of the swipe `motion` at `time`: cancelled when `cancelled`,
    /// or when it has not travelled the swipe threshold (it began at
    /// ``Configuration/swipeBeginThresholdMillimeters``: a short scroll
    /// that stopped there was no swipe).
    func swipeEnd(_ motion: Motion, at time: Duration, cancelled: Bool) -> GestureEvent {
        let translation = baseline.translation
        let farthest = max(motion.farthest, baseline.travelMillimeters)
        let short = farthest < configuration.swipeThresholdMillimeters(fingers: motion.fingers)
        return GestureEvent(
            type: .swipe, phase: .end, time: time, fingers: motion.fingers, cancelled: cancelled || short,
            direction: configuration.swipeDirection.direction(dx: translation.x, dy: translation.y),
            dxMillimeters: translation.x, dyMillimeters: translation.y, edge: motion.edge)
    }

    // MARK: pinching

    mutating func handlePinching(_ motion: Motion, _ input: Input) {
        switch input {
        case .frame(let snapshot):
            var motion = motion
            if snapshot.fingers == 0 {
                emit(pinchEvent(motion, .end, at: snapshot.time, cancelled: false))
                state = .idle
                return
            }
            if snapshot.isButtonDown {
                emit(pinchEvent(motion, .end, at: snapshot.time, cancelled: true))
                return click(snapshot)
            }
            guard updateMotion(&motion, with: snapshot) else { return state = .pinching(motion) }
            emit(pinchEvent(motion, .update, at: snapshot.time, cancelled: nil))
            state = .pinching(motion)
        case .deadline(let time):
            guard motion.countChanged != nil else { return unexpected(input) }
            // As for swipes: fingers lifting one after another, down to one, end the pinch.
            emit(
                pinchEvent(
                    motion, .end, at: time,
                    cancelled: latestSnapshot.fingers >= motion.fingers || latestSnapshot.fingers > 1))
            restart(at: time, countChanged: motion.countChanged, holdPossible: false)
        case .cancel(let time):
            emit(pinchEvent(motion, .end, at: time, cancelled: true))
            state = .ignoring(Ignored(reason: .resynchronizing, fingers: latestSnapshot.fingers))
        case .finish(let time):
            emit(pinchEvent(motion, .end, at: time, cancelled: true))
            state = .idle
        }
    }

    func pinchEvent(_ motion: Motion, _ phase: GestureEvent.Phase, at time: Duration, cancelled: Bool?) -> GestureEvent {
        GestureEvent(
            type: .pinch, phase: phase, time: time, fingers: motion.fingers, cancelled: cancelled,
            scale: baseline.transform.scale, angleDegrees: baseline.transform.rotationDegrees)
    }

    /// Follows a swipe or pinch to `snapshot` (which has fingers down), or
    /// starts or stops the finger-change debounce. Returns whether the
    /// fingers moved, so that an update is due.
    mutating func updateMotion(_ motion: inout Motion, with snapshot: Snapshot) -> Bool {
        guard snapshot.fingers == motion.fingers else {
            countChanged(&motion.countChanged, at: snapshot.time)
            return false
        }
        motion.countChanged = nil
        return baseline.update(snapshot, configuration) != .identity
    }

    /// How long approximate positions settle after a finger change: the
    /// configured time on semi-multitouch surfaces, nil on others.
    var settleTime: Duration? {
        surface.positionsAreApproximate ? configuration.approximatePositionSettleTime : nil
    }

    // MARK: stroking

    mutating func handleStroking(_ drawing: Drawing, _ input: Input) {
        switch input {
        case .frame(let snapshot):
            var drawing = drawing
            if snapshot.fingers == 0 {
                // A finger that barely moved while landing and lifting tapped.
                if !endTouch(at: snapshot.time) { recognizeStroke(drawing, at: snapshot.time) }
                state = .idle
                return
            }
            guard !snapshot.isButtonDown else { return click(snapshot) }
            if snapshot.fingers != drawing.fingers {
                countChanged(&drawing.countChanged, at: snapshot.time)
                state = .stroking(drawing)
                return
            }
            drawing.countChanged = nil
            if baseline.update(snapshot, configuration) != .identity {
                drawing.points.append(baseline.centroid)
            }
            state = .stroking(drawing)
        case .deadline(let time):
            // A stroke has no begin event, so abandoning it emits nothing.
            guard drawing.countChanged != nil else { return unexpected(input) }
            restart(at: time, countChanged: drawing.countChanged, holdPossible: false)
        case .cancel, .finish:
            drop(input)
        }
    }

    /// Judges the stroke `drawing` drew by the ``StrokeRule`` of the
    /// configuration (``Configuration/strokeRule``): emits it when it is
    /// unmistakable, and keeps it with its verdict for
    /// ``takeDrawnStrokes()`` either way.
    mutating func recognizeStroke(_ drawing: Drawing, at time: Duration) {
        let verdict = configuration.strokeRule.judge(drawing.points, with: recognizer)
        if let match = verdict.acceptedMatch {
            emit(GestureEvent(type: .stroke, time: time, fingers: drawing.fingers, template: match.name, score: match.score))
        }
        keep(DrawnStroke(time: time, fingers: drawing.fingers, points: drawing.points, verdict: verdict))
    }

    // MARK: ignoring

    mutating func handleIgnoring(_ ignored: Ignored, _ input: Input) {
        switch input {
        case .frame(let snapshot):
            if snapshot.fingers == 0 {
                // Pointer motion and scrolling emit nothing, so fingers that
                // jittered past the motion threshold may still have tapped.
                endTouch(at: snapshot.time)
                state = .idle
                return
            }
            switch ignored.reason {
            case .pointerMotion, .scrolling:
                guard !snapshot.isButtonDown else { return click(snapshot) }
                // Another finger count may make a gesture (as libinput goes
                // back to its unknown state).
                if snapshot.fingers != ignored.fingers {
                    startTouch(snapshot, at: snapshot.time, holdPossible: true)
                }
            case .tooManyFingers, .resynchronizing, .clicking:
                break
            }
        case .deadline:
            unexpected(input)  // ignoring has no timer
        case .cancel, .finish:
            drop(input)
        }
    }

    // MARK: helpers

    /// Starts an undecided touch from `snapshot` at `time`.
    /// The finger count left the gesture's at `time`: `since` keeps when it
    /// first did (the debounce counts from there), and the baseline waits for
    /// the contacts to settle before it measures motion again.
    mutating func countChanged(_ since: inout Duration?, at time: Duration) {
        since = since ?? time
        baseline.interrupt(at: time, settle: settleTime)
    }

    /// Ends, on `.cancel` or `.finish`, a touch that has begun nothing to
    /// end (undecided, stroking, ignoring): no tap; after lost events the
    /// fingers still down are ignored until they lift, at the end of the
    /// input the engine is idle.
    mutating func drop(_ input: Input) {
        tap = nil
        if case .finish = input {
            state = .idle
        } else {
            state = .ignoring(Ignored(reason: .resynchronizing, fingers: latestSnapshot.fingers))
        }
    }

    mutating func startTouch(_ snapshot: Snapshot, at time: Duration, holdPossible: Bool) {
        guard snapshot.fingers > 0 else { return state = .idle }
        guard snapshot.fingers <= Self.maximumFingers else {
            tap = nil
            state = .ignoring(Ignored(reason: .tooManyFingers, fingers: snapshot.fingers))
            return
        }
        baseline = Baseline(snapshot, at: time)
        state = .undecided(
            Touch(
                landings: ContactPositions(snapshot.contacts),
                holdPossible: holdPossible && configuration.holds))
    }

    /// A physical button went down with fingers on the surface: the click is
    /// no tap and no gesture (the caller has ended one in progress,
    /// cancelled), and nothing starts until every finger lifts.
    mutating func click(_ snapshot: Snapshot) {
        tap = nil
        state = .ignoring(Ignored(reason: .clicking, fingers: snapshot.fingers))
    }

    /// Ends the touch whose fingers all lifted at `time`: when
    /// ``TapTracker`` says it was a tap, a 1-finger tap waits out
    /// ``Configuration/relandingGap`` (``pendingTap``), a tap of more
    /// fingers is emitted at once (as every tap when the gap is 0).
    /// Returns whether it was a tap.
    @discardableResult
    mutating func endTouch(at time: Duration) -> Bool {
        defer { tap = nil }
        guard let tap, let fingers = tap.tapFingers(allLiftedAt: time, configuration, on: surface)
        else { return false }
        let event = GestureEvent(type: .tap, time: time, fingers: fingers)
        // A palm comes back as one contact: a 1-finger tap waits to see it does not.
        if fingers == 1 && configuration.relandingGap > .zero { pendingTap = event } else { emit(event) }
        return true
    }

    /// A contact counted as a finger so far was flagged a palm at `time`
    /// (its pressure or size grew past the device's threshold a few frames
    /// after it landed): what it did was the palm's. It is no tap, and a
    /// gesture it was part of (a hold the resting palm began, a swipe or
    /// pinch it moved) ends cancelled; the fingers left start afresh, so
    /// that two fingers scrolling beside the palm still swipe.
    mutating func palmRevealed(at time: Duration) {
        tap = nil
        switch state {
        case .idle, .undecided, .ignoring:
            return
        case .holding(let hold):
            emit(GestureEvent(type: .hold, phase: .end, time: time, fingers: hold.fingers, cancelled: true))
        case .swiping(let motion):
            emit(swipeEnd(motion, at: time, cancelled: true))
        case .pinching(let motion):
            emit(pinchEvent(motion, .end, at: time, cancelled: true))
        case .stroking:
            break  // a stroke emits nothing until it ends
        }
        restart(at: time, countChanged: nil, holdPossible: false)
    }

    /// Starts afresh from the latest frame after a gesture was cancelled at
    /// `time` by a finger change that began at `countChanged`: never a tap.
    /// The fingers have rested in their new count since the change, so the
    /// hold delay counts from then (a third finger joining a two-finger hold
    /// makes a three-finger hold `holdDelay` after it landed), unless that
    /// would put the hold before `time`.
    mutating func restart(at time: Duration, countChanged: Duration?, holdPossible: Bool) {
        var start = time
        if let countChanged, countChanged + configuration.holdDelay > time { start = countChanged }
        tap = nil
        startTouch(latestSnapshot, at: start, holdPossible: holdPossible)
    }

    /// The edge a swipe starting from `touch` and moving by `travel` comes
    /// from: the fingers landed (their centroid) inside the edge zone, and
    /// they move away from that edge; in a corner, the edge they move away
    /// from most.
    func edge(of touch: Touch, travel: Point) -> GestureEvent.Edge? {
        let zone = configuration.edgeZoneMillimeters
        guard zone > 0 else { return nil }
        let current = baseline.transform.current.array.compactMap { touch.landings[$0.id] }
        guard let start = current.isEmpty ? baseline.startCentroid : UnistrokePipeline.centroid(current)
        else { return nil }
        let width = surface.widthMillimeters, height = surface.heightMillimeters
        let candidates: [(GestureEvent.Edge, Bool, Double)] = [
            (.left, start.x <= zone, travel.x),
            (.right, width > 0 && start.x >= width - zone, -travel.x),
            (.top, start.y <= zone, travel.y),
            (.bottom, height > 0 && start.y >= height - zone, -travel.y),
        ]
        var best: (edge: GestureEvent.Edge, inward: Double)?
        for (edge, inside, inward) in candidates where inside && inward > 0 {
            if best == nil || inward > best!.inward { best = (edge, inward) }
        }
        return best?.edge
    }
}
