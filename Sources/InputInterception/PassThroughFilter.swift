import GestureRecognition
import TouchInput

/// Decides which frames of an intercepted touch device reach its clone (and
/// so the desktop): all of them, in their frames, except those of claimed
/// gestures. Pure: each frame's events, the frame the pipeline decoded from
/// them, the engine's gestures and its `GestureEngine/Status` (its finger
/// count, palms left out as it leaves them out, and its decision) in; frames
/// to write out. It counts nothing and decodes nothing itself, and its
/// thresholds are the engine's own configuration, so it follows the engine.
/// ``InterceptedDevice`` drives it (with the pipeline and the pacer);
/// ``DeviceLoop`` does the reading, grabbing and writing.
///
/// The hand-over, in short (Docs/Interception.md has the whole design):
/// - With nothing claimed, every frame passes at once; so do frames with one
///   finger, so pointer motion is never held.
/// - A second finger landing while a claimed gesture needs more fingers than
///   are down, or a finger count some claim applies to, starts **holding**:
///   frames wait while the engine decides. Fingers below every claimed count
///   go out after ``Policy/fingerWait`` without another landing, or when
///   they move past the motion threshold (scrolling), or at a button press.
/// - A claimed begin (or tap) **claims**: the held frames are dropped and
///   nothing reaches the clone until every finger lifts. An unclaimed
///   decision flushes the held frames in order.
/// - A contact the clone already saw is left down, still, until every finger
///   lifts, and then lifted no sooner than ``Policy/tapSafeDuration`` after
///   it landed (**settling**), so that it never reads as a tap.
/// - A touch the clone saw late, that did not move, is lifted on the clone
///   no sooner than it lasted on the device (settling too), so that it is
///   a tap on the clone exactly when it is one on the device.
///
/// The clone's state is tracked (`EvdevState`): a frame goes out verbatim
/// while the clone is in step with the device, and as the difference
/// (`EvdevState.events(reaching:)`) once it is not, since the kernel drops
/// values a device repeats and the clone missed some. Every event out carries
/// the device time of the frame it stands for (made frames are stamped), so
/// that `ClonePacer` can space a burst.
///
///     var device = InterceptedDevice(device: pad, setup: .init(), originMicroseconds: 0,
///                                    policy: .init(claims: [.init(gesture: .swipe, fingers: 3)]))!
///     let step = device.process(frame, nowMicroseconds: frame.last!.microseconds)
///     for out in step.cloneFrames { try clone.writeFrame(out) }
///
/// - Complexity: O(events of the frame + stored values) per frame; a flush is
///   O(held events).
public struct PassThroughFilter: Sendable {
    /// What the filter is doing.
    public enum Mode: String, Hashable, Sendable {
        /// Frames go out as they come.
        case passing
        /// Frames wait for a decision.
        case holding
        /// A claimed gesture: nothing goes out until every finger lifts.
        case claimed
        /// Every finger lifted after a claim; the clone's contacts are lifted
        /// once they have been down for ``Policy/tapSafeDuration``.
        case settling
    }

    /// The device intercepted.
    public let device: DeviceDescription
    /// The configuration of the engine the filter follows: its motion
    /// threshold, tap movement limit, finger-change debounce and swipe
    /// direction classifier are the filter's.
    public let engine: GestureEngine.Configuration
    /// What is claimed, and the timing; a new policy applies from the next
    /// touch (set it when ``isIdle``).
    public var policy: Policy
    /// What the filter is doing.
    public private(set) var mode: Mode = .passing
    /// The device's state after the latest frame.
    public private(set) var deviceState: EvdevState
    /// Whether the frames of the latest call let out a whole touch at once
    /// (held frames up to the last lift): they are best replayed at the
    /// device's own pace (`ClonePacer.enqueue(_:atOriginalPace:)`).
    public private(set) var releasedWholeTouch = false
    /// The clone's state: what the frames written out left it in.
    public private(set) var cloneState: EvdevState
    /// Why the mode last changed (or why frames last went out held).
    public private(set) var reason: Reason = .start
    /// Whether the device is a touchscreen: one finger is a touch in the
    /// application below it, not pointer motion, so a first finger waits too.
    public let isTouchscreen: Bool
    /// Whether the clone carries `ABS_MT_TOOL_TYPE` (``cloneDescription(of:)``),
    /// so that contacts it saw can end as palms, which libinput cancels
    /// rather than delivers.
    public let cancelsWithPalm: Bool

    /// Fingers down (the engine's count) and where the contacts it counts are.
    private var fingers = 0
    private var positions: [Int: Point] = [:]
    /// Whether a contact moved in the latest frame.
    private var movedLately = false
    private var buttons: Buttons = []
    private var held: [HeldFrame] = []
    private var hold: Hold?
    /// When the clone's current touch began, while it has one.
    private var cloneTouchSince: Int64?
    /// The device's touch: when it began, where each contact landed, and
    /// whether one moved past the tap movement limit.
    private var deviceTouchSince: Int64?
    private var landings: [Int: Point] = [:]
    private var touchMoved = false
    /// While passing: the most fingers down before the count last fell
    /// (and stayed above zero), and when; a landing back to at most that many
    /// soon after is a flicker, not a new gesture.
    private var lastDrop: (fingers: Int, at: Int64)?
    /// The device's latest finished touch: from, until, and whether it moved.
    private var lastTouch: (since: Int64, until: Int64, moved: Bool)?
    private var settleAt: Int64?
    /// The latest time seen, in microseconds (event clock).
    private var now: Int64 = 0
    private var lastDecision: GestureEngine.Decision = .noFingers
    private let flushBudget: Int
    /// Whether the frame being processed already went to the clone
    /// (``noteForwarded(_:)``), so that passing it writes nothing more.
    private var passedAhead = false

    /// A frame waiting for a decision, with the device's state around it.
    struct HeldFrame: Sendable {
        var events: [InputEvent]
        var before: EvdevState
        var after: EvdevState
        /// The device's time of the frame, in microseconds.
        var time: Int64

        /// Whether the frame lifts the device's last contact.
        var lifts: Bool { before.isTouching && !after.isTouching }
    }

    /// Why and since when frames are held.
    struct Hold: Sendable {
        var started: Int64
        var latestLanding: Int64
        /// Where each contact was when the count last changed.
        var anchors: [Int: Point]
        /// A swipe began whose claims all name a direction, and it has none yet.
        var pendingSwipe = false
        var buttonPressed = false
    }

    /// A filter for `device`, whose state is `deviceState` now (libevdev's, for
    /// a device opened with fingers down), following an engine configured
    /// with `engine`. The clone is taken to start as a virtual device made
    /// from it does: the device's absolute axes, no key down, no contact.
    init(
        device: DeviceDescription, deviceState: EvdevState = EvdevState(), policy: Policy = Policy(),
        engine: GestureEngine.Configuration
    ) {
        self.device = device
        self.engine = engine
        self.policy = policy
        self.deviceState = deviceState
        self.cloneState = Self.initialCloneState(of: deviceState)
        self.flushBudget = Self.readerBufferEvents(for: device) * 3 / 4
        self.isTouchscreen = device.kind == .touchscreen
        let clone = Self.cloneDescription(of: device)
        self.cancelsWithPalm =
            clone.supports(EV.ABS, ABS.MT_SLOT) && (clone.absInfo[ABS.MT_TOOL_TYPE].map { $0.maximum >= MT_TOOL.PALM } ?? false)
    }

    /// The description the clone of `device` is made from: the device's own,
    /// and, for a multitouch device with slots that has none, the axis
    /// `ABS_MT_TOOL_TYPE` (finger to palm). Every contact written to the
    /// clone is a finger, as the device's are, until the filter ends one the
    /// clone saw as a palm: libinput then cancels it (no tap, no click, a
    /// touchscreen's `TOUCH_CANCEL`, not `TOUCH_UP`). libinput reads the axis
    /// only for that; udev's classification and libinput's quirks and
    /// settings do not depend on it.
    public static func cloneDescription(of device: DeviceDescription) -> DeviceDescription {
        guard device.supports(EV.ABS, ABS.MT_SLOT), device.supports(EV.ABS, ABS.MT_TRACKING_ID),
            !device.supports(EV.ABS, ABS.MT_TOOL_TYPE)
        else { return device }
        var clone = device
        clone.codes[EV.ABS, default: []].insert(ABS.MT_TOOL_TYPE)
        clone.absInfo[ABS.MT_TOOL_TYPE] = AbsInfo(minimum: MT_TOOL.FINGER, maximum: MT_TOOL.PALM)
        return clone
    }

    /// The state of a virtual device created from a device in `state`:
    /// its absolute axes (not per slot) at their current values, nothing else.
    public static func initialCloneState(of state: EvdevState) -> EvdevState {
        var clone = EvdevState()
        for (key, value) in state.values where key.type == EV.ABS && key.slot < 0 && key.code != ABS.MT_SLOT {
            clone.apply(InputEvent(type: EV.ABS, code: key.code, value: value, microseconds: 0))
        }
        return clone
    }

    /// Whether no touch is in progress, so a new ``policy`` can take over.
    public var isIdle: Bool { mode == .passing && fingers == 0 }

    /// The earliest time (microseconds, the events' clock) at which the
    /// filter wants `advance(toMicroseconds:gestures:status:)`, or nil.
    public var nextDeadlineMicroseconds: Int64? {
        switch mode {
        case .holding:
            guard let hold else { return nil }
            var due = hold.started + Self.microseconds(policy.decisionLimit)
            let fingersDue = hold.latestLanding + Self.microseconds(policy.fingerWait)
            if fingersDue > now, !policy.claimedFingerCounts.contains(fingers) { due = min(due, fingersDue) }
            return due
        case .settling:
            return settleAt
        case .passing, .claimed:
            return nil
        }
    }

    /// Whether a frame of motion alone (no contact lands or lifts, no key
    /// changes: `InterceptedDevice.isMotion(_:)`) read next would pass
    /// verbatim whatever the engine makes of it, so that it may go to the
    /// clone at once, before the pipeline decodes it, and recognition never
    /// delays pointer motion: on a touchpad, while frames pass, with fewer
    /// fingers down than any claim counts, and the clone in step with the
    /// device. Such a frame is written ahead by the reader
    /// (``noteForwarded(_:)`` says so); ``process(_:touch:gestures:status:)``
    /// with the same frame writes it no second time (and if the engine's
    /// count reached a claimed one after all, it cancels the clone's
    /// contacts as for any frame that went out).
    var forwardsMotion: Bool {
        mode == .passing && !isTouchscreen && fingers > 0 && fingers < (policy.fewestClaimedFingers ?? .max)
            && cloneState.isSynchronized(with: deviceState)
    }

    /// Notes that `frame` (its events, ending in `SYN_REPORT`) went to the
    /// clone verbatim before ``process(_:touch:gestures:status:)`` takes it.
    mutating func noteForwarded(_ frame: [InputEvent]) {
        passedAhead = true
        cloneState.apply(frame)
    }

    /// Takes one frame read from the device (its events, ending in
    /// `SYN_REPORT`), the frame the pipeline decoded from them, the gestures
    /// the engine made of it and the engine's status after it; returns the
    /// frames to write to the clone, in order, each without its `SYN_REPORT`.
    mutating func process(
        _ frame: [InputEvent], touch: TouchFrame?, gestures: [GestureEvent],
        status: GestureEngine.Status
    ) -> [[InputEvent]] {
        now = max(now, frame.last?.microseconds ?? now)
        releasedWholeTouch = false
        var output = settleIfDue()
        let before = deviceState
        deviceState.apply(frame)
        let previousFingers = fingers
        let pressed = note(touch, status)
        let decision = status.decision
        if fingers == 0 {
            lastDrop = nil
        } else if mode == .passing && fingers < previousFingers {
            lastDrop = (max(previousFingers, lastDrop?.fingers ?? 0), now)
        }
        let current = HeldFrame(events: frame.filter { !$0.isSynReport }, before: before, after: deviceState, time: now)
        switch mode {
        case .claimed:
            if !deviceState.isTouching && fingers == 0 { output += endClaim() }
        case .settling:
            if fingers > 0 {
                output.append(catchUp(to: before))
                mode = .passing
                reason = .settled
                output += pass(current, previousFingers: previousFingers, pressed: pressed, gestures: gestures, decision: decision)
            }
        case .holding:
            held.append(current)
            noteHeld(previousFingers: previousFingers, pressed: pressed)
            output += decide(gestures, decision: decision)
        case .passing:
            output += pass(current, previousFingers: previousFingers, pressed: pressed, gestures: gestures, decision: decision)
        }
        lastDecision = decision
        passedAhead = false
        return output.filter { !$0.isEmpty }
    }

    /// Lets time pass to `microseconds` (the events' clock) with the gestures
    /// the engine's timers gave by then and its status: a hold may end, a
    /// claim begin, a settling clone be lifted.
    mutating func advance(
        toMicroseconds microseconds: Int64, gestures: [GestureEvent],
        status: GestureEngine.Status
    ) -> [[InputEvent]] {
        now = max(now, microseconds)
        releasedWholeTouch = false
        var output = settleIfDue()
        switch mode {
        case .holding:
            output += decide(gestures, decision: status.decision)
        case .passing:
            if let event = gestures.first(where: { isInProgress($0) && isClaimed($0) }) {
                output += claim(.claimed(event.type, fingers: event.fingers))
            } else if let why = holdReason(previousFingers: fingers, decision: status.decision) {
                output += startHold(why)
            }
        case .claimed, .settling:
            break
        }
        lastDecision = status.decision
        return output.filter { !$0.isEmpty }
    }

    /// Takes the frame the reader's resync gave after `SYN_DROPPED` (and the
    /// frame the pipeline decoded from it): held frames are dropped (they are
    /// incomplete) and the clone is brought to the device's state in one
    /// frame; a claim stays until every finger lifts.
    mutating func resynchronize(_ frame: [InputEvent], touch: TouchFrame?, status: GestureEngine.Status) -> [[InputEvent]] {
        now = max(now, frame.last?.microseconds ?? now)
        var output = settleIfDue()
        deviceState.apply(frame)
        _ = note(touch, status)
        switch mode {
        case .holding, .passing:
            held = []
            hold = nil
            if mode == .holding { reason = .resynchronized }
            mode = .passing
            output.append(catchUp(to: deviceState))
        case .claimed:
            if !deviceState.isTouching && fingers == 0 { output += endClaim() }
        case .settling:
            break
        }
        lastDecision = status.decision
        return output.filter { !$0.isEmpty }
    }

    /// Ends the interception: the clone is brought to the device's state
    /// (held frames are dropped, a settling contact lifted at once).
    mutating func finish() -> [[InputEvent]] {
        held = []
        hold = nil
        settleAt = nil
        if mode != .passing { reason = .finished }
        mode = .passing
        return [catchUp(to: deviceState)].filter { !$0.isEmpty }
    }

    // MARK: - The modes

    /// A frame while passing: a claimed gesture in progress cuts the clone
    /// off; a landing that may become a claimed gesture starts holding;
    /// anything else goes out.
    private mutating func pass(
        _ frame: HeldFrame, previousFingers: Int, pressed: Bool,
        gestures: [GestureEvent], decision: GestureEngine.Decision
    ) -> [[InputEvent]] {
        if let event = gestures.first(where: { isInProgress($0) && isClaimed($0) }) {
            return claim(.claimed(event.type, fingers: event.fingers))
        }
        guard let why = holdReason(previousFingers: previousFingers, decision: decision) else {
            if frame.lifts && defersLift() { return [] }
            return [forward(frame)]
        }
        let cancelled = startHold(why)
        held = [frame]
        noteHeld(previousFingers: 0, pressed: pressed)
        return cancelled + decide(gestures, decision: decision)
    }

    /// Whether the policy claims `event`, classifying a swipe's direction as the engine does.
    private func isClaimed(_ event: GestureEvent) -> Bool {
        policy.verdict(for: event, swipeDirection: engine.swipeDirection) == .claimed
    }

    /// Why frames from now on wait, or nil when they need not: fingers
    /// landed in a count some claim applies to; or, on a touchscreen (or a
    /// clone that cannot cancel its contacts), fewer landed than a claimed
    /// gesture needs (a touchpad's pass: the contacts the clone saw are
    /// cancelled if a claimed count lands); or, with a claimed count down,
    /// the engine starts deciding again, or fingers resting in an unclaimed
    /// hold start to move (a swipe or pinch may follow).
    private func holdReason(previousFingers: Int, decision: GestureEngine.Decision) -> Reason? {
        let counts = policy.claimedFingerCounts
        guard fingers > 0, let most = counts.max() else { return nil }
        if fingers > previousFingers && !flickered {
            if counts.contains(fingers) { return .landedInClaimedCount(fingers: fingers) }
            if fingers < most && (isTouchscreen || (fingers >= 2 && !cancelsWithPalm)) {
                return .landedBelowClaimedCount(fingers: fingers)
            }
        }
        guard counts.contains(fingers) else { return nil }
        if decision == .undecided && lastDecision != .undecided { return .engineDecidingAgain }
        return decision == .gesture(.hold) && movedLately ? .restingFingersMoved : nil
    }

    /// Whether the fingers down now came back within the debounce time
    /// after the count fell while frames passed (a finger flickered).
    private var flickered: Bool {
        guard let drop = lastDrop, fingers <= drop.fingers else { return false }
        return EventTime.microseconds(from: drop.at, to: now) <= Self.microseconds(engine.fingerChangeDebounce)
    }

    /// Starts holding, for `why`; with a claimed count down, the contacts the
    /// clone saw are cancelled first (``cancelClone()``), so that libinput
    /// neither holds, taps nor scrolls with them while the engine decides.
    private mutating func startHold(_ why: Reason) -> [[InputEvent]] {
        let cancelled = policy.claimedFingerCounts.contains(fingers) ? cancelClone() : []
        mode = .holding
        reason = why
        held = []
        hold = Hold(started: now, latestLanding: now, anchors: positions)
        return cancelled
    }

    /// Updates why frames are held after a frame was added.
    private mutating func noteHeld(previousFingers: Int, pressed: Bool) {
        guard var current = hold else { return }
        if fingers != previousFingers {
            if fingers > previousFingers { current.latestLanding = now }
            current.anchors = positions
        }
        for (id, position) in positions where current.anchors[id] == nil { current.anchors[id] = position }
        if pressed { current.buttonPressed = true }
        hold = current
    }

    /// Claims, releases or keeps holding, from the engine's events and decision.
    private mutating func decide(_ gestures: [GestureEvent], decision: GestureEngine.Decision) -> [[InputEvent]] {
        guard var current = hold else { return release(.liftedUndecided) }
        for event in gestures where isDecisive(event, pendingSwipe: current.pendingSwipe) {
            switch policy.verdict(for: event, swipeDirection: engine.swipeDirection) {
            case .claimed: return claim(.claimed(event.type, fingers: event.fingers))
            case .unclaimed: return release(.unclaimed(event.type, fingers: event.fingers))
            case .undecided: current.pendingSwipe = true
            }
        }
        hold = current
        if decision == .gesture(.stroke) {
            return policy.claimsStroke(fingers: fingers)
                ? claim(.claimed(.stroke, fingers: fingers)) : release(.unclaimed(.stroke, fingers: fingers))
        }
        if current.buttonPressed { return release(.buttonPressed) }
        if now - current.started >= Self.microseconds(policy.decisionLimit) { return release(.decisionLimit) }
        let claimedCount = policy.claimedFingerCounts.contains(fingers)
        switch decision {
        case .noFingers:
            return release(.liftedUndecided)
        case .tapPending(let tapFingers):
            // The engine's tap waits out its relanding gap: a claimed one keeps its frames held until it fires.
            let tap = GestureEvent(type: .tap, time: .zero, fingers: tapFingers)
            return policy.verdict(for: tap) == .claimed ? [] : release(.unclaimed(.tap, fingers: tapFingers))
        case .ignored(let why):
            return release(.ignored(why))
        case .undecided:
            if claimedCount { return [] }
            let most = policy.claimedFingerCounts.max() ?? 0
            guard fingers > 0 && fingers < most else { return release(.fingerWaitOver) }
            if hasMoved(current) { return release(.moved) }
            return now - current.latestLanding < Self.microseconds(policy.fingerWait) ? [] : release(.fingerWaitOver)
        case .gesture(let kind):
            return current.pendingSwipe || claimedCount ? [] : release(.unclaimed(kind, fingers: fingers))
        }
    }

    /// Whether an event decides a hold: a begin, a tap, or the swipe whose
    /// direction is awaited.
    private func isDecisive(_ event: GestureEvent, pendingSwipe: Bool) -> Bool {
        event.phase == .begin || event.type == .tap || (pendingSwipe && event.type == .swipe)
    }

    /// Whether an event belongs to a gesture under way (a begin or update).
    private func isInProgress(_ event: GestureEvent) -> Bool {
        event.phase == .begin || event.phase == .update
    }

    /// Whether the held fingers moved: one finger on a touchpad at all, more
    /// (or a touchscreen's one) past the motion threshold.
    private func hasMoved(_ hold: Hold) -> Bool {
        let limit = fingers <= 1 && !isTouchscreen ? 0 : engine.motionThresholdMillimeters(fingers: fingers)
        return positions.contains { id, position in
            hold.anchors[id].map { $0.distance(to: position) > limit } ?? false
        }
    }

    /// A claimed gesture: the held frames are dropped; the contacts the clone
    /// saw are cancelled (``cancelClone()``), or, on a clone that cannot
    /// cancel them, kept, still, until every finger lifts.
    private mutating func claim(_ why: Reason) -> [[InputEvent]] {
        held = []
        hold = nil
        mode = .claimed
        reason = why
        let cancelled = cancelClone()
        if !deviceState.isTouching && fingers == 0 { return cancelled + endClaim() }
        return cancelled
    }

    /// Ends the contacts the clone has down so that libinput cancels them
    /// rather than delivers them: each becomes `MT_TOOL_PALM` in one frame
    /// and lifts, with every key, in the next. libinput drops a palm's tap,
    /// ends a hold or scroll it was part of, and on a touchscreen sends
    /// `TOUCH_CANCEL`. Nothing when the clone touches nothing, or has no
    /// `ABS_MT_TOOL_TYPE` (``cancelsWithPalm``).
    private mutating func cancelClone() -> [[InputEvent]] {
        guard cancelsWithPalm, cloneState.isTouching else { return [] }
        passedAhead = false  // the frame that went ahead is cancelled with the rest; held, it replays
        let slot = cloneState.currentSlot
        var palm: [InputEvent] = []
        for contact in cloneState.activeSlots {
            palm.append(InputEvent(type: EV.ABS, code: ABS.MT_SLOT, value: contact, microseconds: now))
            palm.append(InputEvent(type: EV.ABS, code: ABS.MT_TOOL_TYPE, value: MT_TOOL.PALM, microseconds: now))
        }
        if !palm.isEmpty { palm.append(InputEvent(type: EV.ABS, code: ABS.MT_SLOT, value: slot, microseconds: now)) }
        var palms = cloneState
        palms.apply(palm)
        let lift = Self.stamped(palms.events(reaching: palms.released), at: now)
        cloneState = palms.released
        noteCloneTouch()
        return [palm, lift]
    }

    /// Every finger lifted after a claim: the clone's contacts are lifted
    /// now, or once they have been down for the tap-safe time.
    private mutating func endClaim() -> [[InputEvent]] {
        reason = .claimEnded
        guard cloneState.released != cloneState else {
            mode = .passing
            return []
        }
        let due = (cloneTouchSince ?? now) + Self.microseconds(policy.tapSafeDuration)
        if due <= now {
            mode = .passing
            return [catchUp(to: deviceState)]
        }
        mode = .settling
        settleAt = due
        return []
    }

    private mutating func settleIfDue() -> [[InputEvent]] {
        guard mode == .settling, let due = settleAt, now >= due else { return [] }
        settleAt = nil
        mode = .passing
        reason = .settled
        return [catchUp(to: deviceState)]
    }

    /// Sends the held frames out in order. A burst larger than three
    /// quarters of the buffer the kernel gives each reader of the clone
    /// (which would overflow it: SYN_DROPPED) keeps only frames that land,
    /// lift or press something, and the last, each as the difference from
    /// what the clone has. The lift of a still touch may wait (``defersLift()``).
    private mutating func release(_ why: Reason) -> [[InputEvent]] {
        mode = .passing
        reason = why
        let frames = held
        held = []
        hold = nil
        releasedWholeTouch = frames.contains(where: \.lifts) && !deviceState.isTouching
        let total = frames.reduce(0) { $0 + $1.events.count }
        var output: [[InputEvent]] = []
        for (index, frame) in frames.enumerated() {
            if mode == .settling {
                // A lift waits; only a new landing ends the wait early.
                guard frame.after.isTouching else { continue }
                output.append(catchUp(to: frame.before))
                settleAt = nil
                mode = .passing
                reason = why
            }
            if frame.lifts && defersLift() { continue }
            if total > flushBudget && index != frames.count - 1 && !Self.isStructural(frame.events) { continue }
            output.append(forward(frame))
        }
        return output
    }

    /// Whether the lift of the device's touch waits on the clone, and if so
    /// sets when (settling): the clone saw the touch late, no finger moved
    /// past the tap limit, and it lasted long enough on the device that its
    /// timing decides whether it is a tap.
    private mutating func defersLift() -> Bool {
        guard cloneState.isTouching, let touch = lastTouch, !touch.moved, let cloneSince = cloneTouchSince else { return false }
        let duration = touch.until - touch.since
        let due = cloneSince + duration
        guard duration >= Self.microseconds(policy.sureTapDuration), due > now else { return false }
        mode = .settling
        reason = .tapTiming
        settleAt = due
        return true
    }

    // MARK: - The clone

    /// The events that give the clone `frame`'s effect: the frame itself while
    /// the clone is in step, else the difference plus the frame's relative,
    /// miscellaneous and switch events.
    private mutating func forward(_ frame: HeldFrame) -> [InputEvent] {
        if passedAhead && frame.time == now {
            // The reader wrote it (``noteForwarded(_:)``), and the clone's state has it.
            passedAhead = false
            return []
        }
        let events: [InputEvent]
        if cloneState.isSynchronized(with: frame.before) {
            events = frame.events
        } else {
            let stateless = frame.events.filter { $0.type != EV.ABS && $0.type != EV.KEY && $0.type != EV.SYN }
            let difference = cloneState.events(reaching: frame.after)
            if !frame.after.isTouching && !cloneState.isTouching && !difference.contains(where: { $0.type == EV.KEY }) {
                // Nothing touches either: the positions a claimed gesture left
                // wait for the next touch, which brings them along.
                return stateless
            }
            events = Self.stamped(difference, at: frame.time) + stateless
        }
        cloneState = frame.after
        noteCloneTouch()
        return events
    }

    /// The frame that brings the clone to `target`.
    private mutating func catchUp(to target: EvdevState) -> [InputEvent] {
        passedAhead = false
        let events = Self.stamped(cloneState.events(reaching: target), at: now)
        cloneState = target
        noteCloneTouch()
        return events
    }

    private mutating func noteCloneTouch() {
        if cloneState.isTouching {
            if cloneTouchSince == nil { cloneTouchSince = now }
        } else {
            cloneTouchSince = nil
        }
    }

    // MARK: - The engine's fingers

    /// Takes the engine's count and contacts after a frame (and the decoded
    /// frame's buttons); returns whether a button went down in it.
    private mutating func note(_ touch: TouchFrame?, _ status: GestureEngine.Status) -> Bool {
        fingers = status.fingers
        let previous = positions
        positions = Dictionary(status.contacts.map { ($0.id, $0.position) }, uniquingKeysWith: { first, _ in first })
        movedLately = positions.contains { id, position in previous[id].map { $0 != position } ?? false }
        let pressed = touch.map { !$0.buttons.subtracting(buttons).isEmpty } ?? false
        if let touch { buttons = touch.buttons }
        if deviceState.isTouching {
            if deviceTouchSince == nil { deviceTouchSince = now }
            for (id, position) in positions {
                if let landing = landings[id] {
                    if landing.distance(to: position) > engine.tapMaximumMovementMillimeters { touchMoved = true }
                } else {
                    landings[id] = position
                }
            }
        } else if let since = deviceTouchSince {
            lastTouch = (since, now, touchMoved)
            deviceTouchSince = nil
            landings = [:]
            touchMoved = false
        }
        return pressed
    }

    /// `events` with the time `microseconds`: frames the filter makes carry
    /// the time they stand for, which `ClonePacer` spaces them by.
    static func stamped(_ events: [InputEvent], at microseconds: Int64) -> [InputEvent] {
        events.map { InputEvent(type: $0.type, code: $0.code, value: $0.value, microseconds: microseconds) }
    }

    /// Whether a frame lands or lifts a contact, or changes a key.
    static func isStructural(_ events: [InputEvent]) -> Bool {
        events.contains { ($0.type == EV.ABS && $0.code == ABS.MT_TRACKING_ID) || ($0.type == EV.KEY && $0.value != 2) }
    }

    /// How many events the kernel's evdev buffers for each reader of a device
    /// like `device`: 8 packets of the size `input_estimate_events_per_packet`
    /// estimates, at least 64, rounded up to a power of two (drivers/input/evdev.c).
    public static func readerBufferEvents(for device: DeviceDescription) -> Int {
        let axes = device.codes[EV.ABS] ?? []
        let slots: Int
        if axes.contains(ABS.MT_SLOT) {
            slots = device.slotCount
        } else if let tracking = device.absInfo[ABS.MT_TRACKING_ID], axes.contains(ABS.MT_TRACKING_ID) {
            slots = Int(min(max(tracking.range + 1, 2), 32))
        } else {
            slots = axes.contains(ABS.MT_POSITION_X) ? 2 : 0
        }
        var events = slots + 1
        for code in axes { events += code >= ABS.MT_SLOT && code <= EvdevState.lastPerSlotAxis ? slots : 1 }
        events += device.codes[EV.REL]?.count ?? 0
        events += 7
        var size = 1
        while size < max(events * 8, 64) { size *= 2 }
        return size
    }

    static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
