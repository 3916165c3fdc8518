import GestureRecognition

extension PassThroughFilter {
    /// Which gestures are claimed (kept from the clone, and so from the
    /// desktop) and the hand-over's timing, each named with its unit.
    ///
    /// The defaults are chosen against libinput's numbers; Docs/Interception.md
    /// says why each one is what it is.
    ///
    ///     let policy = PassThroughFilter.Policy(claims: [.init(gesture: .swipe, fingers: 3)])
    ///     policy.claimedFingerCounts   // [3]
    public struct Policy: Hashable, Sendable {
        /// The claimed gestures; none means every frame passes at once.
        public var claims: [Claim]
        /// How swipe updates are classified when a claim names a direction:
        /// the engine's classifier, which the bindings use too.
        public var swipeDirection: SwipeDirection.Classifier
        /// How far, in millimetres, held fingers may move while more may come
        /// (libinput's and the engine's motion threshold: 1.5 mm plus 0.5 mm
        /// per extra finger); farther is scrolling, and the frames go out.
        public var motionThresholdMillimeters: Double
        /// See ``motionThresholdMillimeters``.
        public var motionThresholdPerExtraFingerMillimeters: Double
        /// How long after a second (or later) finger lands frames wait for
        /// another, when a claimed gesture needs more fingers than are down:
        /// 80 ms (fingers of one hand land 20-60 ms apart).
        public var fingerWait: Duration
        /// The longest frames are held for any reason (the engine undecided,
        /// a swipe's direction not known yet); then they go out, and a claim
        /// that comes later cuts the clone's touch off as described in
        /// Docs/Interception.md. 1 s.
        public var decisionLimit: Duration
        /// The least time a contact the clone saw stays down on the clone when
        /// a claim cuts it off: longer than libinput's tap timeout (180 ms), so
        /// that lifting it is never a tap. 300 ms.
        public var tapSafeDuration: Duration
        /// Touches shorter than this on the device are taps for libinput
        /// whatever their timing on the clone: 140 ms (libinput's tap timeout,
        /// 180 ms, less a margin). A longer touch that the clone saw late
        /// and that moved less than ``tapMaximumMovementMillimeters`` lasts
        /// as long on the clone as on the device, so it is a tap on neither.
        public var sureTapDuration: Duration
        /// How far a finger may move and still tap, in millimetres (the
        /// engine's, after libinput's 1.3 mm).
        public var tapMaximumMovementMillimeters: Double
        /// A finger that lifts and lands again within this time flickered
        /// (the engine's ``GestureEngine/Configuration/fingerChangeDebounce``,
        /// 100 ms): while frames pass, its landing goes out at once instead
        /// of starting a hold, as the clone already showed that many fingers.
        public var fingerChangeDebounce: Duration

        /// A policy claiming `claims`; the thresholds are the engine's
        /// (`engine`), the timing the defaults above.
        public init(claims: [Claim] = [], engine: GestureEngine.Configuration = GestureEngine.Configuration(),
                    fingerWait: Duration = .milliseconds(80), decisionLimit: Duration = .milliseconds(1000),
                    tapSafeDuration: Duration = .milliseconds(300), sureTapDuration: Duration = .milliseconds(140)) {
            self.claims = claims
            self.swipeDirection = engine.swipeDirection
            self.motionThresholdMillimeters = engine.motionThresholdMillimeters
            self.motionThresholdPerExtraFingerMillimeters = engine.motionThresholdPerExtraFingerMillimeters
            self.fingerWait = fingerWait
            self.decisionLimit = decisionLimit
            self.tapSafeDuration = tapSafeDuration
            self.sureTapDuration = sureTapDuration
            self.tapMaximumMovementMillimeters = engine.tapMaximumMovementMillimeters
            self.fingerChangeDebounce = engine.fingerChangeDebounce
        }

        /// The finger counts some claim applies to.
        public var claimedFingerCounts: Set<Int> {
            Set(claims.flatMap { claim in claim.fingers.map { [$0] } ?? Array(2...GestureEngine.maximumFingers) })
        }

        /// The motion threshold for `fingers` fingers, in millimetres.
        func motionThresholdMillimeters(fingers: Int) -> Double {
            motionThresholdMillimeters + motionThresholdPerExtraFingerMillimeters * Double(max(0, fingers - 1))
        }

        /// Whether `event` is a claimed gesture, is not, or cannot tell yet
        /// (a swipe whose claims all name a direction, before it has one).
        public func verdict(for event: GestureEvent) -> Verdict {
            let matching = claims.filter { $0.gesture == event.type && $0.applies(to: event.fingers) }
            guard !matching.isEmpty else { return .unclaimed }
            if event.type != .swipe || matching.contains(where: { $0.direction == nil }) { return .claimed }
            var direction = event.direction
            if direction == nil, event.phase == .update, let dx = event.dxMillimeters, let dy = event.dyMillimeters {
                direction = swipeDirection.direction(dx: dx, dy: dy)
            }
            guard let direction else { return event.phase == .end ? .unclaimed : .undecided }
            return matching.contains { $0.direction == direction } ? .claimed : .unclaimed
        }

        /// Whether a stroke drawn with `fingers` fingers is claimed.
        func claimsStroke(fingers: Int) -> Bool {
            claims.contains { $0.gesture == .stroke && $0.applies(to: fingers) }
        }
    }

    /// One claimed kind of gesture.
    public struct Claim: Hashable, Sendable {
        /// The kind: swipe, pinch, hold, tap or stroke (sequences are made of swipes).
        public var gesture: GestureEvent.Kind
        /// The finger count, or nil for 2 to 5 fingers.
        public var fingers: Int?
        /// Swipes: only this direction, as the engine's classifier gives it
        /// on the first update that has one; nil for every direction.
        public var direction: SwipeDirection?

        /// A claim on `gesture` with `fingers` fingers (nil: 2-5) and, for swipes, `direction` (nil: any).
        public init(gesture: GestureEvent.Kind, fingers: Int? = nil, direction: SwipeDirection? = nil) {
            self.gesture = gesture
            self.fingers = fingers
            self.direction = direction
        }

        func applies(to count: Int) -> Bool {
            fingers.map { $0 == count } ?? (2...GestureEngine.maximumFingers).contains(count)
        }
    }

    /// What a gesture event says about a claim.
    public enum Verdict: Hashable, Sendable {
        /// A claimed gesture: the clone sees none of it.
        case claimed
        /// Not claimed: the clone sees it as the device sent it.
        case unclaimed
        /// Not known yet (a swipe without a direction so far).
        case undecided
    }
}
