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
            guard !snapshot.isButtonDown else { return click(snapshot) }
            tap = TapTracker(snapshot)
            startTouch(snapshot, at: snapshot.time, holdPossible: true)
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
                && snapshot.time - baseline.time <= configuration.approximatePositionSettleTime {
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
            emit(GestureEvent(type: .hold, phase: .begin, time: time, fingers: baseline.fingers))
            tap = nil
            state = .holding(Hold(
                fingers: baseline.fingers, landings: touch.landings, countChanged: nil))
        case .cancel:
            tap = nil
            state = .ignoring(Ignored(reason: .resynchronizing, fingers: latestSnapshot.fingers))
        case .finish:
            tap = nil
            state = .idle
        }
    }

    /// Decides, on a frame with the settled finger count, whether the
    /// fingers now make a gesture, and moves to its state.
    mutating func decide(_ touch: Touch, _ snapshot: Snapshot) {
        var touch = touch
        let fingers = baseline.fingers
        let moved = baseline.largestDisplacement(in: snapshot)
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
            state = .stroking(Drawing(
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

        let travel = baseline.travelMillimeters
        let shapeChange = baseline.spreadChangeMillimeters + baseline.arcMillimeters
        let swipeReady = travel >= configuration.swipeThresholdMillimeters(fingers: fingers)
            && travel >= configuration.swipeDominanceRatio * shapeChange
        let pinchReady = shapeChange >= configuration.pinchThresholdMillimeters
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
                hold.countChanged = hold.countChanged ?? snapshot.time
                baseline.interrupt(at: snapshot.time, settle: settleTime)
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
                if let direction = end.direction {
                    feedSequence(direction, fingers: motion.fingers, at: snapshot.time)
                }
                return
            }
            if snapshot.isButtonDown {
                emit(swipeEnd(motion, at: snapshot.time, cancelled: true))
                return click(snapshot)
            }
            guard updateMotion(&motion, with: snapshot) else { return state = .swiping(motion) }
            let translation = baseline.translation
            emit(GestureEvent(
                type: .swipe, phase: .update, time: snapshot.time, fingers: motion.fingers,
                dxMillimeters: translation.x, dyMillimeters: translation.y))
            state = .swiping(motion)
        case .deadline(let time):
            guard motion.countChanged != nil else { return unexpected(input) }
            emit(swipeEnd(motion, at: time, cancelled: true))
            restart(at: time, countChanged: motion.countChanged, holdPossible: false)
        case .cancel(let time):
            emit(swipeEnd(motion, at: time, cancelled: true))
            state = .ignoring(Ignored(reason: .resynchronizing, fingers: latestSnapshot.fingers))
        case .finish(let time):
            emit(swipeEnd(motion, at: time, cancelled: true))
            state = .idle
        }
    }

    func swipeEnd(_ motion: Motion, at time: Duration, cancelled: Bool) -> GestureEvent {
        let translation = baseline.translation
        return GestureEvent(
            type: .swipe, phase: .end, time: time, fingers: motion.fingers, cancelled: cancelled,
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
            emit(pinchEvent(motion, .end, at: time, cancelled: true))
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
            motion.countChanged = motion.countChanged ?? snapshot.time
            baseline.interrupt(at: snapshot.time, settle: settleTime)
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
                drawing.countChanged = drawing.countChanged ?? snapshot.time
                baseline.interrupt(at: snapshot.time, settle: settleTime)
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
        case .cancel:
            tap = nil
            state = .ignoring(Ignored(reason: .resynchronizing, fingers: latestSnapshot.fingers))
        case .finish:
            tap = nil
            state = .idle
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
        case .cancel:
            tap = nil
            state = .ignoring(Ignored(reason: .resynchronizing, fingers: latestSnapshot.fingers))
        case .finish:
            tap = nil
            state = .idle
        }
    }

    // MARK: helpers

    /// Starts an undecided touch from `snapshot` at `time`.
    mutating func startTouch(_ snapshot: Snapshot, at time: Duration, holdPossible: Bool) {
        guard snapshot.fingers > 0 else { return state = .idle }
        guard snapshot.fingers <= Self.maximumFingers else {
            tap = nil
            state = .ignoring(Ignored(reason: .tooManyFingers, fingers: snapshot.fingers))
            return
        }
        baseline = Baseline(snapshot, at: time)
        state = .undecided(Touch(
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

    /// Ends the touch whose fingers all lifted at `time`: emits a tap when
    /// ``TapTracker`` says it was one. Returns whether it did.
    @discardableResult
    mutating func endTouch(at time: Duration) -> Bool {
        defer { tap = nil }
        guard let tap, let fingers = tap.tapFingers(allLiftedAt: time, configuration, approximate: surface.positionsAreApproximate)
        else { return false }
        emit(GestureEvent(type: .tap, time: time, fingers: fingers))
        return true
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
