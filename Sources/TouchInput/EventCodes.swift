// The kernel's event numbers that this package uses, written from
// include/uapi/linux/input-event-codes.h and input.h. Names keep the
// kernel's spelling after the prefix (`ABS.MT_POSITION_X` is
// `ABS_MT_POSITION_X`) so they can be searched for in kernel and libinput
// sources.

/// Event types, `EV_*`.
public enum EV {
    public static let SYN: UInt16 = 0x00
    public static let KEY: UInt16 = 0x01
    public static let REL: UInt16 = 0x02
    public static let ABS: UInt16 = 0x03
    public static let MSC: UInt16 = 0x04
    public static let SW: UInt16 = 0x05
    public static let LED: UInt16 = 0x11
    public static let SND: UInt16 = 0x12
    public static let REP: UInt16 = 0x14
    public static let FF: UInt16 = 0x15
    public static let PWR: UInt16 = 0x16
    public static let FF_STATUS: UInt16 = 0x17
    /// `EV_MAX`: the highest event type.
    public static let MAX: UInt16 = 0x1f

    /// The highest code of each type (`SYN_MAX`, `KEY_MAX`, ...), or nil for unknown types.
    public static func maxCode(_ type: UInt16) -> UInt16? {
        switch type {
        case SYN: return 0x0f
        case KEY: return 0x2ff
        case REL: return 0x0f
        case ABS: return 0x3f
        case MSC: return 0x07
        case SW: return 0x11
        case LED: return 0x0f
        case SND: return 0x07
        case REP: return 0x01
        case FF: return 0x7f
        case PWR: return 0x00
        case FF_STATUS: return 0x01
        default: return nil
        }
    }

    /// The kernel name of an event type (`EV_ABS`), or `EV_0x..` for unknown ones.
    public static func name(_ type: UInt16) -> String {
        switch type {
        case SYN: return "EV_SYN"
        case KEY: return "EV_KEY"
        case REL: return "EV_REL"
        case ABS: return "EV_ABS"
        case MSC: return "EV_MSC"
        case SW: return "EV_SW"
        case LED: return "EV_LED"
        case SND: return "EV_SND"
        case REP: return "EV_REP"
        case FF: return "EV_FF"
        case PWR: return "EV_PWR"
        case FF_STATUS: return "EV_FF_STATUS"
        default: return "EV_0x" + String(type, radix: 16)
        }
    }
}

/// Synchronisation codes, `SYN_*`.
public enum SYN {
    /// Closes a frame: device state is consistent only here.
    public static let REPORT: UInt16 = 0
    public static let CONFIG: UInt16 = 1
    /// Closes one contact in multitouch protocol A.
    public static let MT_REPORT: UInt16 = 2
    /// The kernel buffer overflowed; events up to the next SYN_REPORT are lost.
    public static let DROPPED: UInt16 = 3
}

/// Relative axes, `REL_*`.
public enum REL {
    public static let X: UInt16 = 0x00
    public static let Y: UInt16 = 0x01
    public static let HWHEEL: UInt16 = 0x06
    public static let WHEEL: UInt16 = 0x08
}

/// Absolute axes, `ABS_*`.
public enum ABS {
    public static let X: UInt16 = 0x00
    public static let Y: UInt16 = 0x01
    public static let PRESSURE: UInt16 = 0x18
    public static let TOOL_WIDTH: UInt16 = 0x1c
    public static let MT_SLOT: UInt16 = 0x2f
    public static let MT_TOUCH_MAJOR: UInt16 = 0x30
    public static let MT_TOUCH_MINOR: UInt16 = 0x31
    public static let MT_WIDTH_MAJOR: UInt16 = 0x32
    public static let MT_WIDTH_MINOR: UInt16 = 0x33
    public static let MT_ORIENTATION: UInt16 = 0x34
    public static let MT_POSITION_X: UInt16 = 0x35
    public static let MT_POSITION_Y: UInt16 = 0x36
    public static let MT_TOOL_TYPE: UInt16 = 0x37
    public static let MT_BLOB_ID: UInt16 = 0x38
    public static let MT_TRACKING_ID: UInt16 = 0x39
    public static let MT_PRESSURE: UInt16 = 0x3a
    public static let MT_DISTANCE: UInt16 = 0x3b
    /// `ABS_MAX`.
    public static let MAX: UInt16 = 0x3f
}

/// Keys and buttons, `BTN_*`.
public enum BTN {
    public static let LEFT: UInt16 = 0x110
    public static let RIGHT: UInt16 = 0x111
    public static let MIDDLE: UInt16 = 0x112
    public static let SIDE: UInt16 = 0x113
    public static let EXTRA: UInt16 = 0x114
    public static let FORWARD: UInt16 = 0x115
    public static let BACK: UInt16 = 0x116
    public static let TASK: UInt16 = 0x117
    public static let TOOL_PEN: UInt16 = 0x140
    public static let TOOL_FINGER: UInt16 = 0x145
    public static let TOOL_QUINTTAP: UInt16 = 0x148
    public static let TOUCH: UInt16 = 0x14a
    public static let STYLUS: UInt16 = 0x14b
    public static let TOOL_DOUBLETAP: UInt16 = 0x14d
    public static let TOOL_TRIPLETAP: UInt16 = 0x14e
    public static let TOOL_QUADTAP: UInt16 = 0x14f
}

/// Device properties, `INPUT_PROP_*`.
public enum INPUT_PROP {
    /// An indirect device that moves a pointer: touchpads.
    public static let POINTER: UInt16 = 0x00
    /// A direct-input device: touchscreens, tablets on a display.
    public static let DIRECT: UInt16 = 0x01
    /// A clickpad: the whole surface is one button.
    public static let BUTTONPAD: UInt16 = 0x02
    /// Slots report a bounding box of the touches, not each touch.
    public static let SEMI_MT: UInt16 = 0x03
    public static let TOPBUTTONPAD: UInt16 = 0x04
    public static let POINTING_STICK: UInt16 = 0x05
    public static let ACCELEROMETER: UInt16 = 0x06
    /// `INPUT_PROP_MAX`.
    public static let MAX: UInt16 = 0x1f
}

/// Values of `ABS_MT_TOOL_TYPE`, `MT_TOOL_*`.
public enum MT_TOOL {
    public static let FINGER: Int32 = 0x00
    public static let PEN: Int32 = 0x01
    public static let PALM: Int32 = 0x02
}
