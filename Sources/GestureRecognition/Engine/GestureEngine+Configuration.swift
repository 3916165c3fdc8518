import InputChecks

extension GestureEngine {
    /// The thresholds and switches of the engine, each named with its unit.
    ///
    /// It is `Codable` so a JSON file can set any subset of them: missing keys
    /// keep their defaults, and times are written in milliseconds under keys
    /// ending in `Milliseconds`:
    ///
    ///     {"swipeThresholdMillimeters": 8, "holdDelayMilliseconds": 300,
    ///      "sequences": [{"name": "konami", "directions": ["up", "up", "down", "down"]}]}
    ///
    /// The defaults are chosen against libinput's numbers (see
    /// Docs/GestureEngine.md for where and why they differ).
    public struct Configuration: Hashable, Sendable {
        /// A finger "moves" once it is this far from where the fingers settled,
        /// in millimetres, plus ``motionThresholdPerExtraFingerMillimeters``
        /// per finger beyond the first (libinput: 1.5 mm + 0.5 mm). Moving
        /// ends a hold and rules it out, starts pointer motion (one finger on a
        /// touchpad) and starts a stroke.
        public var motionThresholdMillimeters: Double = 1.5
        /// See ``motionThresholdMillimeters``.
        public var motionThresholdPerExtraFingerMillimeters: Double = 0.5

        /// The travel of the fingers' centroid, in millimetres, that makes 3
        /// to 5 fingers moving together a swipe.
        public var swipeThresholdMillimeters: Double = 6
        /// Whether two fingers moving together are a swipe (on) or are left to
        /// scrolling (off).
        public var twoFingerSwipes: Bool = true
        /// The centroid travel, in millimetres, that makes two fingers moving
        /// together a swipe. Raise it to keep short scrolls out of gestures.
        public var twoFingerSwipeThresholdMillimeters: Double = 6
        /// The travel, in millimetres, of the centroid and of every finger at
        /// which fingers moving together on a touchpad begin a swipe,
        /// whatever their count (libinput: both touches past 1.5 mm). A swipe that has not travelled its
        /// swipe threshold (``swipeThresholdMillimeters``,
        /// ``twoFingerSwipeThresholdMillimeters``) when it ends ends
        /// cancelled: the begin comes soon, for a continuous binding (volume,
        /// zoom, drag) to follow the fingers at once, and the threshold still
        /// decides whether the swipe happened. A swipe begins at the lesser
        /// of this and its swipe threshold, and before its threshold only in
        /// a finger count that has lasted ``fingerChangeDebounce``: fingers
        /// landing one after another (a third 40 ms after two, the two
        /// already moving) begin one swipe with all of them, not a 2-finger
        /// one that the third cancels. The default, 1.5 mm, begins about as
        /// soon as libinput; 100 mm begins at the threshold, only once it is
        /// certain (Docs/GestureEngine.md, "Speed against certainty").
        public var swipeBeginThresholdMillimeters: Double = 1.5
        /// How much the centroid travel must exceed the fingers' spread change
        /// plus rotation arc (both in millimetres) for a swipe rather than a
        /// pinch: 2 means twice as much.
        public var swipeDominanceRatio: Double = 2
        /// The classifier for a swipe's direction from its whole displacement.
        /// Its minimum distance only rejects a swipe that came back to where it
        /// started; whether it is a swipe at all is decided by the thresholds above.
        public var swipeDirection = SwipeDirection.Classifier(
            ways: .eight, minimumDistanceMillimeters: 1, deadZoneDegrees: 10)
        /// A swipe whose fingers landed with their centroid within this many
        /// millimetres of an edge, and which moves away from it, carries that edge.
        public var edgeZoneMillimeters: Double = 8

        /// The change of spread, as a ratio, that makes a pinch: 0.15 means
        /// 15 % wider (scale 1.15) or narrower (scale 0.85).
        public var pinchScaleThreshold: Double = 0.15
        /// The rotation, in degrees, that makes a pinch (a rotate).
        public var rotationThresholdDegrees: Double = 15
        /// The spread change plus rotation arc, in millimetres, that must come
        /// with the scale or angle threshold: fingers close together reach a
        /// scale of 1.15 from jitter alone.
        public var pinchThresholdMillimeters: Double = 3
        /// A frame in which the spread of the fingers changes by more than
        /// this factor, either way, is a jump the device made, not a pinch:
        /// it is discarded (the fingers start again from there). Real pinches
        /// change it by under 1.1 a frame; a 2-slot pad whose remaining slot
        /// jumps onto the other finger changes it from 20 mm to nothing.
        public var jumpScaleRatio: Double = 1.5
        /// A frame in which the fingers turn by more than this many degrees
        /// is a jump (two slots swapping their fingers turn them 180 degrees),
        /// and is discarded like a ``jumpScaleRatio`` one. Real rotations turn
        /// under 15 degrees a frame.
        public var jumpRotationDegrees: Double = 45

        /// How far, in millimetres, each of two or more fingers must have
        /// moved, together (in directions within 45 degrees of each other),
        /// while another contact rests within the motion threshold of where
        /// it settled, for that contact to be a resting thumb or palm (one
        /// finger moving is enough beside a contact that landed at least
        /// ``holdDelay`` before it: a thumb resting while a finger points): it is
        /// then left out, as a palm, until it lifts, and the others make the
        /// gesture (two fingers scrolling beside a resting thumb swipe with
        /// two fingers instead of pinching with three). libinput calls a
        /// touch a thumb when another moves 4 mm (+ 2 mm per finger) while
        /// it stays still. 0 turns the rule off.
        public var restingContactMotionMillimeters: Double = 4
        /// The height, in millimetres, of the zone along the lower edge of a
        /// touchpad where a thumb rests: a contact resting still there while
        /// one finger is seen moving beside it is a resting thumb (see
        /// ``restingContactMotionMillimeters``) even when it landed with the
        /// fingers. A thumb resting on the lower edge presses a contact some
        /// 15-20 mm long whose centre is 5-10 mm above the edge; 10 mm, at
        /// most 15 % of the height (libinput's thumb lines lie at 85 % and
        /// 92 % of the height), see ``thumbZone(on:)``. 0 turns it off.
        public var thumbZoneMillimeters: Double = 10

        /// The width, in millimetres, of the zones along the left and right
        /// edges of a touchpad where a palm lands: a touch whose contacts all
        /// landed there is no tap and no hold (libinput's palm tap: 8 mm, at most 8 % of
        /// the width, on pads at least 70 mm wide; see ``palmEdgeZone(on:)``).
        /// 0 turns it off.
        public var palmEdgeZoneMillimeters: Double = 8

        /// The longest a tap may keep one finger count, as libinput's tap
        /// timer restarted at every landing and lift: the first landing to
        /// the next, ..., the last landing to the first lift, ..., to the last
        /// lift. 200 ms (libinput: 180 ms) equals ``holdDelay``, so fingers
        /// resting still are a tap or a hold, never neither.
        public var tapMaximumDuration: Duration = .milliseconds(200)
        /// The shortest a tap may be, from the first landing to the last
        /// lift: a palm brushing or sliding over the pad breaks into contacts
        /// of one or two frames (12-25 ms on the Atmel maXTouch), each of
        /// which was a tap; the quickest real taps on both Chromebook pads
        /// last 43 ms. Measured in time, not frames: the kernel drops frames
        /// in which nothing changed, so a finger resting still on a pad with
        /// a fuzz filter may be seen in two frames only (its landing and its
        /// lift). 0 turns it off.
        public var tapMinimumDuration: Duration = .milliseconds(30)
        /// How soon after a lift a landing is the same contact coming back,
        /// not a new one: a palm the firmware loses and finds again (under a
        /// new tracking id) lands 11-80 ms after it lifted, while a finger
        /// tapping again lifts and lands in 100 ms at the quickest (a
        /// tap-and-a-half's second landing comes 101-127 ms after the first
        /// lift on the Chromebook recordings). A touch landing within it of
        /// the last lift of every finger is the touch before found again:
        /// neither of them taps and it holds nothing, so a 1-finger tap (a
        /// palm comes back as one contact) fires only once the gap is over
        /// with nothing landing, stamped with its lift time (libinput too
        /// waits its tap timeout before it releases the button); a tap of
        /// more fingers fires at its lift. A contact landing within it and within
        /// ``palmRelandingDistanceMillimeters`` of where a palm lifted is that
        /// palm. 0 turns all of it off (a tap fires at its lift).
        public var relandingGap: Duration = .milliseconds(60)
        /// How far, in millimetres, from where a palm lifted a contact
        /// landing within ``relandingGap`` is that palm again: the pieces of a
        /// palm resting on the Atmel maXTouch land within 1 mm of each other,
        /// those of a sliding palm 2-3 mm on. 0 turns it off.
        public var palmRelandingDistanceMillimeters: Double = 10
        /// The fraction of the device's pressure range (its
        /// ``GestureSurface/pressureRange``) a touchpad contact must reach to
        /// touch: until it does, it hovers, and is neither a finger nor a
        /// position (as libinput begins a touch above a pressure threshold,
        /// by default 12 % of the range). 0.05 is 13 of 0-255: a thumb
        /// hovering over the Cypress APA presses at 4-8 of 255, and the Atmel
        /// maXTouch reports pieces of a palm at 0, while the lightest real
        /// taps on both pads reach 29 and more. Surfaces without a pressure
        /// range, touchscreens, and devices that have not yet reported a
        /// pressure above the range's minimum have no hover. 0 turns it off.
        public var touchPressureFraction: Double = 0.05
        /// How far, in millimetres, a finger may be from where it landed
        /// (its first firm position) once its landing is over, and still tap:
        /// 1.5 mm, the motion threshold of one finger (libinput: 1.3 mm from
        /// the first position on). The Cypress APA's quick taps drift 1.3-1.4 mm
        /// while pressing; pointer motions of 2.5 mm over 80 ms move 1.56 mm
        /// between their firm frames (`GestureEngineTapJitterTests`).
        public var tapMaximumMovementMillimeters: Double = 1.5
        /// How long after a contact's first firm frame it is still landing:
        /// its position may wander there (semi-MT positions jump for a few
        /// frames) as long as it comes back within
        /// ``tapMaximumMovementMillimeters`` of where it landed.
        public var tapLandingTime: Duration = .milliseconds(40)
        /// How far, in millimetres, a landing position (see
        /// ``tapLandingTime``) may be from where the finger landed for a tap:
        /// real landings jump several millimetres; farther is motion.
        public var tapLandingToleranceMillimeters: Double = 8
        /// A contact's first and last frames whose pressure (or touch size,
        /// when the device has no pressure) is under this fraction of the
        /// contact's own peak are its landing and lifting frames: their
        /// positions do not count for a tap (Synaptics pads slide 1-3 mm as
        /// the pressure drops in the last frame). Without pressure or size,
        /// the last frame before the contact lifts is its lifting frame.
        /// 0.95: a finger rolls while its pressure rises to its plateau and
        /// while it falls again (the Cypress APA's taps slide 1-2 mm as the
        /// pressure falls from 58 to 11 of 63 over 50 ms), so only the frames
        /// pressing within 5 % of the peak say where it tapped.
        public var tapLightPressureRatio: Double = 0.95

        /// On a surface whose positions are approximate (semi-multitouch), how
        /// long after a finger lands or lifts the reported position is still
        /// settling: frames within it move the starting point instead of
        /// counting as motion (ChromeOS's gesture library blocks motion 40 ms
        /// after a finger change; libinput ignores the changing frame only).
        public var approximatePositionSettleTime: Duration = .milliseconds(40)

        /// Whether fingers resting still become a hold.
        public var holds: Bool = true
        /// How long fingers must rest still, after the last one lands, for a
        /// hold. Not shorter than ``tapMaximumDuration``, so that no tap is
        /// preceded by a hold (libinput: 40 ms for 1-2 fingers, 180 ms for 3+).
        public var holdDelay: Duration = .milliseconds(200)

        /// How long a new finger count must last, during a gesture, before it
        /// cancels the gesture (libinput: 100 ms), and before its fingers may
        /// begin a swipe short of the swipe threshold
        /// (``swipeBeginThresholdMillimeters``). Fingers lifting within this
        /// time of each other end the gesture normally, and a finger that
        /// vanishes for a frame or two and comes back within it (2-slot and
        /// semi-MT pads lose the second finger so) ends neither a gesture nor
        /// a tap.
        public var fingerChangeDebounce: Duration = .milliseconds(100)

        /// The finger count that draws a stroke on a touchscreen, or `nil`
        /// for none.
        public var touchscreenStrokeFingers: Int? = 1
        /// The finger count that draws a stroke on a touchpad, or `nil` for
        /// none (the default: one finger moves the pointer, and more swipe).
        /// A count set here draws strokes instead of swiping or pinching.
        public var touchpadStrokeFingers: Int? = nil
        /// The smallest stroke, in millimetres: the diagonal of the box round
        /// its path. A finger trembling in place draws a long path in a
        /// small box, and is no stroke.
        public var strokeMinimumLengthMillimeters: Double = 15
        /// How wide a stroke must be across its main axis, as a fraction of
        /// its length along it, whatever it matches. A narrower one is a
        /// drag along one line (straight: under 0.05) and never fires, nor
        /// is it a sample to train with; the $1 shapes are wider (the
        /// narrowest of the study's 2,400 real strokes, curly braces drawn
        /// tall, are 0.14).
        public var strokeMinimumWidthRatio: Double = 0.1
        /// How wide a stroke must be, as a share of the width ratio of the
        /// template it matches best: a stroke is a drag, not that shape,
        /// when it is much narrower than the shape is. So a curly brace
        /// drawn 0.15 wide fires as the bundled narrow brace (0.23: 0.092
        /// needed), and a scroll there and back 0.2 wide is no caret (0.98:
        /// 0.39 needed). 0 turns it off.
        public var strokeMinimumTemplateWidthShare: Double = 0.4
        /// How much nearer its best template a stroke must be than the best
        /// template with another name, as a fraction of that other's
        /// distance (distance = 1 - score; `StrokeRule.lead(of:over:)`):
        /// 0.2 fires a stroke whose runner-up is at least 1.25 times as far.
        /// One finger also drags and scrolls on a touchscreen, and such a
        /// path matches some template about as well as several others; a
        /// drawn shape stands out. 0 turns the margin off.
        public var strokeMinimumMargin: Double = 0.2
        /// How strokes are matched against the templates.
        public var strokeRecognition = UnistrokeRecognizer.Configuration()

        /// Named swipe sequences recognised over completed swipes.
        public var sequences: [SwipeSequenceMatcher.NamedSequence] = []
        /// The longest pause between two swipes of a sequence.
        public var sequenceMaximumGap: Duration = SwipeSequenceMatcher.defaultMaximumGap
        /// The longest a whole sequence may take.
        public var sequenceTimeout: Duration = SwipeSequenceMatcher.defaultTimeout

        /// The defaults.
        public init() {}

        /// The pressure, in `surface`'s device units, below which a contact
        /// that has not pressed harder yet hovers (see
        /// ``touchPressureFraction``), or nil when there is no such rule on it.
        public func touchPressure(on surface: GestureSurface) -> Double? {
            guard surface.kind == .touchpad, touchPressureFraction > 0, let range = surface.pressureRange else { return nil }
            return range.lowerBound + touchPressureFraction * (range.upperBound - range.lowerBound)
        }

        /// The palm edge zone's width on `surface`, in millimetres, or nil
        /// when it has none: ``palmEdgeZoneMillimeters``, at most 8 % of the
        /// width, on touchpads at least 70 mm wide (libinput's rule).
        public func palmEdgeZone(on surface: GestureSurface) -> Double? {
            guard surface.kind == .touchpad, surface.widthMillimeters >= 70, palmEdgeZoneMillimeters > 0 else { return nil }
            return min(palmEdgeZoneMillimeters, 0.08 * surface.widthMillimeters)
        }

        /// The height of the thumb zone along the lower edge of `surface`,
        /// in millimetres: ``thumbZoneMillimeters``, at most 15 % of the
        /// surface's height; nil on touchscreens and when it is off.
        public func thumbZone(on surface: GestureSurface) -> Double? {
            guard surface.kind == .touchpad, thumbZoneMillimeters > 0 else { return nil }
            return min(thumbZoneMillimeters, 0.15 * surface.heightMillimeters)
        }

        /// The motion threshold for `fingers` fingers, in millimetres.
        public func motionThresholdMillimeters(fingers: Int) -> Double {
            motionThresholdMillimeters + motionThresholdPerExtraFingerMillimeters * Double(max(0, fingers - 1))
        }

        /// The swipe threshold for `fingers` fingers, in millimetres.
        public func swipeThresholdMillimeters(fingers: Int) -> Double {
            fingers == 2 ? twoFingerSwipeThresholdMillimeters : swipeThresholdMillimeters
        }

        /// The travel at which `fingers` fingers begin a swipe on `surface`,
        /// in millimetres: ``swipeBeginThresholdMillimeters``, at most the
        /// swipe threshold, on a touchpad that reports each finger's
        /// position; the swipe threshold elsewhere. On a touchscreen the
        /// fingers of one gesture land up to 120 ms apart while the first
        /// already move (the Atmel maXTouch's four-finger drag) and libinput
        /// makes no gestures at all; on a semi-multitouch pad the positions
        /// are the corners of a box that jumps several millimetres as
        /// fingers land and lift (the ALPS GlidePoint's two-finger tap moves
        /// its box 21 ms after the second finger lands, and again later), so
        /// a little travel says nothing there.
        public func swipeBeginThresholdMillimeters(fingers: Int, on surface: GestureSurface) -> Double {
            let threshold = swipeThresholdMillimeters(fingers: fingers)
            guard surface.kind == .touchpad, !surface.positionsAreApproximate else { return threshold }
            return min(swipeBeginThresholdMillimeters, threshold)
        }

        /// The stroke finger count for `kind`, if strokes are on.
        public func strokeFingers(on kind: GestureSurface.Kind) -> Int? {
            kind == .touchscreen ? touchscreenStrokeFingers : touchpadStrokeFingers
        }

        /// The rule a touch stroke must pass to fire, in millimetres:
        /// ``strokeMinimumLengthMillimeters``, ``strokeMinimumWidthRatio``,
        /// ``strokeMinimumTemplateWidthShare``
        /// and ``strokeMinimumMargin``, with the threshold of
        /// ``strokeRecognition``. The engine, `train` and `recognize` all
        /// judge strokes by it.
        public var strokeRule: StrokeRule { StrokeRule(self) }
    }
}

extension GestureEngine.Configuration {
    /// The range of every number a configuration file may set, by its key
    /// (nested keys with dots): the one place these ranges are defined. Every
    /// reader (`replay --config`, the daemon's `engine` section) checks them
    /// while decoding, with the same message; Docs/GestureEngine.md lists them.
    ///
    ///     GestureEngine.Configuration.numberRanges["holdDelayMilliseconds"]?.requirement
    ///     // "must be a number between 0 and 10000"
    public static let numberRanges: [String: NumberRange] = [
        "motionThresholdMillimeters": NumberRange(0...50),
        "motionThresholdPerExtraFingerMillimeters": NumberRange(0...20),
        "swipeThresholdMillimeters": NumberRange(0.5...100),
        "twoFingerSwipeThresholdMillimeters": NumberRange(0.5...100),
        "swipeBeginThresholdMillimeters": NumberRange(0.5...100),
        "swipeDominanceRatio": NumberRange(0...100),
        "swipeDirection.minimumDistanceMillimeters": SwipeDirection.Classifier.minimumDistanceRange,
        "swipeDirection.deadZoneDegrees": SwipeDirection.Classifier.deadZoneRange,
        "edgeZoneMillimeters": NumberRange(0...100),
        "pinchScaleThreshold": NumberRange(0.01...0.9),
        "rotationThresholdDegrees": NumberRange(1...180),
        "pinchThresholdMillimeters": NumberRange(0...100),
        "jumpScaleRatio": NumberRange(1.01...100),
        "jumpRotationDegrees": NumberRange(1...180),
        "restingContactMotionMillimeters": NumberRange(0...100),
        "thumbZoneMillimeters": NumberRange(0...100),
        "palmEdgeZoneMillimeters": NumberRange(0...100),
        "tapMaximumDurationMilliseconds": NumberRange(0...2_000),
        "tapMaximumMovementMillimeters": NumberRange(0...50),
        "tapMinimumDurationMilliseconds": NumberRange(0...1_000),
        "relandingGapMilliseconds": NumberRange(0...1_000),
        "palmRelandingDistanceMillimeters": NumberRange(0...100),
        "touchPressureFraction": NumberRange(0...1),
        "tapLandingMilliseconds": NumberRange(0...1_000),
        "tapLandingToleranceMillimeters": NumberRange(0...50),
        "tapLightPressureRatio": NumberRange(0...1),
        "approximatePositionSettleMilliseconds": NumberRange(0...1_000),
        "holdDelayMilliseconds": NumberRange(0...10_000),
        "fingerChangeDebounceMilliseconds": NumberRange(0...2_000),
        "touchscreenStrokeFingers": NumberRange.integers(1...GestureEngine.maximumFingers),
        "touchpadStrokeFingers": NumberRange.integers(1...GestureEngine.maximumFingers),
        "strokeMinimumLengthMillimeters": NumberRange(0...1_000),
        "strokeMinimumWidthRatio": NumberRange(0...1),
        "strokeMinimumTemplateWidthShare": NumberRange(0...1),
        "strokeMinimumMargin": NumberRange(0...1),
        "strokeRecognition.rejectionThreshold": UnistrokeRecognizer.Configuration.rejectionThresholdRange,
        "strokeRecognition.resampleCount": UnistrokeRecognizer.Configuration.resampleCountRange,
        "strokeRecognition.maximumPoints": UnistrokeRecognizer.Configuration.maximumPointsRange,
        "strokeRecognition.orientation.sensitive.toleranceDegrees": UnistrokeRecognizer.Configuration.toleranceRange,
        "sequenceMaximumGapMilliseconds": NumberRange(1...60_000),
        "sequenceTimeoutMilliseconds": NumberRange(1...600_000),
    ]

    /// The range of a top-level key (every numeric key has one).
    static func range(_ key: CodingKeys) -> NumberRange {
        numberRanges[key.stringValue] ?? NumberRange(0...0)
    }
}

extension GestureEngine.Configuration: Codable {
    /// The keys a configuration's engine section may hold, in the order of
    /// Docs/GestureEngine.md: what the daemon's configuration checks its
    /// `engine` keys against.
    public static let keys: [String] = CodingKeys.allCases.map(\.stringValue)

    enum CodingKeys: String, CodingKey, CaseIterable {
        case motionThresholdMillimeters, motionThresholdPerExtraFingerMillimeters
        case swipeThresholdMillimeters, twoFingerSwipes, twoFingerSwipeThresholdMillimeters, swipeBeginThresholdMillimeters
        case swipeDominanceRatio, swipeDirection, edgeZoneMillimeters
        case pinchScaleThreshold, rotationThresholdDegrees, pinchThresholdMillimeters
        case jumpScaleRatio, jumpRotationDegrees, restingContactMotionMillimeters, thumbZoneMillimeters, palmEdgeZoneMillimeters
        case tapMaximumDurationMilliseconds, tapMaximumMovementMillimeters, tapMinimumDurationMilliseconds
        case relandingGapMilliseconds, palmRelandingDistanceMillimeters, touchPressureFraction
        case tapLandingMilliseconds, tapLandingToleranceMillimeters, tapLightPressureRatio
        case approximatePositionSettleMilliseconds
        case holds, holdDelayMilliseconds, fingerChangeDebounceMilliseconds
        case touchscreenStrokeFingers, touchpadStrokeFingers, strokeMinimumLengthMillimeters, strokeMinimumWidthRatio
        case strokeMinimumTemplateWidthShare, strokeMinimumMargin
        case strokeRecognition
        case sequences, sequenceMaximumGapMilliseconds, sequenceTimeoutMilliseconds
    }

    /// Reads a configuration: missing keys (and `null`, except for the two
    /// stroke finger counts, where it means "no strokes") keep their
    /// defaults, and every number is checked against ``numberRanges``, so a
    /// file cannot make the engine trap or allocate without bound. Problems
    /// throw `InvalidValue` with the key's path and the range:
    /// `holdDelayMilliseconds: must be a number between 0 and 10000`.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.object(keyedBy: CodingKeys.self)
        func number(_ key: CodingKeys, into value: inout Double) throws {
            if let decoded = try c.decodeNumber(forKey: key, in: Self.range(key)) { value = decoded }
        }
        func flag(_ key: CodingKeys, into value: inout Bool) throws {
            if let decoded = try c.decodeFlag(forKey: key) { value = decoded }
        }
        func milliseconds(_ key: CodingKeys, into value: inout Duration) throws {
            // In range, so the nanoseconds fit in Int64 with room to spare.
            if let decoded = try c.decodeNumber(forKey: key, in: Self.range(key)) {
                value = .nanoseconds(Int64((decoded * 1_000_000).rounded()))
            }
        }
        func fingers(_ key: CodingKeys) throws -> Int? {
            // `null` means "no strokes".
            if (try? c.decodeNil(forKey: key)) == true { return nil }
            do { return try c.decodeInteger(forKey: key, in: Self.range(key)) } catch var error as InvalidValue {
                error.message += ", or null for none"
                throw error
            }
        }
        try number(.motionThresholdMillimeters, into: &motionThresholdMillimeters)
        try number(.motionThresholdPerExtraFingerMillimeters, into: &motionThresholdPerExtraFingerMillimeters)
        try number(.swipeThresholdMillimeters, into: &swipeThresholdMillimeters)
        try flag(.twoFingerSwipes, into: &twoFingerSwipes)
        try number(.twoFingerSwipeThresholdMillimeters, into: &twoFingerSwipeThresholdMillimeters)
        try number(.swipeBeginThresholdMillimeters, into: &swipeBeginThresholdMillimeters)
        try number(.swipeDominanceRatio, into: &swipeDominanceRatio)
        if let classifier = try c.decodeIfPresent(SwipeDirection.Classifier.self, forKey: .swipeDirection) {
            swipeDirection = classifier
        }
        try number(.edgeZoneMillimeters, into: &edgeZoneMillimeters)
        try number(.pinchScaleThreshold, into: &pinchScaleThreshold)
        try number(.rotationThresholdDegrees, into: &rotationThresholdDegrees)
        try number(.pinchThresholdMillimeters, into: &pinchThresholdMillimeters)
        try number(.jumpScaleRatio, into: &jumpScaleRatio)
        try number(.jumpRotationDegrees, into: &jumpRotationDegrees)
        try number(.restingContactMotionMillimeters, into: &restingContactMotionMillimeters)
        try number(.thumbZoneMillimeters, into: &thumbZoneMillimeters)
        try number(.palmEdgeZoneMillimeters, into: &palmEdgeZoneMillimeters)
        try milliseconds(.tapMaximumDurationMilliseconds, into: &tapMaximumDuration)
        try number(.tapMaximumMovementMillimeters, into: &tapMaximumMovementMillimeters)
        try milliseconds(.tapMinimumDurationMilliseconds, into: &tapMinimumDuration)
        try milliseconds(.relandingGapMilliseconds, into: &relandingGap)
        try number(.palmRelandingDistanceMillimeters, into: &palmRelandingDistanceMillimeters)
        try number(.touchPressureFraction, into: &touchPressureFraction)
        try milliseconds(.tapLandingMilliseconds, into: &tapLandingTime)
        try number(.tapLandingToleranceMillimeters, into: &tapLandingToleranceMillimeters)
        try number(.tapLightPressureRatio, into: &tapLightPressureRatio)
        try milliseconds(.approximatePositionSettleMilliseconds, into: &approximatePositionSettleTime)
        try flag(.holds, into: &holds)
        try milliseconds(.holdDelayMilliseconds, into: &holdDelay)
        try milliseconds(.fingerChangeDebounceMilliseconds, into: &fingerChangeDebounce)
        if c.contains(.touchscreenStrokeFingers) { touchscreenStrokeFingers = try fingers(.touchscreenStrokeFingers) }
        if c.contains(.touchpadStrokeFingers) { touchpadStrokeFingers = try fingers(.touchpadStrokeFingers) }
        try number(.strokeMinimumLengthMillimeters, into: &strokeMinimumLengthMillimeters)
        try number(.strokeMinimumWidthRatio, into: &strokeMinimumWidthRatio)
        try number(.strokeMinimumTemplateWidthShare, into: &strokeMinimumTemplateWidthShare)
        try number(.strokeMinimumMargin, into: &strokeMinimumMargin)
        if let recognition = try c.decodeIfPresent(UnistrokeRecognizer.Configuration.self, forKey: .strokeRecognition) {
            strokeRecognition = recognition
        }
        if let read = try SwipeSequenceMatcher.NamedSequence.decodeList(from: c, forKey: .sequences) { sequences = read }
        try milliseconds(.sequenceMaximumGapMilliseconds, into: &sequenceMaximumGap)
        try milliseconds(.sequenceTimeoutMilliseconds, into: &sequenceTimeout)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(motionThresholdMillimeters, forKey: .motionThresholdMillimeters)
        try c.encode(motionThresholdPerExtraFingerMillimeters, forKey: .motionThresholdPerExtraFingerMillimeters)
        try c.encode(swipeThresholdMillimeters, forKey: .swipeThresholdMillimeters)
        try c.encode(twoFingerSwipes, forKey: .twoFingerSwipes)
        try c.encode(twoFingerSwipeThresholdMillimeters, forKey: .twoFingerSwipeThresholdMillimeters)
        try c.encode(swipeBeginThresholdMillimeters, forKey: .swipeBeginThresholdMillimeters)
        try c.encode(swipeDominanceRatio, forKey: .swipeDominanceRatio)
        try c.encode(swipeDirection, forKey: .swipeDirection)
        try c.encode(edgeZoneMillimeters, forKey: .edgeZoneMillimeters)
        try c.encode(pinchScaleThreshold, forKey: .pinchScaleThreshold)
        try c.encode(rotationThresholdDegrees, forKey: .rotationThresholdDegrees)
        try c.encode(pinchThresholdMillimeters, forKey: .pinchThresholdMillimeters)
        try c.encode(jumpScaleRatio, forKey: .jumpScaleRatio)
        try c.encode(jumpRotationDegrees, forKey: .jumpRotationDegrees)
        try c.encode(restingContactMotionMillimeters, forKey: .restingContactMotionMillimeters)
        try c.encode(thumbZoneMillimeters, forKey: .thumbZoneMillimeters)
        try c.encode(palmEdgeZoneMillimeters, forKey: .palmEdgeZoneMillimeters)
        try c.encodeMilliseconds(tapMaximumDuration, forKey: .tapMaximumDurationMilliseconds)
        try c.encode(tapMaximumMovementMillimeters, forKey: .tapMaximumMovementMillimeters)
        try c.encodeMilliseconds(tapMinimumDuration, forKey: .tapMinimumDurationMilliseconds)
        try c.encodeMilliseconds(relandingGap, forKey: .relandingGapMilliseconds)
        try c.encode(palmRelandingDistanceMillimeters, forKey: .palmRelandingDistanceMillimeters)
        try c.encode(touchPressureFraction, forKey: .touchPressureFraction)
        try c.encodeMilliseconds(tapLandingTime, forKey: .tapLandingMilliseconds)
        try c.encode(tapLandingToleranceMillimeters, forKey: .tapLandingToleranceMillimeters)
        try c.encode(tapLightPressureRatio, forKey: .tapLightPressureRatio)
        try c.encodeMilliseconds(approximatePositionSettleTime, forKey: .approximatePositionSettleMilliseconds)
        try c.encode(holds, forKey: .holds)
        try c.encodeMilliseconds(holdDelay, forKey: .holdDelayMilliseconds)
        try c.encodeMilliseconds(fingerChangeDebounce, forKey: .fingerChangeDebounceMilliseconds)
        try c.encode(touchscreenStrokeFingers, forKey: .touchscreenStrokeFingers)
        try c.encode(touchpadStrokeFingers, forKey: .touchpadStrokeFingers)
        try c.encode(strokeMinimumLengthMillimeters, forKey: .strokeMinimumLengthMillimeters)
        try c.encode(strokeMinimumWidthRatio, forKey: .strokeMinimumWidthRatio)
        try c.encode(strokeMinimumTemplateWidthShare, forKey: .strokeMinimumTemplateWidthShare)
        try c.encode(strokeMinimumMargin, forKey: .strokeMinimumMargin)
        try c.encode(strokeRecognition, forKey: .strokeRecognition)
        try c.encode(sequences, forKey: .sequences)
        try c.encodeMilliseconds(sequenceMaximumGap, forKey: .sequenceMaximumGapMilliseconds)
        try c.encodeMilliseconds(sequenceTimeout, forKey: .sequenceTimeoutMilliseconds)
    }
}

extension KeyedEncodingContainer {
    /// Encodes `duration` as a number of milliseconds, as the configuration's `...Milliseconds` keys hold it.
    fileprivate mutating func encodeMilliseconds(_ duration: Duration, forKey key: Key) throws {
        try encode(GestureEvent.milliseconds(duration), forKey: key)
    }
}
