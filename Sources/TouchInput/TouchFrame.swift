import GestureRecognition

/// The state of a device at one SYN_REPORT: the touches on it, how many
/// fingers it counts, its buttons and the relative motion since the last frame.
///
/// ```swift
/// var decoder = MultitouchDecoder(device: pad)
/// for event in events {
///     if let frame = decoder.process(event) {
///         print(frame.fingerCount, frame.contacts.map(\.position))
///     }
/// }
/// ```
public struct TouchFrame: Hashable, Sendable {
    /// The time of the closing SYN_REPORT, in microseconds.
    public var microseconds: Int64 = 0
    /// The touches the device reports, ordered by slot (protocol B) or by report (protocol A).
    ///
    /// Only real touches: when a touchpad counts more fingers than it has
    /// slots, the extra fingers show in ``fingerCount`` only.
    public var contacts: [Contact] = []
    /// The number of fingers down: the highest BTN_TOOL_* key held (FINGER 1
    /// ... QUINTTAP 5) or the number of contacts, whichever is larger; on
    /// touchscreens, the number of contacts.
    public var fingerCount: Int = 0
    /// The mouse and clickpad buttons held.
    public var buttons: Buttons = []
    /// Whether BTN_TOUCH is down or any contact is.
    public var isTouching: Bool = false
    /// REL_X since the previous frame, in device counts (not millimetres).
    public var relativeX: Int32 = 0
    /// REL_Y since the previous frame, in device counts; positive is down.
    public var relativeY: Int32 = 0
    /// REL_WHEEL since the previous frame, in detents; positive is away from the user.
    public var wheel: Int32 = 0
    /// REL_HWHEEL since the previous frame, in detents; positive is right.
    public var horizontalWheel: Int32 = 0
    /// Whether the kernel dropped events (SYN_DROPPED) before this frame; its state may be stale.
    public var followsDroppedEvents: Bool = false
    /// How many contact positions in this frame were absurd jumps and were discarded.
    public var discardedJumps: Int = 0

    public init() {}
}

/// One touch on the surface.
public struct Contact: Hashable, Sendable {
    /// Stable for the life of the touch and never reused by the same decoder (0, 1, 2, ...).
    public var id: Int
    /// The protocol B slot, or -1 for protocol A and single-touch devices.
    public var slot: Int
    /// The position in millimetres from the surface's top-left corner (y grows downwards).
    public var position: Point
    /// ABS_MT_PRESSURE (ABS_PRESSURE on single-touch devices) in device units, when the device reports it.
    public var pressure: Int32?
    /// ABS_MT_TOUCH_MAJOR in device units, when reported.
    public var touchMajor: Int32?
    /// ABS_MT_TOUCH_MINOR in device units, when reported.
    public var touchMinor: Int32?
    /// Whether this is a palm or resting thumb: the device says so
    /// (`MT_TOOL_PALM`), or on a touchpad its pressure or touch size went over
    /// ``MultitouchDecoder/PalmDetection``'s thresholds since it landed.
    public var isPalm: Bool

    public init(
        id: Int, slot: Int = -1, position: Point, pressure: Int32? = nil,
        touchMajor: Int32? = nil, touchMinor: Int32? = nil, isPalm: Bool = false
    ) {
        self.id = id
        self.slot = slot
        self.position = position
        self.pressure = pressure
        self.touchMajor = touchMajor
        self.touchMinor = touchMinor
        self.isPalm = isPalm
    }
}

/// Mouse and clickpad buttons: bit n is key code BTN_LEFT + n.
public struct Buttons: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let left = Buttons(rawValue: 1 << 0)
    public static let right = Buttons(rawValue: 1 << 1)
    public static let middle = Buttons(rawValue: 1 << 2)
    public static let side = Buttons(rawValue: 1 << 3)
    public static let extra = Buttons(rawValue: 1 << 4)
    public static let forward = Buttons(rawValue: 1 << 5)
    public static let back = Buttons(rawValue: 1 << 6)
    public static let task = Buttons(rawValue: 1 << 7)

    /// The button for a key code BTN_LEFT ... BTN_TASK, nil for other codes.
    @inlinable
    public init?(code: UInt16) {
        guard code >= BTN.LEFT && code <= BTN.TASK else { return nil }
        self.init(rawValue: 1 << UInt8(code - BTN.LEFT))
    }
}
