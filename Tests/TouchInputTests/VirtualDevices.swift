import TouchInput

/// Devices the recorded ones (`RecordedDevices`, from Recordings/devices) do not cover.
enum VirtualDevices {
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
}

/// Builds event streams frame by frame with a running clock.
struct EventScript {
    var time: Int64 = 1_000_000
    var events: [InputEvent] = []

    mutating func abs(_ code: UInt16, _ value: Int32) {
        events.append(InputEvent(type: EV.ABS, code: code, value: value, microseconds: time))
    }
    mutating func key(_ code: UInt16, _ down: Bool) {
        events.append(InputEvent(type: EV.KEY, code: code, value: down ? 1 : 0, microseconds: time))
    }
    mutating func rel(_ code: UInt16, _ value: Int32) {
        events.append(InputEvent(type: EV.REL, code: code, value: value, microseconds: time))
    }
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
