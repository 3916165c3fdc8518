import GestureRecognition
import InputChecks

/// Why one binding did or did not fire for one gesture event: what
/// ``BindingMatcher/explain(_:from:)`` hands out beside the actions, so
/// `--explain`, the log and tests read the matcher's own decisions.
///
///     var matcher = BindingMatcher(configuration: configuration)
///     for verdict in matcher.explain(event, from: device).verdicts { print(verdict) }
///     // next workspace: fired (claimed: kept from the desktop while intercepting)
///     // previous workspace: not this direction: it wants right, the swipe went left
public struct BindingVerdict: Hashable, Sendable, CustomStringConvertible {
    /// What was decided.
    public enum Outcome: Hashable, Sendable {
        /// It fired this many actions (steps of a continuous or drag binding).
        case fired(Int)
        /// Its own `device` filter does not take the device.
        case notThisDevice
        /// Its `apps`, `notApps` or `title` do not take the window focused
        /// when the gesture began (`focus`: that window, nil when none is known).
        case notThisApplication(DaemonConfiguration.ApplicationFilter.Refusal, focus: String?)
        /// A binding naming the focused application (its label) matches the
        /// same gesture and wins over this one, which names none.
        case overridden(by: String)
        /// It wants another number of fingers.
        case notThisFingerCount(wanted: Int)
        /// It wants a swipe from another edge (or from an edge).
        case notThisEdge(wanted: GestureEvent.Edge)
        /// It wants another direction; `got` is the event's, nil when it has none yet.
        case notThisDirection(wanted: String, got: String?)
        /// It wants another drawn shape.
        case notThisTemplate(wanted: String, got: String?)
        /// It wants another sequence.
        case notThisSequence(wanted: String, got: String?)
        /// The swipe was shorter than its `minimumDistanceMillimeters`.
        case tooShort(millimeters: Double, minimum: Double)
        /// The pinch's scale is outside its `minimumScale` or `maximumScale`.
        case scaleOutOfRange(scale: Double?, wanted: String)
        /// The rotation is less than its `minimumAngleDegrees`.
        case turnedTooLittle(degrees: Double, minimum: Double)
        /// It fires when the gesture ends; this event is not the end.
        case waitsForTheEnd
        /// It fires once per gesture, and already did.
        case alreadyFired
        /// A continuous binding: not a whole step of travel yet.
        case waitsForTravel(travel: Double, every: Double)
        /// A continuous binding: the gesture ended short of its next step,
        /// after `steps` steps fired earlier in the gesture.
        case endedShortOfAStep(travel: Double, every: Double, steps: Int)
        /// The gesture ended cancelled: nothing fires.
        case cancelled
        /// A drag with nothing to do for this event (no motion).
        case nothingToDo
        /// The stroke rule rejected the stroke, for this reason (`too close
        /// to v: 0.1476 of the 0.2 margin`), so no stroke binding fires.
        case strokeRejected(String)
    }

    /// The binding's name for logs (`bindings[3]` without one).
    public var binding: String
    /// Where it is in the file: `bindings[3]`.
    public var path: String
    /// What was decided.
    public var outcome: Outcome
    /// Whether the binding keeps its gesture from the desktop: its `claim`
    /// and the configuration's `intercept`, both.
    public var claimed: Bool
    /// Why it is claimed or passed to the desktop, as a phrase.
    public var claimReason: String

    /// The verdict `outcome` for `binding`, under a configuration that
    /// intercepts or not, for a gesture from a mouse (whose claim is its
    /// stroke button's, `Binding.claimsMouseStrokes`) or a touch device.
    public init(binding: DaemonConfiguration.Binding, outcome: Outcome, intercepting: Bool, mouse: Bool = false) {
        self.binding = binding.label
        self.path = binding.path
        self.outcome = outcome
        let claims = binding.claims(onMouse: mouse)
        claimed = intercepting && claims
        if case .notThisApplication = outcome {
            claimed = false
            claimReason = "not claimed: it does not apply to the focused application"
        } else if case .overridden = outcome {
            claimed = false
            claimReason = "not claimed by it: a binding for the focused application decides"
        } else if !intercepting {
            claimReason = "passed to the desktop too: the configuration says intercept: false"
        } else if claims {
            claimReason = "claimed: kept from the desktop while intercepting"
        } else if mouse || DaemonConfiguration.claimsByDefault(binding.match) {
            claimReason = "passed to the desktop too: the binding says claim: false"
        } else {
            claimReason =
                "passed to the desktop too: claimed only with claim: true (1- and 2-finger gestures, strokes and bindings without fingers)"
        }
    }

    /// Whether it fired.
    public var fired: Bool {
        if case .fired = outcome { return true }
        return false
    }

    /// The outcome as one phrase: `fired`, `not this finger count: it wants 4`.
    public var reason: String {
        switch outcome {
        case .fired(let count): return count == 1 ? "fired" : "fired \(count) times"
        case .notThisDevice: return "not this device: its device filter does not take it"
        case .notThisApplication(let refusal, let focus):
            return "not this application: \(refusal)\(focus.map { " (\($0))" } ?? "")"
        case .overridden(let winner):
            return "not this application: \(Excerpt.quoted(winner)) names the focused application and wins"
        case .notThisFingerCount(let wanted): return "not this finger count: it wants \(wanted)"
        case .notThisEdge(let wanted): return "not this edge: it wants a swipe from the \(wanted.rawValue) edge"
        case .notThisDirection(let wanted, let got):
            return "not this direction: it wants \(wanted), \(got.map { "the gesture went \($0)" } ?? "the gesture has no direction yet")"
        case .notThisTemplate(let wanted, let got):
            return
                "not this shape: it wants \(Excerpt.quoted(wanted)), \(got.map { "the stroke was \(Excerpt.quoted($0))" } ?? "the stroke matched none")"
        case .notThisSequence(let wanted, let got):
            return
                "not this sequence: it wants \(Excerpt.quoted(wanted)), \(got.map { "this was \(Excerpt.quoted($0))" } ?? "this was none")"
        case .tooShort(let distance, let minimum):
            return "too short: \(Self.number(distance)) of \(Self.number(minimum)) mm"
        case .scaleOutOfRange(let scale, let wanted):
            return "scale \(scale.map(Self.number) ?? "unknown"), it wants \(wanted)"
        case .turnedTooLittle(let degrees, let minimum):
            return "turned too little: \(Self.number(abs(degrees)))° of \(Self.number(minimum))°"
        case .waitsForTheEnd: return "waits for the end of the gesture"
        case .alreadyFired: return "already fired for this gesture"
        case .waitsForTravel(let travel, let every):
            return "waits for travel: \(Self.number(max(0, travel))) of a step of \(Self.number(every))"
        case .endedShortOfAStep(let travel, let every, let steps):
            let short = "\(Self.number(max(0, travel))) of \(steps == 0 ? "a" : "the next") step of \(Self.number(every))"
            return steps == 0 ? "ended short of a step: \(short)" : "ended after \(steps == 1 ? "1 step" : "\(steps) steps"): \(short)"
        case .cancelled: return "the gesture ended cancelled, so nothing fires"
        case .nothingToDo: return "nothing to do for this event"
        case .strokeRejected(let reason): return "the stroke rule rejected the stroke: \(reason)"
        }
    }

    /// `next workspace: fired (claimed: kept from the desktop while intercepting)`.
    public var description: String {
        fired ? "\(binding): \(reason) (\(claimReason))" : "\(binding): \(reason)"
    }

    private static func number(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : String(rounded)
    }
}
