#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The states of the machine and what each one remembers. The handlers are in
// GestureEngine+Handlers.swift; the diagram is in Docs/GestureEngine.md.

extension GestureEngine {
    /// What the state machine reacts to.
    enum Input {
        /// A frame of touches.
        case frame(Snapshot)
        /// The timer of the current state is due at this time.
        case deadline(Duration)
        /// Events were lost: cancel what is in progress.
        case cancel(Duration)
        /// The input ended.
        case finish(Duration)

        var time: Duration {
            switch self {
            case .frame(let snapshot): snapshot.time
            case .deadline(let time), .cancel(let time), .finish(let time): time
            }
        }

        var name: String {
            switch self {
            case .frame(let snapshot): "a frame with \(snapshot.fingers) fingers"
            case .deadline: "a timer"
            case .cancel: "cancel"
            case .finish: "finish"
            }
        }
    }

    /// A frame reduced to what gestures see: the time, the fingers that are
    /// not palms, and the positions of those with a slot.
    struct Snapshot: Sendable {
        var time: Duration
        var fingers: Int
        var contacts: [TransformState.Contact]
    }

    /// The fingers as they were when their count last settled, and how they
    /// moved since.
    struct Baseline: Sendable {
        /// When the count settled.
        var time: Duration
        /// How many fingers there were.
        var fingers: Int
        /// Where each contact was at the start (or when it first appeared).
        var start: [Int: Point]
        /// Translation, scale and rotation since the start.
        var transform: TransformState
        /// The spread of the contacts at the start, in millimetres.
        var startSpread: Double
        /// The centroid of the contacts at the start, if there were any.
        var startCentroid: Point?

        init(_ snapshot: Snapshot, at time: Duration) {
            self.time = time
            fingers = snapshot.fingers
            start = Dictionary(snapshot.contacts.map { ($0.id, $0.position) }, uniquingKeysWith: { first, _ in first })
            transform = TransformState(contacts: snapshot.contacts)
            startSpread = transform.spreadMillimeters
            startCentroid = transform.centroid
        }

        /// Moves to `snapshot`, which has the same finger count.
        @discardableResult
        mutating func update(_ snapshot: Snapshot) -> TransformState.Delta {
            for contact in snapshot.contacts where start[contact.id] == nil {
                start[contact.id] = contact.position
            }
            return transform.update(snapshot.contacts)
        }

        /// The farthest any contact of `snapshot` is from its start, or the
        /// centroid's travel when no contact can be compared, in millimetres.
        func largestDisplacement(in snapshot: Snapshot) -> Double {
            var largest = -1.0
            for contact in snapshot.contacts {
                if let origin = start[contact.id] { largest = max(largest, origin.distance(to: contact.position)) }
            }
            return largest >= 0 ? largest : travelMillimeters
        }

        /// The centroid's movement since the start.
        var translation: Point { transform.translationMillimeters }
        /// The length of ``translation``, in millimetres.
        var travelMillimeters: Double { Point.zero.distance(to: translation) }
        /// How much the spread changed, in millimetres.
        var spreadChangeMillimeters: Double { startSpread * abs(transform.scale - 1) }
        /// How far the fingers travelled round the centroid by rotating, in millimetres.
        var arcMillimeters: Double { abs(transform.rotationDegrees) * Double.pi / 180 * transform.spreadMillimeters }
        /// The current centroid as the start plus the translation (steady
        /// when fingers are replaced), or the translation alone without contacts.
        var centroid: Point { (startCentroid ?? .zero) + translation }
    }

    /// Fingers down with nothing decided (``StateName/undecided``).
    struct Touch: Sendable {
        /// The fingers since their count last changed; its `time` is when
        /// it changed, for the hold delay and the tap time.
        var baseline: Baseline
        /// When the first finger lifted, if one did.
        var firstLift: Duration?
        /// The most fingers down at once.
        var maximumFingers: Int
        /// Where each contact landed: for the tap movement limit and edges.
        var landings: [Int: Point]
        /// Whether this can still end as a tap.
        var tapPossible: Bool
        /// Whether the hold timer runs.
        var holdPossible: Bool
    }

    /// A hold in progress (``StateName/holding``).
    struct Hold: Sendable {
        var fingers: Int
        var baseline: Baseline
        var landings: [Int: Point]
        /// When the finger count started to differ, if it does.
        var countChanged: Duration?
    }

    /// A swipe or pinch in progress (``StateName/swiping``, ``StateName/pinching``).
    struct Motion: Sendable {
        var fingers: Int
        var baseline: Baseline
        var edge: GestureEvent.Edge?
        /// When the finger count started to differ, if it does.
        var countChanged: Duration?
    }

    /// A stroke being drawn (``StateName/stroking``).
    struct Drawing: Sendable {
        var fingers: Int
        var baseline: Baseline
        /// The path of the centroid, in millimetres.
        var points: [Point]
        /// When the finger count started to differ, if it does.
        var countChanged: Duration?
    }

    /// Why the fingers are ignored (``StateName/ignoring``).
    struct Ignored: Sendable {
        enum Reason: String, Sendable {
            /// One finger moving on a touchpad, or one finger dragging on a
            /// touchscreen without strokes.
            case pointerMotion
            /// Two fingers moving together with two-finger swipes off.
            case scrolling
            /// More than ``GestureEngine/maximumFingers``.
            case tooManyFingers
            /// Events were lost or a gesture was cut short: wait for all to lift.
            case resynchronizing
        }

        var reason: Reason
        var fingers: Int
    }

    /// The one enum of states; each case carries what that state remembers.
    enum State: Sendable {
        case idle
        case undecided(Touch)
        case holding(Hold)
        case swiping(Motion)
        case pinching(Motion)
        case stroking(Drawing)
        case ignoring(Ignored)

        var name: StateName {
            switch self {
            case .idle: .idle
            case .undecided: .undecided
            case .holding: .holding
            case .swiping: .swiping
            case .pinching: .pinching
            case .stroking: .stroking
            case .ignoring: .ignoring
            }
        }

        /// When this state's timer is due, if it has one: the hold delay
        /// while undecided, the finger-change debounce during a gesture.
        func deadline(_ configuration: Configuration) -> Duration? {
            switch self {
            case .idle, .ignoring:
                nil
            case .undecided(let touch):
                touch.holdPossible ? touch.baseline.time + configuration.holdDelay : nil
            case .holding(let hold):
                hold.countChanged.map { $0 + configuration.fingerChangeDebounce }
            case .swiping(let motion), .pinching(let motion):
                motion.countChanged.map { $0 + configuration.fingerChangeDebounce }
            case .stroking(let drawing):
                drawing.countChanged.map { $0 + configuration.fingerChangeDebounce }
            }
        }
    }
}
