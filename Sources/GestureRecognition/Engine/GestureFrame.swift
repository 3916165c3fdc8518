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

        /// A contact `id` at `position` in millimetres.
        public init(id: Int, position: Point, isPalm: Bool = false) {
            self.id = id
            self.position = position
            self.isPalm = isPalm
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

    /// A frame at `time` with `contacts`; `fingerCount` defaults to the
    /// number of contacts.
    public init(time: Duration, contacts: [Contact], fingerCount: Int? = nil) {
        self.time = time
        self.contacts = contacts
        self.fingerCount = fingerCount ?? contacts.count
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

    /// A surface of `kind`, `widthMillimeters` by `heightMillimeters`.
    public init(kind: Kind, widthMillimeters: Double, heightMillimeters: Double) {
        self.kind = kind
        self.widthMillimeters = widthMillimeters
        self.heightMillimeters = heightMillimeters
    }
}
