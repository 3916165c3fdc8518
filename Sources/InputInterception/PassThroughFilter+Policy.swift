import GestureRecognition

extension PassThroughFilter {
    /// Which gestures are claimed (kept from the clone, and so from the
    /// desktop) and the hand-over's own timing, each named with its unit.
    /// The thresholds the hand-over shares with the engine (its motion
    /// threshold, tap movement limit, finger-change debounce and swipe
    /// direction classifier) are not here: the filter reads them from the
    /// configuration of the engine it follows.
    ///
    /// The defaults are chosen against libinput's numbers; Docs/Interception.md
    /// says why each one is what it is.
    ///
    ///     let policy = PassThroughFilter.Policy(claims: [.init(gesture: .swipe, fingers: 3)])
    ///     policy.claimedFingerCounts   // [3]
    public struct Policy: Hashable, Sendable {
        /// The claimed gestures; none means every frame passes at once.
        public var claims: [Claim]
        /// How long after a second (or later) finger lands frames wait for
        /// another, when a claimed gesture needs more fingers than are down:
        /// 80 ms (fingers of one hand land 20-60 ms apart). Fingers that move
        /// past the engine's motion threshold meanwhile are let out at once.
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
        /// and that moved less than the engine's tap movement limit lasts
        /// as long on the clone as on the device, so it is a tap on neither.
        public var sureTapDuration: Duration

        /// A policy claiming `claims`, with the timing above.
        public init(
            claims: [Claim] = [], fingerWait: Duration = .milliseconds(80), decisionLimit: Duration = .milliseconds(1000),
            tapSafeDuration: Duration = .milliseconds(300), sureTapDuration: Duration = .milliseconds(140)
        ) {
            self.claims = claims
            self.fingerWait = fingerWait
            self.decisionLimit = decisionLimit
            self.tapSafeDuration = tapSafeDuration
            self.sureTapDuration = sureTapDuration
        }

        /// The finger counts some claim applies to.
        public var claimedFingerCounts: Set<Int> {
            Set(claims.flatMap { claim in claim.fingers.map { [$0] } ?? Array(2...GestureEngine.maximumFingers) })
        }

        /// The fewest fingers a claim counts (a claim of any count counts
        /// from 2), or nil when nothing is claimed: the smallest of
        /// ``claimedFingerCounts``, without making the set (asked every frame).
        public var fewestClaimedFingers: Int? {
            var fewest: Int?
            for claim in claims {
                let fingers = claim.fingers ?? 2
                if fingers < fewest ?? .max { fewest = fingers }
            }
            return fewest
        }

        /// Whether `event` is a claimed gesture, is not, or cannot tell yet
        /// (a swipe whose claims all name a direction, before it has one);
        /// a swipe update without a direction is classified by
        /// `swipeDirection` (the engine's classifier, which the bindings use too).
        public func verdict(
            for event: GestureEvent,
            swipeDirection: SwipeDirection.Classifier = GestureEngine.Configuration().swipeDirection
        ) -> Verdict {
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

        /// Whether a mouse's stroke button is claimed: a stroke claim of no
        /// finger count (a mouse stroke has none, so a binding with `fingers`
        /// never matches it). A mouse asks when its stroke button goes down
        /// (``InterceptedDevice/process(_:nowMicroseconds:claims:)``); an
        /// unclaimed press reaches the clone at once.
        ///
        ///     PassThroughFilter.Policy(claims: [.init(gesture: .stroke)]).claimsMouseStrokes   // true
        public var claimsMouseStrokes: Bool {
            claims.contains { $0.gesture == .stroke && $0.fingers == nil }
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
