/// One kernel input event without its timestamp: type, code and value, as in
/// `struct input_event`.
///
/// Timestamps belong to frames (`EvdevFrame`), because the kernel stamps every
/// event of a frame with the same time.
///
///     let event = EvdevEvent(type: EvdevEvent.abs, code: EvdevEvent.absMTSlot, value: 1)
///     print(event)   // EV_ABS 47 1
public struct EvdevEvent: Hashable, Sendable, CustomStringConvertible {
    /// The event type (`EV_ABS`, `EV_KEY`...).
    public var type: UInt16
    /// The event code within its type (`ABS_MT_SLOT`, `BTN_LEFT`...).
    public var code: UInt16
    /// The value: a position, a key state (0 up, 1 down, 2 repeat), a slot, a tracking id.
    public var value: Int32

    /// Creates an event from its three numbers.
    public init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }

    /// `EV_SYN SYN_REPORT 0`: the end of a frame.
    public static let synReport = EvdevEvent(type: syn, code: EvdevEvent.synReportCode, value: 0)

    /// Whether this event ends a frame (`EV_SYN SYN_REPORT`).
    public var isSynReport: Bool { type == Self.syn && code == Self.synReportCode }

    /// The type's kernel name and the numbers: `EV_ABS 53 1266`.
    public var description: String {
        let name = Self.typeNames[type] ?? "EV_\(type)"
        return "\(name) \(code) \(value)"
    }

    private static let typeNames: [UInt16: String] = [
        syn: "EV_SYN", key: "EV_KEY", rel: "EV_REL", abs: "EV_ABS", msc: "EV_MSC",
    ]
}

/// One frame: the events between two `SYN_REPORT`s, with the kernel's timestamp.
///
/// The terminating `SYN_REPORT` is implied and not stored. State read from a
/// device is only consistent at frame boundaries.
public struct EvdevFrame: Hashable, Sendable {
    /// The kernel's timestamp of the frame, in microseconds since its clock's epoch
    /// (CLOCK_REALTIME unless the device was switched to another clock).
    public var timeMicroseconds: Int64
    /// The events of the frame, without the terminating `SYN_REPORT`.
    public var events: [EvdevEvent]

    /// Creates a frame.
    public init(timeMicroseconds: Int64, events: [EvdevEvent]) {
        self.timeMicroseconds = timeMicroseconds
        self.events = events
    }
}

// Kernel event type and code numbers (linux/input-event-codes.h). They are
// kernel ABI and never change; Swift copies keep the pure parts of this module
// (device kinds, recordings, state) free of C.
extension EvdevEvent {
    /// `EV_SYN`: synchronisation events.
    public static let syn: UInt16 = 0x00
    /// `EV_KEY`: keys and buttons.
    public static let key: UInt16 = 0x01
    /// `EV_REL`: relative axes.
    public static let rel: UInt16 = 0x02
    /// `EV_ABS`: absolute axes.
    public static let abs: UInt16 = 0x03
    /// `EV_MSC`: miscellaneous (timestamps, scan codes).
    public static let msc: UInt16 = 0x04
    /// `EV_MAX`: the highest event type.
    public static let maxType: UInt16 = 0x1f

    /// `SYN_REPORT`: the end of a frame.
    public static let synReportCode: UInt16 = 0
    /// `SYN_DROPPED`: the client's buffer overflowed; events were lost.
    public static let synDroppedCode: UInt16 = 3

    /// `REL_X`.
    public static let relX: UInt16 = 0x00
    /// `REL_Y`.
    public static let relY: UInt16 = 0x01
    /// `REL_WHEEL`.
    public static let relWheel: UInt16 = 0x08

    /// `ABS_X`.
    public static let absX: UInt16 = 0x00
    /// `ABS_Y`.
    public static let absY: UInt16 = 0x01
    /// `ABS_PRESSURE`.
    public static let absPressure: UInt16 = 0x18
    /// `ABS_MT_SLOT`: selects the slot later `ABS_MT_*` events update.
    public static let absMTSlot: UInt16 = 0x2f
    /// `ABS_MT_TOUCH_MAJOR`.
    public static let absMTTouchMajor: UInt16 = 0x30
    /// `ABS_MT_TOUCH_MINOR`.
    public static let absMTTouchMinor: UInt16 = 0x31
    /// `ABS_MT_ORIENTATION`.
    public static let absMTOrientation: UInt16 = 0x34
    /// `ABS_MT_POSITION_X`.
    public static let absMTPositionX: UInt16 = 0x35
    /// `ABS_MT_POSITION_Y`.
    public static let absMTPositionY: UInt16 = 0x36
    /// `ABS_MT_TOOL_TYPE`.
    public static let absMTToolType: UInt16 = 0x37
    /// `ABS_MT_TRACKING_ID`: >= 0 starts a contact in the current slot, -1 ends it.
    public static let absMTTrackingID: UInt16 = 0x39
    /// `ABS_MT_PRESSURE`.
    public static let absMTPressure: UInt16 = 0x3a
    /// `ABS_MT_TOOL_Y`: the last per-slot axis.
    public static let absMTToolY: UInt16 = 0x3d

    /// `BTN_LEFT` (also `BTN_MOUSE`).
    public static let btnLeft: UInt16 = 0x110
    /// `BTN_RIGHT`.
    public static let btnRight: UInt16 = 0x111
    /// `BTN_MIDDLE`.
    public static let btnMiddle: UInt16 = 0x112
    /// `BTN_TOOL_PEN`.
    public static let btnToolPen: UInt16 = 0x140
    /// `BTN_TOOL_FINGER`: one finger.
    public static let btnToolFinger: UInt16 = 0x145
    /// `BTN_TOUCH`.
    public static let btnTouch: UInt16 = 0x14a
    /// `BTN_STYLUS`.
    public static let btnStylus: UInt16 = 0x14b
    /// `BTN_TOOL_DOUBLETAP`: two fingers.
    public static let btnToolDoubleTap: UInt16 = 0x14d
    /// `BTN_TOOL_TRIPLETAP`: three fingers.
    public static let btnToolTripleTap: UInt16 = 0x14e
    /// `BTN_TOOL_QUADTAP`: four fingers.
    public static let btnToolQuadTap: UInt16 = 0x14f
    /// `BTN_TOOL_QUINTTAP`: five fingers.
    public static let btnToolQuintTap: UInt16 = 0x148

    /// `INPUT_PROP_POINTER`: the device needs a pointer (touchpads).
    public static let propPointer: UInt16 = 0x00
    /// `INPUT_PROP_DIRECT`: the device is a direct-input device (touchscreens, tablets on screens).
    public static let propDirect: UInt16 = 0x01
    /// `INPUT_PROP_BUTTONPAD`: a clickpad, the whole surface is a button.
    public static let propButtonPad: UInt16 = 0x02
    /// `INPUT_PROP_SEMI_MT`: a touch rectangle, not separate contacts.
    public static let propSemiMT: UInt16 = 0x03
    /// `INPUT_PROP_MAX`.
    public static let maxProperty: UInt16 = 0x1f
}
