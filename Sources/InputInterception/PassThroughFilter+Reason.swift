import GestureRecognition

extension PassThroughFilter {
    /// Why the hand-over last changed mode, from the engine's finger count
    /// and decision, so that a log can say why frames waited, went out or
    /// were dropped (`InterceptedDevice.Step.reason`).
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// Nothing happened yet.
        case start
        /// Fingers landed in a count some claim applies to.
        case landedInClaimedCount(fingers: Int)
        /// A finger landed on a touchscreen, fewer than a claimed gesture
        /// needs (or on a clone that cannot cancel its contacts): it waits
        /// for the next landing.
        case landedBelowClaimedCount(fingers: Int)
        /// With a claimed count down, the engine started deciding again.
        case engineDecidingAgain
        /// Fingers resting in an unclaimed hold started to move.
        case restingFingersMoved
        /// The engine began a claimed gesture (or tapped a claimed tap).
        case claimed(GestureEvent.Kind, fingers: Int)
        /// The engine began (or tapped) a gesture no claim takes.
        case unclaimed(GestureEvent.Kind, fingers: Int)
        /// The engine makes no gesture of the fingers, for this reason.
        case ignored(GestureEngine.IgnoredReason)
        /// Every finger lifted before the engine decided anything.
        case liftedUndecided
        /// Fewer fingers than any claimed count, and no other landed in time.
        case fingerWaitOver
        /// The fingers moved past the engine's motion threshold (scrolling, dragging).
        case moved
        /// A button went down (a click is never a claimed gesture).
        case buttonPressed
        /// Frames waited as long as they may.
        case decisionLimit
        /// Every finger lifted after a claim.
        case claimEnded
        /// The clone's contacts were lifted once it was safe (or a new touch landed).
        case settled
        /// A still touch the clone saw late lifts on the clone as late as it lasted.
        case tapTiming
        /// Events were lost; the clone was brought to the device's state.
        case resynchronized
        /// The interception ended.
        case finished

        public var description: String {
            switch self {
            case .start: "start"
            case .landedInClaimedCount(let fingers): "\(fingers) fingers down, a claimed count"
            case .landedBelowClaimedCount(let fingers): "\(fingers) finger\(fingers == 1 ? "" : "s") down, fewer than a claim needs"
            case .engineDecidingAgain: "the engine is deciding again"
            case .restingFingersMoved: "resting fingers moved"
            case .claimed(let kind, let fingers): "claimed \(fingers)-finger \(kind.rawValue)"
            case .unclaimed(let kind, let fingers): "unclaimed \(fingers)-finger \(kind.rawValue)"
            case .ignored(let reason): "no gesture (\(reason.rawValue))"
            case .liftedUndecided: "lifted before a decision"
            case .fingerWaitOver: "no other finger landed in time"
            case .moved: "moved past the motion threshold"
            case .buttonPressed: "a button went down"
            case .decisionLimit: "waited as long as frames may"
            case .claimEnded: "every finger lifted after a claim"
            case .settled: "the clone's contacts lifted"
            case .tapTiming: "a still touch keeps its timing"
            case .resynchronized: "resynchronized after lost events"
            case .finished: "finished"
            }
        }
    }
}
