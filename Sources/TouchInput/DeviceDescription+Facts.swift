import GestureRecognition

extension DeviceDescription {
    /// What kind of pointing device this is, decided as udev's
    /// `input_id` builtin does (libinput relies on that).
    public enum Kind: String, Hashable, Sendable, CustomStringConvertible {
        /// Indirect absolute multi-finger surface: BTN_TOOL_FINGER or INPUT_PROP_POINTER.
        case touchpad
        /// Direct absolute surface on a display: INPUT_PROP_DIRECT, or BTN_TOUCH without BTN_TOOL_FINGER.
        case touchscreen
        /// Relative pointer: REL_X, REL_Y and a button (also an absolute pointer with a button, as in VMs).
        case mouse
        /// A pen tablet: absolute position with BTN_TOOL_PEN or BTN_STYLUS.
        case tablet
        /// Anything else (keyboards, tablets' pads, switches...).
        case other

        public var description: String { rawValue }
    }

    /// How a device reports contacts.
    public enum ContactProtocol: String, Hashable, Sendable {
        /// Multitouch protocol B: ABS_MT_SLOT and ABS_MT_TRACKING_ID.
        case slots
        /// Multitouch protocol A: anonymous contacts closed by SYN_MT_REPORT.
        case anonymous
        /// One contact from ABS_X/ABS_Y (also semi-MT devices, as libinput treats them).
        case singleTouch
        /// No absolute position at all.
        case none
    }

    /// The physical size libinput assumes for a touchpad that reports no resolution.
    public static let fallbackTouchpadSizeMillimeters = (width: 69.0, height: 50.0)

    /// The length this package assumes for the longer axis of a touchscreen
    /// that reports no resolution (a 12-inch laptop screen); the other axis
    /// follows with square device units. libinput has no such fallback: it
    /// hands touchscreen coordinates out in screen space only.
    public static let fallbackTouchscreenLongerSideMillimeters = 250.0

    /// The slot count above which a description is treated as corrupt (and clamped).
    public static let maximumSlotCount = 64

    /// The kind of device, from its properties and codes, as udev's
    /// `input_id` and libinput decide:
    /// 1. absolute x/y with a pen or stylus button: tablet;
    /// 2. absolute x/y and INPUT_PROP_DIRECT: touchscreen;
    /// 3. absolute x/y with BTN_TOOL_FINGER or INPUT_PROP_POINTER: touchpad;
    /// 4. absolute x/y with BTN_TOUCH: touchscreen;
    /// 5. REL_X + REL_Y + BTN_LEFT, or absolute x/y + BTN_LEFT: mouse;
    /// 6. otherwise: other.
    ///
    /// - Complexity: O(1).
    public var kind: Kind {
        let hasAbsolute =
            supports(EV.ABS, ABS.X) && supports(EV.ABS, ABS.Y)
            || supports(EV.ABS, ABS.MT_POSITION_X) && supports(EV.ABS, ABS.MT_POSITION_Y)
        if hasAbsolute {
            if supports(EV.KEY, BTN.TOOL_PEN) || supports(EV.KEY, BTN.STYLUS) { return .tablet }
            if hasProperty(INPUT_PROP.DIRECT) { return .touchscreen }
            if supports(EV.KEY, BTN.TOOL_FINGER) && !supports(EV.KEY, BTN.TOOL_PEN) { return .touchpad }
            if hasProperty(INPUT_PROP.POINTER) && !supports(EV.KEY, BTN.TOOL_PEN) { return .touchpad }
            if supports(EV.KEY, BTN.TOUCH) { return .touchscreen }
        }
        if supports(EV.KEY, BTN.LEFT) && (hasAbsolute || supports(EV.REL, REL.X) && supports(EV.REL, REL.Y)) {
            return .mouse
        }
        return .other
    }

    /// Whether the slots report a bounding box rather than touches (INPUT_PROP_SEMI_MT).
    public var isSemiMT: Bool { hasProperty(INPUT_PROP.SEMI_MT) }

    /// Whether the device is a clickpad (INPUT_PROP_BUTTONPAD).
    public var isClickpad: Bool { hasProperty(INPUT_PROP.BUTTONPAD) }

    /// Whether contacts report pressure (ABS_MT_PRESSURE, or ABS_PRESSURE on single-touch devices).
    public var hasPressure: Bool {
        supports(EV.ABS, ABS.MT_PRESSURE) || (contactProtocol == .singleTouch && supports(EV.ABS, ABS.PRESSURE))
    }

    /// The range of `ABS_MT_PRESSURE`, in device units, on multitouch
    /// devices (protocol A or B) that report it; nil otherwise, or when it
    /// spans nothing. The engine judges a contact too light to touch (a
    /// finger or thumb hovering) as a fraction of it
    /// (``GestureSurface/pressureRange``). Single-touch and semi-MT pads
    /// have none: their kernel driver already says with `BTN_TOUCH` when a
    /// finger touches (Synaptics PS/2 from a pressure of 30), and the
    /// decoder reads them so.
    public var contactPressureRange: ClosedRange<Double>? {
        guard contactProtocol == .slots || contactProtocol == .anonymous, supports(EV.ABS, ABS.MT_PRESSURE),
            let info = absInfo[ABS.MT_PRESSURE], info.maximum > info.minimum
        else { return nil }
        return Double(info.minimum)...Double(info.maximum)
    }

    /// Whether contacts report their size (ABS_MT_TOUCH_MAJOR).
    public var hasTouchSize: Bool { supports(EV.ABS, ABS.MT_TOUCH_MAJOR) }

    /// The number of protocol B slots (ABS_MT_SLOT maximum + 1), clamped to
    /// ``maximumSlotCount``; 0 for devices without slots.
    public var slotCount: Int {
        guard supports(EV.ABS, ABS.MT_SLOT) else { return 0 }
        guard let info = absInfo[ABS.MT_SLOT], info.maximum >= 0 else { return 1 }
        return Int(min(Int64(info.maximum) + 1, Int64(Self.maximumSlotCount)))
    }

    /// How the device reports contacts. Semi-MT devices are single-touch,
    /// as libinput treats them: their slots hold a bounding box.
    public var contactProtocol: ContactProtocol {
        let hasMT = supports(EV.ABS, ABS.MT_POSITION_X) && supports(EV.ABS, ABS.MT_POSITION_Y)
        if hasMT && !isSemiMT {
            return supports(EV.ABS, ABS.MT_SLOT) ? .slots : .anonymous
        }
        if supports(EV.ABS, ABS.X) && supports(EV.ABS, ABS.Y) { return .singleTouch }
        if hasMT { return supports(EV.ABS, ABS.MT_SLOT) ? .slots : .anonymous }
        return .none
    }

    /// The most fingers BTN_TOOL_* keys can report (FINGER 1 ... QUINTTAP 5), 0 without them.
    public var maximumToolFingerCount: Int {
        let keys = codes[EV.KEY] ?? []
        if keys.contains(BTN.TOOL_QUINTTAP) { return 5 }
        if keys.contains(BTN.TOOL_QUADTAP) { return 4 }
        if keys.contains(BTN.TOOL_TRIPLETAP) { return 3 }
        if keys.contains(BTN.TOOL_DOUBLETAP) { return 2 }
        if keys.contains(BTN.TOOL_FINGER) { return 1 }
        return 0
    }

    /// Whether every position axis the decoder uses has a resolution.
    public var hasResolution: Bool {
        let axes = contactProtocol == .singleTouch ? (ABS.X, ABS.Y) : (ABS.MT_POSITION_X, ABS.MT_POSITION_Y)
        return (absInfo[axes.0]?.resolution ?? 0) > 0 && (absInfo[axes.1]?.resolution ?? 0) > 0
    }

    /// The physical size of the surface in millimetres, from the position
    /// axes' resolution, or the documented fallback when there is none
    /// (69 x 50 mm for touchpads, as libinput; see
    /// ``fallbackTouchscreenLongerSideMillimeters`` for touchscreens).
    /// Nil for devices without absolute positions.
    public var sizeMillimeters: (width: Double, height: Double)? {
        guard let scale = positionScale(multitouch: contactProtocol == .slots || contactProtocol == .anonymous) else {
            return nil
        }
        return (Double(scale.rangeX) / scale.unitsPerMillimeterX, Double(scale.rangeY) / scale.unitsPerMillimeterY)
    }

    /// The conversion from the device units of the MT (or single-touch)
    /// position axes to millimetres, with the fallback for missing resolution.
    public func positionScale(multitouch: Bool) -> PositionScale? {
        let codes = multitouch ? (ABS.MT_POSITION_X, ABS.MT_POSITION_Y) : (ABS.X, ABS.Y)
        guard let x = absInfo[codes.0], let y = absInfo[codes.1] else { return nil }
        let rangeX = max(x.range, 1), rangeY = max(y.range, 1)
        var perX = Double(x.resolution), perY = Double(y.resolution)
        if x.resolution <= 0 || y.resolution <= 0 {
            if kind == .touchscreen {
                let per = Double(max(rangeX, rangeY)) / Self.fallbackTouchscreenLongerSideMillimeters
                perX = per
                perY = per
            } else {
                perX = Double(rangeX) / Self.fallbackTouchpadSizeMillimeters.width
                perY = Double(rangeY) / Self.fallbackTouchpadSizeMillimeters.height
            }
        }
        return PositionScale(
            minimumX: x.minimum, minimumY: y.minimum, rangeX: rangeX, rangeY: rangeY,
            unitsPerMillimeterX: perX, unitsPerMillimeterY: perY)
    }
}

/// Converts positions in device units to millimetres from the axes' minimum.
public struct PositionScale: Hashable, Sendable {
    public var minimumX: Int32
    public var minimumY: Int32
    public var rangeX: Int64
    public var rangeY: Int64
    public var unitsPerMillimeterX: Double
    public var unitsPerMillimeterY: Double

    /// The position of device coordinates (x, y) in millimetres; y grows downwards, as on the device.
    @inlinable
    public func millimeters(x: Int32, y: Int32) -> Point {
        Point(
            x: Double(Int64(x) - Int64(minimumX)) / unitsPerMillimeterX,
            y: Double(Int64(y) - Int64(minimumY)) / unitsPerMillimeterY)
    }
}

extension DeviceDescription {
    /// The description as a mouse's, for a device chosen by name to draw
    /// strokes with whatever its kind: only its relative axes (`REL_X` and
    /// `REL_Y` always) and its buttons (`BTN_LEFT` always), so that its
    /// `GesturePipeline` is a mouse's.
    ///
    ///     keyboardWithTrackpoint.readAsMouse.kind   // .mouse
    public var readAsMouse: DeviceDescription {
        var mouse = DeviceDescription(name: name, id: id)
        for code in [REL.X, REL.Y, REL.WHEEL, REL.HWHEEL] where supports(EV.REL, code) { mouse.enable(EV.REL, code) }
        if !mouse.supports(EV.REL, REL.X) { mouse.enable(EV.REL, REL.X) }
        if !mouse.supports(EV.REL, REL.Y) { mouse.enable(EV.REL, REL.Y) }
        for code in BTN.LEFT...BTN.TASK where supports(EV.KEY, code) { mouse.enable(EV.KEY, code) }
        if !mouse.supports(EV.KEY, BTN.LEFT) { mouse.enable(EV.KEY, BTN.LEFT) }
        return mouse
    }
}
