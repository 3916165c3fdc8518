import TouchInput

/// Device descriptions from real hardware (see the linux-input facts notes), for tests.
enum VirtualDevices {
    /// Lenovo X1 Carbon 3rd gen, Synaptics PS/2 clickpad: 2 slots, BTN_TOOL up to QUINTTAP, 98 x 54 mm.
    static var x1Carbon: DeviceDescription {
        var pad = DeviceDescription(name: "SynPS/2 Synaptics TouchPad", id: .init(bus: 0x11, vendor: 2, product: 7, version: 0x1b1),
                                    properties: [INPUT_PROP.POINTER, INPUT_PROP.BUTTONPAD])
        for key in [BTN.LEFT, BTN.TOOL_FINGER, BTN.TOOL_DOUBLETAP, BTN.TOOL_TRIPLETAP, BTN.TOOL_QUADTAP, BTN.TOOL_QUINTTAP, BTN.TOUCH] {
            pad.enable(EV.KEY, key)
        }
        pad.enable(ABS.X, AbsInfo(minimum: 1266, maximum: 5676, resolution: 45))
        pad.enable(ABS.Y, AbsInfo(minimum: 1096, maximum: 4758, resolution: 68))
        pad.enable(ABS.MT_SLOT, AbsInfo(minimum: 0, maximum: 1))
        pad.enable(ABS.MT_POSITION_X, AbsInfo(minimum: 1266, maximum: 5676, resolution: 45))
        pad.enable(ABS.MT_POSITION_Y, AbsInfo(minimum: 1096, maximum: 4758, resolution: 68))
        pad.enable(ABS.MT_TRACKING_ID, AbsInfo(minimum: 0, maximum: 65535))
        pad.enable(ABS.MT_PRESSURE, AbsInfo(minimum: 0, maximum: 255))
        return pad
    }

    /// Atmel maXTouch touchscreen: DIRECT, 10 slots, 0-799 x 0-479, no resolution, only BTN_TOUCH.
    static var maXTouch: DeviceDescription {
        var screen = DeviceDescription(name: "Atmel maXTouch Touchscreen", id: .init(bus: 0x18), properties: [INPUT_PROP.DIRECT])
        screen.enable(EV.KEY, BTN.TOUCH)
        screen.enable(ABS.X, AbsInfo(minimum: 0, maximum: 799))
        screen.enable(ABS.Y, AbsInfo(minimum: 0, maximum: 479))
        screen.enable(ABS.MT_SLOT, AbsInfo(minimum: 0, maximum: 9))
        screen.enable(ABS.MT_POSITION_X, AbsInfo(minimum: 0, maximum: 799))
        screen.enable(ABS.MT_POSITION_Y, AbsInfo(minimum: 0, maximum: 479))
        screen.enable(ABS.MT_TRACKING_ID, AbsInfo(minimum: 0, maximum: 65535))
        screen.enable(ABS.MT_TOOL_TYPE, AbsInfo(minimum: 0, maximum: 2))
        return screen
    }

    /// A protocol A touchpad without resolution (like the old bcm5974 driver).
    static var protocolA: DeviceDescription {
        var pad = DeviceDescription(name: "bcm5974", properties: [INPUT_PROP.BUTTONPAD])
        for key in [BTN.LEFT, BTN.TOOL_FINGER, BTN.TOOL_DOUBLETAP, BTN.TOOL_TRIPLETAP, BTN.TOUCH] { pad.enable(EV.KEY, key) }
        pad.enable(ABS.X, AbsInfo(minimum: 0, maximum: 1280))
        pad.enable(ABS.Y, AbsInfo(minimum: 0, maximum: 800))
        pad.enable(ABS.MT_POSITION_X, AbsInfo(minimum: 0, maximum: 6900))
        pad.enable(ABS.MT_POSITION_Y, AbsInfo(minimum: 0, maximum: 5000))
        return pad
    }

    /// A USB mouse.
    static var mouse: DeviceDescription {
        var mouse = DeviceDescription(name: "Mouse")
        for key in [BTN.LEFT, BTN.RIGHT, BTN.MIDDLE] { mouse.enable(EV.KEY, key) }
        for axis in [REL.X, REL.Y, REL.WHEEL] { mouse.enable(EV.REL, axis) }
        return mouse
    }
}

/// Builds event streams frame by frame with a running clock.
struct EventScript {
    var time: Int64 = 1_000_000
    var events: [InputEvent] = []

    mutating func abs(_ code: UInt16, _ value: Int32) { events.append(InputEvent(type: EV.ABS, code: code, value: value, microseconds: time)) }
    mutating func key(_ code: UInt16, _ down: Bool) { events.append(InputEvent(type: EV.KEY, code: code, value: down ? 1 : 0, microseconds: time)) }
    mutating func rel(_ code: UInt16, _ value: Int32) { events.append(InputEvent(type: EV.REL, code: code, value: value, microseconds: time)) }
    mutating func syn(_ code: UInt16 = SYN.REPORT) { events.append(InputEvent(type: EV.SYN, code: code, value: 0, microseconds: time)) }
    /// SYN_REPORT, then advance the clock.
    mutating func report(after microseconds: Int64 = 12_000) { syn(); time += microseconds }

    /// Places (or moves) the touch in `slot`.
    mutating func touch(slot: Int32, id: Int32? = nil, x: Int32, y: Int32) {
        abs(ABS.MT_SLOT, slot)
        if let id { abs(ABS.MT_TRACKING_ID, id) }
        abs(ABS.MT_POSITION_X, x)
        abs(ABS.MT_POSITION_Y, y)
    }

    mutating func lift(slot: Int32) {
        abs(ABS.MT_SLOT, slot)
        abs(ABS.MT_TRACKING_ID, -1)
    }

    /// Decodes the script's events, including a trailing frame.
    func frames(on device: DeviceDescription) -> [TouchFrame] {
        var decoder = MultitouchDecoder(device: device)
        var frames = events.compactMap { decoder.process($0) }
        if let last = decoder.finish() { frames.append(last) }
        return frames
    }
}
