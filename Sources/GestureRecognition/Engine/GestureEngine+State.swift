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
    /// not palms, the positions of those with a slot (and their pressure,
    /// for taps), and whether a physical button is down.
    struct Snapshot: Sendable {
        var time: Duration
        var fingers: Int
        /// The contacts, at most ``InlineList/capacity``: a frame with more
        /// has more fingers than any gesture (``fingers`` counts them all).
        var contacts: InlineList<TransformState.Contact>
        /// The pressure (or touch size) of each contact, in `contacts` order,
        /// nil where unknown; empty when no contact has one.
        var pressures = InlineList<Double?>()
        var isButtonDown = false
    }

    /// The fingers as they were when their count last settled, and how they
    /// moved since: the engine's `baseline`, which every state with fingers
    /// down follows (it lives beside the state, not in it, so that a frame
    /// updates it in place instead of copying it out of the state and back).
    struct Baseline: Sendable {
        /// When the count settled.
        var time: Duration
        /// How many fingers there were.
        var fingers: Int
        /// Where each contact was at the start (or when it first appeared).
        var start: ContactPositions
        /// Translation, scale and rotation since the start.
        var transform: TransformState
        /// The spread of the contacts at the start, in millimetres.
        var startSpread: Double
        /// The centroid of the contacts at the start, if there were any.
        var startCentroid: Point?

        init(_ snapshot: Snapshot, at time: Duration) {
            self.time = time
            fingers = snapshot.fingers
            start = ContactPositions(snapshot.contacts)
            transform = TransformState(normalized: TransformState.normalized(snapshot.contacts))
            startSpread = transform.spreadMillimeters
            startCentroid = transform.centroid
        }

        /// Set when a frame with another finger count came (the fingers
        /// flickered, or some lifted): the next update starts again from its
        /// positions instead of measuring motion across the gap.
        var interrupted = false
        /// On surfaces with approximate positions, frames until this time
        /// are still settling after a finger change and move no finger.
        var settlesUntil: Duration?

        /// Moves to `snapshot`, which has the same finger count, and returns
        /// the motion it counts. A frame is a jump, and counts no motion (the
        /// fingers start again from it), when it follows an interruption or
        /// falls in a settling time, when a contact joined or left, or when
        /// the fingers' spread changes by more than `jumpScaleRatio` or they
        /// turn more than `jumpRotationDegrees` within it: a 2-slot pad's
        /// slot jumping to where the other finger was is never a pinch.
        @discardableResult
        mutating func update(_ snapshot: Snapshot, _ configuration: Configuration) -> TransformState.Delta {
            let settling = settlesUntil.map { snapshot.time <= $0 } ?? false
            let previous = transform.current
            let sameContacts =
                snapshot.contacts.count == previous.count
                && previous.withElements { previous in
                    snapshot.contacts.allSatisfy { contact in previous.contains { $0.id == contact.id } }
                }
            guard !interrupted, !settling, sameContacts else {
                rebase(snapshot)
                return .identity
            }
            // The same contacts before and after: their spreads, compared
            // directly (the delta's ratio is 1 when a spread is near zero).
            let before = Self.spread(previous)
            let ratio = configuration.jumpScaleRatio, jumpDegrees = configuration.jumpRotationDegrees
            let accepted = transform.update(normalized: TransformState.normalized(snapshot.contacts)) { delta, next in
                let after = Self.spread(next)
                return !(after > before * ratio || before > after * ratio || abs(delta.rotationDegrees) > jumpDegrees)
            }
            guard let delta = accepted else {
                rebase(snapshot)
                return .identity
            }
            return delta
        }

        /// The mean distance of `contacts` from their centroid, in
        /// millimetres (0 for fewer than two), without allocating.
        static func spread(_ contacts: InlineList<TransformState.Contact>) -> Double {
            guard contacts.count >= 2 else { return 0 }
            return contacts.withElements { contacts in
                var sum = Point.zero
                for contact in contacts { sum = sum + contact.position }
                let center = sum * (1 / Double(contacts.count))
                var total = 0.0
                for contact in contacts { total += contact.position.distance(to: center) }
                return total / Double(contacts.count)
            }
        }

        /// Starts again from `snapshot`'s positions: what the fingers did so
        /// far stays, a contact's jump is not motion (its start moves with
        /// it), and a new contact starts where it is.
        mutating func rebase(_ snapshot: Snapshot) {
            let previous = transform.current
            for index in snapshot.contacts.indices {
                let contact = snapshot.contacts[index]
                if let old = previous.firstIndex(where: { $0.id == contact.id }), let origin = start[contact.id] {
                    start.set(origin + (contact.position - previous[old].position), for: contact.id, touching: snapshot.contacts)
                } else if start[contact.id] == nil {
                    start.set(contact.position, for: contact.id, touching: snapshot.contacts)
                }
            }
            transform.rebase(normalized: TransformState.normalized(snapshot.contacts))
            // The spread change counts from the new contacts, at the scale reached.
            startSpread = transform.spreadMillimeters / transform.scale
            interrupted = false
        }

        /// Notes a frame with another finger count at `time`: the next
        /// update starts again, and on surfaces with approximate positions
        /// frames within `settle` of it settle.
        mutating func interrupt(at time: Duration, settle: Duration?) {
            interrupted = true
            if let settle { settlesUntil = time + settle }
        }

        /// The farthest any contact of `snapshot` is from its start, or the
        /// centroid's travel when no contact can be compared, in millimetres.
        func largestDisplacement(in snapshot: Snapshot) -> Double {
            var largest = -1.0
            snapshot.contacts.withElements { contacts in
                for contact in contacts {
                    if let origin = start[contact.id] { largest = max(largest, origin.distance(to: contact.position)) }
                }
            }
            return largest >= 0 ? largest : travelMillimeters
        }

        /// The nearest any contact of `snapshot` is to its start, or the
        /// centroid's travel when no contact can be compared, in millimetres.
        func smallestDisplacement(in snapshot: Snapshot) -> Double {
            var smallest = Double.infinity
            snapshot.contacts.withElements { contacts in
                for contact in contacts {
                    if let origin = start[contact.id] { smallest = min(smallest, origin.distance(to: contact.position)) }
                }
            }
            return smallest.isFinite ? smallest : travelMillimeters
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

    /// Fingers down with nothing decided (``StateName/undecided``). Whether
    /// they tap is followed beside the states, by ``TapTracker``; the fingers
    /// since their count last changed are the engine's `baseline` (its
    /// `time`, when it changed, is the start of the hold delay).
    struct Touch: Sendable {
        /// Where each contact landed: for edges.
        var landings: ContactPositions
        /// Whether the hold timer runs.
        var holdPossible: Bool
    }

    /// A hold in progress (``StateName/holding``).
    struct Hold: Sendable {
        var fingers: Int
        var landings: ContactPositions
        /// When the finger count started to differ, if it does.
        var countChanged: Duration?
    }

    /// A swipe or pinch in progress (``StateName/swiping``, ``StateName/pinching``).
    struct Motion: Sendable {
        var fingers: Int
        var edge: GestureEvent.Edge?
        /// When the finger count started to differ, if it does.
        var countChanged: Duration?
        /// The farthest the centroid has been from the start, in
        /// millimetres: a swipe that never travelled its threshold ends
        /// cancelled.
        var farthest = 0.0
    }

    /// A stroke being drawn (``StateName/stroking``).
    struct Drawing: Sendable {
        var fingers: Int
        /// The path of the centroid, in millimetres.
        var points: [Point]
        /// When the finger count started to differ, if it does.
        var countChanged: Duration?
    }

    /// Why the fingers are ignored (``StateName/ignoring``).
    struct Ignored: Sendable {
        /// Why: ``GestureEngine/IgnoredReason``, which ``GestureEngine/Status`` shows.
        typealias Reason = IgnoredReason

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
        /// (from `countSettled`, when the finger count last settled) while
        /// undecided, the finger-change debounce during a gesture.
        func deadline(_ configuration: Configuration, countSettled: Duration) -> Duration? {
            switch self {
            case .idle, .ignoring:
                nil
            case .undecided(let touch):
                touch.holdPossible ? countSettled + configuration.holdDelay : nil
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
