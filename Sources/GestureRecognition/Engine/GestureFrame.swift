/// The touches on a surface at one instant: the input of ``GestureEngine``.
///
/// The touch-input layer builds one frame per kernel `SYN_REPORT`, in
/// millimetres (y grows downwards) and with the time taken from the events
/// themselves, so a replayed recording gives the same gestures as the live
/// device.
///
///     let frame = GestureFrame(time: .milliseconds(16), contacts: [
///         .init(id: 7, position: Point(x: 30, y: 20)),
///         .init(id: 8, position: Point(x: 50, y: 21)),
///     ])
///     frame.fingerCount   // 2
public struct GestureFrame: Hashable, Sendable, Codable {
    /// One touch the device tracks in a slot.
    public struct Contact: Hashable, Sendable, Codable {
        /// The tracking id: the same while the finger stays down.
        public var id: Int
        /// Where it touches, in millimetres from the top-left corner.
        public var position: Point
        /// Whether the device says this is a palm or a resting thumb
        /// (`MT_TOOL_PALM`, or pressure or touch size over the device's
        /// threshold): the engine ignores it, and it does not count as a finger.
        public var isPalm: Bool
        /// How firmly it touches, in the device's own units: its pressure
        /// (`ABS_MT_PRESSURE`, `ABS_PRESSURE` on single-touch and semi-MT
        /// pads), else its touch size (`ABS_MT_TOUCH_MAJOR`); nil when the
        /// device reports neither. The engine compares it only with the same
        /// contact's other values: a frame well under the contact's peak is a
        /// finger landing or lifting, whose position may slide.
        public var pressure: Double?

        /// A contact `id` at `position` in millimetres, with its `pressure`
        /// (or touch size) in device units when the device reports one.
        public init(id: Int, position: Point, isPalm: Bool = false, pressure: Double? = nil) {
            self.id = id
            self.position = position
            self.isPalm = isPalm
            self.pressure = pressure
        }
    }

    /// A monotonic time since an origin the caller chooses (the first event
    /// of a recording, the boot clock): never the wall clock.
    public var time: Duration
    /// The touches with a slot, palms included.
    public var contacts: [Contact]
    /// How many fingers touch, palms included. It may exceed
    /// `contacts.count` on pads with fewer slots than fingers (the count then
    /// comes from `BTN_TOOL_DOUBLETAP` ... `BTN_TOOL_QUINTTAP`).
    public var fingerCount: Int
    /// Whether a physical button of the device is held: a clickpad pressed
    /// down (`BTN_LEFT` under the pad, whatever button clickfinger makes of
    /// it) or a button beside the pad. A click is never a gesture: the
    /// engine ends a gesture in progress cancelled and waits for every
    /// finger to lift.
    public var isButtonDown: Bool

    /// A frame at `time` with `contacts`; `fingerCount` defaults to the
    /// number of contacts; `isButtonDown` when a physical button is held.
    public init(time: Duration, contacts: [Contact], fingerCount: Int? = nil, isButtonDown: Bool = false) {
        self.time = time
        self.contacts = contacts
        self.fingerCount = fingerCount ?? contacts.count
        self.isButtonDown = isButtonDown
    }

    enum CodingKeys: String, CodingKey {
        case time, contacts, fingerCount, isButtonDown
    }

    /// Decodes a frame; `isButtonDown` is optional (default false), so frames
    /// written before it existed still read.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        time = try c.decode(Duration.self, forKey: .time)
        contacts = try c.decode([Contact].self, forKey: .contacts)
        fingerCount = try c.decode(Int.self, forKey: .fingerCount)
        isButtonDown = try c.decodeIfPresent(Bool.self, forKey: .isButtonDown) ?? false
    }
}

/// The device a ``GestureEngine`` reads: what kind it is and its size.
public struct GestureSurface: Hashable, Sendable, Codable {
    /// Whether the surface moves a pointer or is the screen itself.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// An indirect device (`INPUT_PROP_POINTER`): one finger moves the pointer.
        case touchpad
        /// A direct device (`INPUT_PROP_DIRECT`): one finger draws or drags.
        case touchscreen
    }

    /// Touchpad or touchscreen.
    public var kind: Kind
    /// The width of the touch area in millimetres.
    public var widthMillimeters: Double
    /// The height of the touch area in millimetres.
    public var heightMillimeters: Double
    /// Whether the device reports one approximate position for all its
    /// fingers rather than one per finger: semi-multitouch pads
    /// (`INPUT_PROP_SEMI_MT`) send a bounding box, read as one contact plus a
    /// `BTN_TOOL_*` finger count. That position jumps when a finger lands or
    /// lifts and settles over the next frames, so the engine lets it settle
    /// (``GestureEngine/Configuration/approximatePositionSettleTime``) before
    /// it counts as motion.
    public var positionsAreApproximate: Bool
    /// The range of the contacts' pressure (``GestureFrame/Contact/pressure``)
    /// in device units, when they report pressure (not touch size): the
    /// engine judges a hovering contact by the fraction of it reached
    /// (``GestureEngine/Configuration/touchPressureFraction``). Nil when
    /// unknown: no contact is taken for hovering.
    public var pressureRange: ClosedRange<Double>?

    /// A surface of `kind`, `widthMillimeters` by `heightMillimeters`;
    /// `positionsAreApproximate` for semi-multitouch pads, `pressureRange`
    /// for devices whose contacts report pressure.
    public init(
        kind: Kind, widthMillimeters: Double, heightMillimeters: Double, positionsAreApproximate: Bool = false,
        pressureRange: ClosedRange<Double>? = nil
    ) {
        self.kind = kind
        self.widthMillimeters = widthMillimeters
        self.heightMillimeters = heightMillimeters
        self.positionsAreApproximate = positionsAreApproximate
        self.pressureRange = pressureRange
    }

    enum CodingKeys: String, CodingKey {
        case kind, widthMillimeters, heightMillimeters, positionsAreApproximate, pressureRange
    }

    /// Decodes a surface; `positionsAreApproximate` (default false) and
    /// `pressureRange` (default none) are optional.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decode(Kind.self, forKey: .kind)
        widthMillimeters = try c.decode(Double.self, forKey: .widthMillimeters)
        heightMillimeters = try c.decode(Double.self, forKey: .heightMillimeters)
        positionsAreApproximate = try c.decodeIfPresent(Bool.self, forKey: .positionsAreApproximate) ?? false
        pressureRange = try c.decodeIfPresent(ClosedRange<Double>.self, forKey: .pressureRange)
    }
}
