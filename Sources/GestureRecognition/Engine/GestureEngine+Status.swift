extension GestureEngine {
    /// Why the engine ignores the fingers down (``StateName/ignoring``).
    public enum IgnoredReason: String, Hashable, Sendable, CaseIterable {
        /// One finger moving on a touchpad, or one finger dragging on a
        /// touchscreen without strokes.
        case pointerMotion
        /// Two fingers moving together with two-finger swipes off.
        case scrolling
        /// More than ``GestureEngine/maximumFingers``.
        case tooManyFingers
        /// Events were lost or a gesture was cut short: wait for all to lift.
        case resynchronizing
        /// A physical button went down (the pad was clicked): a click is
        /// never a gesture; wait for all to lift.
        case clicking
    }

    /// What the engine has decided about the fingers down.
    public enum Decision: Hashable, Sendable {
        /// No finger touches.
        case noFingers
        /// Fingers touch and nothing is decided yet (a tap, a hold, a swipe,
        /// a pinch, a stroke or pointer motion may follow).
        case undecided
        /// A gesture of this kind is under way: `.hold`, `.swipe`, `.pinch` or `.stroke`.
        case gesture(GestureEvent.Kind)
        /// The fingers make no gesture, for this reason, until they all lift
        /// (or, for pointer motion and scrolling, their count changes).
        case ignored(IgnoredReason)
        /// The finger lifted from a tap of this many fingers (one: taps of
        /// more fire at their lift), which fires
        /// once ``Configuration/relandingGap`` is over with nothing landing
        /// (a landing before then is the contact found again: no tap).
        case tapPending(fingers: Int)
    }

    /// The fingers as the engine counts them after the latest frame, and
    /// what it decided about them: what a reader beside the engine follows
    /// so that it counts and decides as the engine does (InputInterception's
    /// `PassThroughFilter` holds frames back from a clone by it).
    public struct Status: Hashable, Sendable {
        /// The fingers down, as gestures count them: contacts the device
        /// called a palm once are left out until they lift, and so are
        /// contacts without a finite position.
        public var fingers: Int
        /// The contacts counted (at most ``TransformState/maximumContacts``;
        /// fingers beyond the slots are in ``fingers`` only), in millimetres.
        public var contacts: [TransformState.Contact]
        /// What the engine decided about them.
        public var decision: Decision

        /// A status from its parts.
        public init(fingers: Int, contacts: [TransformState.Contact], decision: Decision) {
            self.fingers = fingers
            self.contacts = contacts
            self.decision = decision
        }
    }

    /// The fingers after the latest frame and what the engine decided about them.
    ///
    ///     engine.process(frame)
    ///     engine.status.fingers    // 3
    ///     engine.status.decision   // .gesture(.swipe)
    public var status: Status {
        Status(fingers: latestSnapshot.fingers, contacts: latestSnapshot.contacts.array, decision: decision)
    }

    /// What the engine decided about the fingers down (``Status/decision``).
    public var decision: Decision {
        switch state {
        case .idle: pendingTap.map { .tapPending(fingers: $0.fingers) } ?? .noFingers
        case .undecided: .undecided
        case .holding: .gesture(.hold)
        case .swiping: .gesture(.swipe)
        case .pinching: .gesture(.pinch)
        case .stroking: .gesture(.stroke)
        case .ignoring(let ignored): .ignored(ignored.reason)
        }
    }
}
