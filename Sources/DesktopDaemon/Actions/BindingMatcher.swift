import GestureRecognition
import InputChecks

/// Turns a stream of gesture events into the actions their bindings fire.
/// Pure apart from device-name patterns, which run through `PatternMatcher`
/// once per device and configuration (the outcome is remembered).
///
/// - `end` bindings fire once when a gesture completes (never when it is
///   cancelled); taps, strokes and sequences complete at once.
/// - `begin` bindings fire once per gesture, on the first event at which
///   every condition holds.
/// - `continuous` bindings fire every `every` units of travel: the count is
///   the distance moved in the binding's direction divided by the step.
///   Moving back lowers the mark, so scrubbing back and forth fires for each
///   forward stretch (a volume slider), never for the way back.
///
/// - `drag` bindings follow the whole swipe: a press at its begin, a move
///   for every update, a release at its end, cancelled or not.
///
/// A gesture in progress keeps the configuration it began with until it
/// ends: a reload never drops or changes a gesture under the fingers. It
/// keeps the focused window it began with too (``DaemonConfiguration/applicability(for:)``):
/// a binding for another application never fires, one for the focused
/// application wins over one for none, and a focus change during the
/// gesture changes nothing.
///
///     var matcher = BindingMatcher(configuration: configuration)
///     for event in events { actions += matcher.process(event, from: device) }
///
/// - Complexity: O(bindings) per event, plus one pattern match per device
///   and binding the first time a device is seen under a configuration.
public struct BindingMatcher: Sendable {
    /// The most firings one event can cause for one continuous binding; the
    /// rest of that travel is skipped.
    public static let maximumFiringsPerEvent = 100

    /// The configuration new gestures are matched with.
    public private(set) var configuration: DaemonConfiguration
    /// Warnings for the log (a device-name pattern that timed out), oldest first.
    public private(set) var notes: [String] = []

    /// The gestures in progress, by device id.
    private var inProgress: [Int: Progress] = [:]
    /// Which bindings of ``configuration`` each device may fire.
    private var deviceBindings: [InputDevice: [Bool]] = [:]

    /// A matcher for `configuration`.
    public init(configuration: DaemonConfiguration) {
        self.configuration = configuration
    }

    /// How many devices have a gesture in progress.
    public var gesturesInProgress: Int { inProgress.count }

    /// Uses `configuration` for gestures that begin from now on; gestures in
    /// progress finish with the configuration they began with.
    public mutating func replaceConfiguration(_ configuration: DaemonConfiguration) {
        self.configuration = configuration
        deviceBindings = [:]
    }

    /// Returns the notes gathered so far and forgets them.
    public mutating func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    /// The actions `event` from `device` fires, in binding order; `focus`
    /// is the window focused when the gesture's fingers landed (nil: none
    /// known), taken when a gesture starts and kept to its end.
    public mutating func process(_ event: GestureEvent, from device: InputDevice, focus: FocusedWindow? = nil) -> [FiredAction] {
        var verdicts: [BindingVerdict]?
        return process(event, from: device, focus: focus, verdicts: &verdicts)
    }

    /// The actions `event` from `device` fires, as ``process(_:from:)``
    /// gives them, and why each binding of the event's kind did or did not
    /// fire (``BindingVerdict``): the same decisions, taken once.
    public mutating func explain(
        _ event: GestureEvent, from device: InputDevice, focus: FocusedWindow? = nil
    ) -> (actions: [FiredAction], verdicts: [BindingVerdict]) {
        var verdicts: [BindingVerdict]? = []
        let actions = process(event, from: device, focus: focus, verdicts: &verdicts)
        return (actions, verdicts ?? [])
    }

    /// Why no binding fired for `stroke`, drawn on `device` and rejected by
    /// the stroke rule: every stroke binding, each with the device and
    /// finger conditions it checks first and then the rule's reason; empty
    /// for an accepted stroke, which fires through ``explain(_:from:)``.
    public mutating func explainRejected(_ stroke: DrawnStroke, from device: InputDevice) -> [BindingVerdict] {
        guard let rejection = stroke.verdict.rejection else { return [] }
        let eligible = eligibleBindings(for: device)
        var verdicts: [BindingVerdict] = []
        for (index, binding) in configuration.bindings.enumerated() where binding.match.gesture == .stroke {
            let outcome: BindingVerdict.Outcome
            if !eligible[index] {
                outcome = .notThisDevice
            } else if let fingers = binding.match.fingers, fingers != stroke.fingers {
                outcome = .notThisFingerCount(wanted: fingers)
            } else {
                outcome = .strokeRejected(rejection.description)
            }
            verdicts.append(
                BindingVerdict(binding: binding, outcome: outcome, intercepting: configuration.intercept, mouse: device.isMouse))
        }
        return verdicts
    }

    private mutating func process(
        _ event: GestureEvent, from device: InputDevice, focus: FocusedWindow?, verdicts: inout [BindingVerdict]?
    ) -> [FiredAction] {
        func start() -> Progress {
            Progress(configuration: configuration, eligible: eligibleBindings(for: device), focus: focus, notes: &notes)
        }
        switch event.phase {
        case nil:
            var progress = start()
            return progress.fire(event, from: device, completing: true, verdicts: &verdicts)
        case .begin?:
            var progress = start()
            let actions = progress.fire(event, from: device, completing: false, verdicts: &verdicts)
            inProgress[device.id] = progress
            return actions
        case .update?:
            var progress = inProgress[device.id] ?? start()
            let actions = progress.fire(event, from: device, completing: false, verdicts: &verdicts)
            inProgress[device.id] = progress
            return actions
        case .end?:
            var progress = inProgress.removeValue(forKey: device.id) ?? start()
            guard event.cancelled != true else {
                progress.judgeCancelled(event, verdicts: &verdicts)
                return progress.releaseDrags(event, from: device)
            }
            return progress.fire(event, from: device, completing: true, verdicts: &verdicts)
        }
    }

    /// Forgets the gesture in progress on `device` (the device went away).
    public mutating func forget(_ device: InputDevice) {
        inProgress[device.id] = nil
    }

    /// Whether each binding of ``configuration`` may fire for `device`.
    private mutating func eligibleBindings(for device: InputDevice) -> [Bool] {
        if let known = deviceBindings[device] { return known }
        var result: [Bool] = []
        for binding in configuration.bindings {
            guard let matcher = binding.match.device else { result.append(true); continue }
            switch matcher.match(device) {
            case .matched: result.append(true)
            case .notMatched: result.append(false)
            case .patternFailed(let outcome):
                notes.append(
                    "\(binding.label).device.name: the pattern \(outcome) against the device \(Excerpt.quoted(device.name)), so the binding does not apply to it"
                )
                result.append(false)
            }
        }
        deviceBindings[device] = result
        return result
    }
}

extension BindingMatcher {
    /// One gesture in progress: the configuration it began with and what
    /// its bindings have done so far.
    struct Progress: Sendable {
        var configuration: DaemonConfiguration
        var eligible: [Bool]
        /// Whether each binding applies to the window focused when the gesture began.
        var applicability: [DaemonConfiguration.Applicability]
        /// That window, for verdicts.
        var focus: FocusedWindow?
        /// The begin bindings that have fired.
        var begun: Set<Int> = []
        /// Continuous bindings: the mark travel is counted from.
        var marks: [Int: Double] = [:]
        /// Continuous bindings: how many times each fired.
        var steps: [Int: Int] = [:]
        /// Swipes: the path length so far and the latest displacement.
        var pathMillimeters = 0.0
        var latest: (dx: Double, dy: Double) = (0, 0)
        /// Drag bindings whose button is held.
        var dragging: Set<Int> = []

        init(configuration: DaemonConfiguration, eligible: [Bool], focus: FocusedWindow?, notes: inout [String]) {
            self.configuration = configuration
            self.eligible = eligible
            self.focus = focus
            applicability = configuration.applicability(for: focus)
            for (index, verdict) in applicability.enumerated() {
                if case .notThisApplication(let refusal) = verdict, case .patternFailed = refusal {
                    notes.append("\(configuration.bindings[index].label): \(refusal), so the binding does not apply to it")
                }
            }
        }

        /// Why binding `index` does not apply to the focused window, or nil when it does.
        func applicationOutcome(_ index: Int) -> BindingVerdict.Outcome? {
            switch applicability[index] {
            case .applies: nil
            case .notThisApplication(let refusal): .notThisApplication(refusal, focus: focus?.description)
            case .overridden(let winner): .overridden(by: configuration.bindings[winner].label)
            }
        }

        /// The actions `event` fires; with `verdicts`, why each binding of
        /// the event's kind did or did not fire is appended to it.
        mutating func fire(
            _ event: GestureEvent, from device: InputDevice, completing: Bool,
            verdicts: inout [BindingVerdict]?
        ) -> [FiredAction] {
            let previous = latest
            if let dx = event.dxMillimeters, let dy = event.dyMillimeters {
                let step = ((dx - latest.dx) * (dx - latest.dx) + (dy - latest.dy) * (dy - latest.dy)).squareRoot()
                pathMillimeters += step
                latest = (dx, dy)
            }
            var actions: [FiredAction] = []
            for (index, binding) in configuration.bindings.enumerated() where binding.match.gesture == event.type {
                let before = actions.count
                let outcome = judge(index, binding, event, device, completing: completing, previous: previous, into: &actions)
                if verdicts != nil {
                    verdicts!.append(
                        BindingVerdict(
                            binding: binding, outcome: outcome ?? .fired(actions.count - before),
                            intercepting: configuration.intercept, mouse: event.source == .mouse))
                }
            }
            return actions
        }

        /// Fires what `binding` fires for `event` into `actions`; nil when
        /// it fired, else why not.
        private mutating func judge(
            _ index: Int, _ binding: DaemonConfiguration.Binding, _ event: GestureEvent,
            _ device: InputDevice, completing: Bool, previous: (dx: Double, dy: Double),
            into actions: inout [FiredAction]
        ) -> BindingVerdict.Outcome? {
            let match = binding.match
            guard eligible[index] else { return .notThisDevice }
            if let fingers = match.fingers, fingers != event.fingers { return .notThisFingerCount(wanted: fingers) }
            if let outcome = applicationOutcome(index) { return outcome }
            if case .drag(let button)? = binding.action.input {
                if let edge = match.edge, edge != event.edge { return .notThisEdge(wanted: edge) }
                let steps = drag(index, button: button, binding, event, device, from: previous)
                actions += steps
                return steps.isEmpty ? .nothingToDo : nil
            }
            switch binding.action.phase {
            case .end:
                guard completing else { return .waitsForTheEnd }
                if let mismatch = mismatch(match, for: event) { return mismatch }
                actions.append(action(binding, event, device, step: nil))
            case .begin:
                guard !begun.contains(index) else { return .alreadyFired }
                if let mismatch = mismatch(match, for: event) { return mismatch }
                begun.insert(index)
                actions.append(action(binding, event, device, step: nil))
            case .continuous(let every):
                // Short of a step: a gesture that went another way is not this direction; at its end it stopped short.
                func short(_ travel: Double) -> BindingVerdict.Outcome {
                    if let other = otherDirection(match, event) { return other }
                    guard completing else { return .waitsForTravel(travel: travel, every: every) }
                    return .endedShortOfAStep(travel: travel, every: every, steps: steps[index] ?? 0)
                }
                guard event.phase != .begin else { return .waitsForTravel(travel: 0, every: every) }
                if let edge = match.edge, edge != event.edge { return .notThisEdge(wanted: edge) }
                guard let value = measure(match, event) else { return short(0) }
                let mark = marks[index] ?? neutral(match)
                let travel = value - mark
                if travel < 0 {
                    marks[index] = value
                    return short(travel)
                } else if travel >= every {
                    // Counted as a Double and capped before it becomes an
                    // Int: any travel and step give a bounded count.
                    let whole = (travel / every).rounded(.down)
                    marks[index] = mark + whole * every
                    let limit = BindingMatcher.maximumFiringsPerEvent
                    let count = whole < Double(limit) ? Int(whole) : limit
                    for _ in 0..<count {
                        let step = (steps[index] ?? 0) + 1
                        steps[index] = step
                        actions.append(action(binding, event, device, step: step))
                    }
                } else {
                    return short(travel)
                }
            }
            return nil
        }

        /// The direction `event` has gone when `match` wants another (a
        /// swipe's as the engine classifies it, a pinch's past its
        /// threshold), or nil: same direction, none wanted or none yet.
        func otherDirection(_ match: DaemonConfiguration.Match, _ event: GestureEvent) -> BindingVerdict.Outcome? {
            if let wanted = match.swipeDirection, let got = swipeDirection(event), got != wanted {
                return .notThisDirection(wanted: wanted.rawValue, got: got.rawValue)
            }
            if let wanted = match.pinchDirection, let got = pinchDirection(event), got != wanted {
                return .notThisDirection(wanted: wanted.rawValue, got: got.rawValue)
            }
            return nil
        }

        /// The verdicts of a gesture that ended cancelled: nothing fires
        /// (drags are released).
        func judgeCancelled(_ event: GestureEvent, verdicts: inout [BindingVerdict]?) {
            guard verdicts != nil else { return }
            for (index, binding) in configuration.bindings.enumerated() where binding.match.gesture == event.type {
                let outcome: BindingVerdict.Outcome
                if !eligible[index] {
                    outcome = .notThisDevice
                } else if let fingers = binding.match.fingers, fingers != event.fingers {
                    outcome = .notThisFingerCount(wanted: fingers)
                } else if let other = applicationOutcome(index) {
                    outcome = other
                } else {
                    outcome = dragging.contains(index) ? .fired(1) : .cancelled
                }
                verdicts!.append(BindingVerdict(binding: binding, outcome: outcome, intercepting: configuration.intercept))
            }
        }

        /// The steps of a drag for `event`: press at the begin, a move per
        /// update (the displacement since `previous`), a release at the end.
        private mutating func drag(
            _ index: Int, button: DaemonConfiguration.MouseSettings.Button,
            _ binding: DaemonConfiguration.Binding, _ event: GestureEvent, _ device: InputDevice,
            from previous: (dx: Double, dy: Double)
        ) -> [FiredAction] {
            var steps: [InputStep] = []
            if !dragging.contains(index), event.phase != .end {
                // A begin, or an update of a swipe that began under another configuration.
                dragging.insert(index)
                steps.append(.dragPress(button.code))
            }
            if event.phase != .begin, event.cancelled != true, dragging.contains(index),
                let dx = event.dxMillimeters, let dy = event.dyMillimeters, dx != previous.dx || dy != previous.dy
            {
                steps.append(.dragMove(dxMillimeters: dx - previous.dx, dyMillimeters: dy - previous.dy))
            }
            if event.phase == .end, dragging.remove(index) != nil { steps.append(.dragRelease) }
            return steps.map { step in
                var fired = action(binding, event, device, step: nil)
                fired.input = step
                return fired
            }
        }

        /// The releases of the drags in progress: the gesture ended cancelled.
        mutating func releaseDrags(_ event: GestureEvent, from device: InputDevice) -> [FiredAction] {
            dragging.sorted().map { index in
                var fired = action(configuration.bindings[index], event, device, step: nil)
                fired.input = .dragRelease
                return fired
            }
        }

        private func action(_ binding: DaemonConfiguration.Binding, _ event: GestureEvent, _ device: InputDevice, step: Int?) -> FiredAction
        {
            let direction = binding.match.pinchDirection?.rawValue ?? swipeDirection(event)?.rawValue ?? pinchDirection(event)?.rawValue
            var input: InputStep?
            switch binding.action.input {
            case .keys(let keys)?: input = .keys(keys.map(\.code))
            case .click(let button)?: input = .click(button.code)
            case .drag?, nil: input = nil
            }
            return FiredAction(
                binding: binding.label, command: binding.action.command, input: input,
                environment: FiredAction.environment(for: event, device: device, direction: direction, binding: binding.label, step: step),
                timeout: binding.action.timeout ?? configuration.actions.timeout,
                gesture: event.description)
        }

        /// The engine's direction on ends; on updates, the displacement so
        /// far classified the way the engine classifies it.
        func swipeDirection(_ event: GestureEvent) -> SwipeDirection? {
            guard event.type == .swipe else { return nil }
            if let direction = event.direction { return direction }
            guard event.phase == .update, let dx = event.dxMillimeters, let dy = event.dyMillimeters else { return nil }
            return configuration.engine.swipeDirection.direction(dx: dx, dy: dy)
        }

        /// The way a pinch has gone so far, as a binding without a direction
        /// reports it: in or out when the scale is past the engine's pinch
        /// threshold, clockwise or counterclockwise when the angle is past its
        /// rotation threshold; when both are, the one furthest past its
        /// threshold (relative to it). Nil before either threshold.
        func pinchDirection(_ event: GestureEvent) -> DaemonConfiguration.PinchDirection? {
            guard event.type == .pinch else { return nil }
            let scaleThreshold = configuration.engine.pinchScaleThreshold
            let angleThreshold = configuration.engine.rotationThresholdDegrees
            var best: (direction: DaemonConfiguration.PinchDirection, excess: Double)?
            if let scale = event.scale, scaleThreshold > 0, abs(scale - 1) >= scaleThreshold {
                best = (scale < 1 ? .in : .out, abs(scale - 1) / scaleThreshold)
            }
            if let angle = event.angleDegrees, angleThreshold > 0, abs(angle) >= angleThreshold,
                abs(angle) / angleThreshold > best?.excess ?? 0
            {
                best = (angle > 0 ? .clockwise : .counterclockwise, abs(angle) / angleThreshold)
            }
            return best?.direction
        }

        /// The first condition of `match` but gesture, fingers and device
        /// that `event` does not meet, or nil when every one holds.
        func mismatch(_ match: DaemonConfiguration.Match, for event: GestureEvent) -> BindingVerdict.Outcome? {
            if let edge = match.edge, edge != event.edge { return .notThisEdge(wanted: edge) }
            if let wanted = match.swipeDirection, swipeDirection(event) != wanted {
                return .notThisDirection(wanted: wanted.rawValue, got: swipeDirection(event)?.rawValue)
            }
            if let wanted = match.pinchDirection {
                let scaleThreshold = configuration.engine.pinchScaleThreshold
                let angleThreshold = configuration.engine.rotationThresholdDegrees
                let holds: Bool
                switch wanted {
                case .in: holds = event.scale.map { $0 <= 1 - scaleThreshold } ?? false
                case .out: holds = event.scale.map { $0 >= 1 + scaleThreshold } ?? false
                case .clockwise: holds = event.angleDegrees.map { $0 >= angleThreshold } ?? false
                case .counterclockwise: holds = event.angleDegrees.map { $0 <= -angleThreshold } ?? false
                }
                if !holds { return .notThisDirection(wanted: wanted.rawValue, got: pinchDirection(event)?.rawValue) }
            }
            if let template = match.template, event.template != template { return .notThisTemplate(wanted: template, got: event.template) }
            if let sequence = match.sequence, event.name != sequence { return .notThisSequence(wanted: sequence, got: event.name) }
            if let minimum = match.minimumDistanceMillimeters {
                let distance = event.dxMillimeters.flatMap { dx in event.dyMillimeters.map { dy in (dx * dx + dy * dy).squareRoot() } }
                guard let distance, distance >= minimum else { return .tooShort(millimeters: distance ?? 0, minimum: minimum) }
            }
            if let minimum = match.minimumScale {
                guard let scale = event.scale, scale >= minimum else {
                    return .scaleOutOfRange(scale: event.scale, wanted: "at least \(minimum)")
                }
            }
            if let maximum = match.maximumScale {
                guard let scale = event.scale, scale <= maximum else {
                    return .scaleOutOfRange(scale: event.scale, wanted: "at most \(maximum)")
                }
            }
            if let minimum = match.minimumAngleDegrees {
                guard let angle = event.angleDegrees, abs(angle) >= minimum else {
                    return .turnedTooLittle(degrees: event.angleDegrees ?? 0, minimum: minimum)
                }
            }
            return nil
        }

        /// The quantity a continuous binding counts in steps of `every`:
        /// travel along its swipe direction (or the path length without
        /// one), the scale for pinches in and out, the angle for rotations.
        func measure(_ match: DaemonConfiguration.Match, _ event: GestureEvent) -> Double? {
            switch match.gesture {
            case .swipe:
                guard let dx = event.dxMillimeters, let dy = event.dyMillimeters else { return nil }
                guard let direction = match.swipeDirection else { return pathMillimeters }
                let unit = direction.unitVector
                return dx * unit.x + dy * unit.y
            case .pinch:
                switch match.pinchDirection {
                case .out?: return event.scale
                case .in?: return event.scale.map { -$0 }
                case .clockwise?: return event.angleDegrees
                case .counterclockwise?: return event.angleDegrees.map { -$0 }
                case nil: return nil
                }
            default:
                return nil
            }
        }

        /// Where a continuous binding's count starts: no travel, scale 1, no rotation.
        func neutral(_ match: DaemonConfiguration.Match) -> Double {
            switch match.pinchDirection {
            case .out?: 1
            case .in?: -1
            default: 0
            }
        }
    }
}
