import EvdevInput
import TouchInput

/// Virtual devices for the real-kernel suite, modelled on real hardware
/// (numbers from ../shared/notes/linux-input-facts.md).
enum VMDevices {
    typealias Axis = AbsInfo

    static let fingerTools: [UInt16] = [BTN.TOOL_FINGER, BTN.TOOL_DOUBLETAP, BTN.TOOL_TRIPLETAP,
                                        BTN.TOOL_QUADTAP, BTN.TOOL_QUINTTAP]

    /// A multitouch device: ABS_X/Y mirroring the first contact, slots, optional extras.
    static func multitouch(name: String, bus: UInt16, vendor: UInt16, product: UInt16, properties: [UInt16],
                           x: Axis, y: Axis, slots: Int32, keys: [UInt16], extraAxes: [UInt16: Axis] = [:]) -> DeviceDescription {
        var absinfo: [UInt16: Axis] = [
            ABS.X: x, ABS.Y: y,
            ABS.MT_SLOT: Axis(minimum: 0, maximum: slots - 1),
            ABS.MT_POSITION_X: x, ABS.MT_POSITION_Y: y,
            ABS.MT_TRACKING_ID: Axis(minimum: 0, maximum: 65535),
        ]
        absinfo.merge(extraAxes) { _, new in new }
        return DeviceDescription(name: name, id: .init(bus: bus, vendor: vendor, product: product, version: 1),
                                 properties: Set(properties),
                                 codes: [EV.KEY: Set(keys), EV.ABS: Set(absinfo.keys)],
                                 absInfo: absinfo)
    }

    /// Lenovo X1 Carbon 3rd, Synaptics PS/2: 98 x 54 mm, 2 slots, BTN_TOOL up to QUINTTAP, clickpad.
    static let synaptics = multitouch(
        name: "SynPS/2 Synaptics TouchPad (virtual)", bus: 0x11, vendor: 0x2, product: 0x7,
        properties: [INPUT_PROP.POINTER, INPUT_PROP.BUTTONPAD],
        x: Axis(minimum: 1266, maximum: 5676, resolution: 45), y: Axis(minimum: 1096, maximum: 4758, resolution: 68),
        slots: 2, keys: [BTN.LEFT, BTN.TOUCH] + fingerTools)

    /// Apple Magic Trackpad v1 (Bluetooth 05ac:030e): 132 x 112 mm, 16 slots, clickpad, touch major/minor.
    static let appleTrackpad = multitouch(
        name: "Apple Wireless Trackpad (virtual)", bus: 0x5, vendor: 0x5ac, product: 0x30e,
        properties: [INPUT_PROP.POINTER, INPUT_PROP.BUTTONPAD],
        x: Axis(minimum: -2909, maximum: 3167, resolution: 46), y: Axis(minimum: -2456, maximum: 2565, resolution: 45),
        slots: 16, keys: [BTN.LEFT, BTN.TOUCH] + Array(fingerTools.prefix(4)),
        extraAxes: [ABS.MT_TOUCH_MAJOR: Axis(minimum: 0, maximum: 1020),
                    ABS.MT_TOUCH_MINOR: Axis(minimum: 0, maximum: 1020),
                    ABS.MT_ORIENTATION: Axis(minimum: -31, maximum: 32)])

    /// Synaptics RMI4 TM3053 (bus RMI): 97 x 53 mm, 5 slots, pressure, tool type.
    static let rmi4 = multitouch(
        name: "Synaptics TM3053-004 (virtual)", bus: 0x1d, vendor: 0x6cb, product: 0x0,
        properties: [INPUT_PROP.POINTER, INPUT_PROP.BUTTONPAD],
        x: Axis(minimum: 0, maximum: 1940, resolution: 20), y: Axis(minimum: 0, maximum: 1062, resolution: 20),
        slots: 5, keys: [BTN.LEFT, BTN.TOUCH] + fingerTools,
        extraAxes: [ABS.PRESSURE: Axis(minimum: 0, maximum: 255),
                    ABS.MT_PRESSURE: Axis(minimum: 0, maximum: 255),
                    ABS.MT_TOOL_TYPE: Axis(minimum: 0, maximum: 2)])

    /// Atmel maXTouch-style touchscreen: 10 slots, direct, only BTN_TOUCH, no resolution.
    static let touchscreen = multitouch(
        name: "Atmel maXTouch Touchscreen (virtual)", bus: 0x18, vendor: 0x3eb, product: 0x8a03,
        properties: [INPUT_PROP.DIRECT],
        x: Axis(minimum: 0, maximum: 799), y: Axis(minimum: 0, maximum: 479),
        slots: 10, keys: [BTN.TOUCH])

    /// A USB mouse: relative x/y, wheel, three buttons.
    static let mouse = DeviceDescription(
        name: "Logitech USB Optical Mouse (virtual)", id: .init(bus: 0x3, vendor: 0x46d, product: 0xc077, version: 0x111),
        codes: [EV.KEY: [BTN.LEFT, BTN.RIGHT, BTN.MIDDLE],
                EV.REL: [REL.X, REL.Y, REL.WHEEL]])

    /// The touch devices with their short names and expected kinds.
    static let touchDevices: [(name: String, info: DeviceDescription, kind: DeviceDescription.Kind)] = [
        ("synaptics-2slot", synaptics, .touchpad),
        ("apple-16slot", appleTrackpad, .touchpad),
        ("rmi4-5slot", rmi4, .touchpad),
        ("touchscreen-10slot", touchscreen, .touchscreen),
    ]
}

/// Protocol-B frames of gestures, written only with codes the device has.
struct VMGestureWriter {
    let info: DeviceDescription

    private func abs(_ code: UInt16, _ value: Int32) -> InputEvent? {
        info.supports(EV.ABS, code) ? InputEvent(type: EV.ABS, code: code, value: value, microseconds: 0) : nil
    }
    private func key(_ code: UInt16, _ value: Int32) -> InputEvent? {
        info.supports(EV.KEY, code) ? InputEvent(type: EV.KEY, code: code, value: value, microseconds: 0) : nil
    }

    /// A point as a fraction of the surface (0...1 each way), in device units.
    func position(_ fx: Double, _ fy: Double) -> (Int32, Int32) {
        let x = info.absInfo[ABS.X]!, y = info.absInfo[ABS.Y]!
        return (x.minimum + Int32(Double(x.maximum - x.minimum) * fx), y.minimum + Int32(Double(y.maximum - y.minimum) * fy))
    }

    /// One frame placing `fingers` contacts (fractions of the surface); tracking ids start at `firstID`.
    /// Fingers beyond the slot count only show in BTN_TOOL_*, as on a 2-slot Synaptics pad.
    func frame(fingers: [(Double, Double)], firstID: Int32, pressure: Int32 = 60, down: Bool = true) -> [InputEvent] {
        let slots = max(1, info.slotCount)
        var events: [InputEvent?] = []
        for (index, finger) in fingers.prefix(slots).enumerated() {
            let (x, y) = position(finger.0, finger.1)
            events += [abs(ABS.MT_SLOT, Int32(index))]
            if down {
                events.append(abs(ABS.MT_TRACKING_ID, firstID + Int32(index)))
                events.append(abs(ABS.MT_POSITION_X, x))
                events.append(abs(ABS.MT_POSITION_Y, y))
                events.append(abs(ABS.MT_PRESSURE, pressure))
                events.append(abs(ABS.MT_TOUCH_MAJOR, 300))
                events.append(abs(ABS.MT_TOUCH_MINOR, 200))
            } else {
                events += [abs(ABS.MT_TRACKING_ID, -1)]
            }
        }
        if down, let first = fingers.first {
            let (x, y) = position(first.0, first.1)
            events.append(abs(ABS.X, x))
            events.append(abs(ABS.Y, y))
            events.append(abs(ABS.PRESSURE, pressure))
        }
        events += [key(BTN.TOUCH, down ? 1 : 0)]
        for (index, tool) in VMDevices.fingerTools.enumerated() {
            events += [key(tool, down && index == fingers.count - 1 ? 1 : 0)]
        }
        return events.compactMap { $0 }
    }

    /// A swipe of `count` fingers to the right: touch down, `steps` motion frames, lift.
    func swipe(count: Int, steps: Int, firstID: Int32) -> [[InputEvent]] {
        func fingers(_ t: Double) -> [(Double, Double)] {
            (0..<count).map { index -> (Double, Double) in
                let offset = Double(index)
                let x: Double = 0.25 + 0.4 * t + 0.04 * offset
                let y: Double = 0.3 + 0.12 * offset
                return (x, y)
            }
        }
        var frames = [frame(fingers: fingers(0), firstID: firstID)]
        for step in 1...steps { frames.append(frame(fingers: fingers(Double(step) / Double(steps)), firstID: firstID)) }
        frames.append(frame(fingers: fingers(1), firstID: firstID, down: false))
        return frames
    }

    /// A two-finger pinch out about the centre: touch down, `steps` motion frames, lift.
    func pinch(steps: Int, firstID: Int32) -> [[InputEvent]] {
        func fingers(_ t: Double) -> [(Double, Double)] {
            let spread: Double = 0.05 + 0.3 * t
            let half: Double = spread / 2
            return [(0.5 - spread, 0.5 - half), (0.5 + spread, 0.5 + half)]
        }
        var frames = [frame(fingers: fingers(0), firstID: firstID, pressure: 50)]
        for step in 1...steps {
            frames.append(frame(fingers: fingers(Double(step) / Double(steps)), firstID: firstID, pressure: 50 + Int32(step)))
        }
        frames.append(frame(fingers: fingers(1), firstID: firstID, down: false))
        return frames
    }
}
