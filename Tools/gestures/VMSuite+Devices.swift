import EvdevInput

/// Virtual devices for the real-kernel suite, modelled on real hardware
/// (numbers from ../shared/notes/linux-input-facts.md).
enum VMDevices {
    typealias Axis = EvdevDeviceInfo.AbsInfo

    static let fingerTools: [UInt16] = [EvdevEvent.btnToolFinger, EvdevEvent.btnToolDoubleTap, EvdevEvent.btnToolTripleTap,
                                        EvdevEvent.btnToolQuadTap, EvdevEvent.btnToolQuintTap]

    /// A multitouch device: ABS_X/Y mirroring the first contact, slots, optional extras.
    static func multitouch(name: String, bus: UInt16, vendor: UInt16, product: UInt16, properties: [UInt16],
                           x: Axis, y: Axis, slots: Int32, keys: [UInt16], extraAxes: [UInt16: Axis] = [:]) -> EvdevDeviceInfo {
        var absinfo: [UInt16: Axis] = [
            EvdevEvent.absX: x, EvdevEvent.absY: y,
            EvdevEvent.absMTSlot: Axis(minimum: 0, maximum: slots - 1),
            EvdevEvent.absMTPositionX: x, EvdevEvent.absMTPositionY: y,
            EvdevEvent.absMTTrackingID: Axis(minimum: 0, maximum: 65535),
        ]
        absinfo.merge(extraAxes) { _, new in new }
        return EvdevDeviceInfo(name: name, bus: bus, vendor: vendor, product: product, version: 1,
                               properties: properties,
                               codes: [EvdevEvent.key: keys.sorted(), EvdevEvent.abs: absinfo.keys.sorted()],
                               absinfo: absinfo)
    }

    /// Lenovo X1 Carbon 3rd, Synaptics PS/2: 98 x 54 mm, 2 slots, BTN_TOOL up to QUINTTAP, clickpad.
    static let synaptics = multitouch(
        name: "SynPS/2 Synaptics TouchPad (virtual)", bus: 0x11, vendor: 0x2, product: 0x7,
        properties: [EvdevEvent.propPointer, EvdevEvent.propButtonPad],
        x: Axis(minimum: 1266, maximum: 5676, resolution: 45), y: Axis(minimum: 1096, maximum: 4758, resolution: 68),
        slots: 2, keys: [EvdevEvent.btnLeft, EvdevEvent.btnTouch] + fingerTools)

    /// Apple Magic Trackpad v1 (Bluetooth 05ac:030e): 132 x 112 mm, 16 slots, clickpad, touch major/minor.
    static let appleTrackpad = multitouch(
        name: "Apple Wireless Trackpad (virtual)", bus: 0x5, vendor: 0x5ac, product: 0x30e,
        properties: [EvdevEvent.propPointer, EvdevEvent.propButtonPad],
        x: Axis(minimum: -2909, maximum: 3167, resolution: 46), y: Axis(minimum: -2456, maximum: 2565, resolution: 45),
        slots: 16, keys: [EvdevEvent.btnLeft, EvdevEvent.btnTouch] + Array(fingerTools.prefix(4)),
        extraAxes: [EvdevEvent.absMTTouchMajor: Axis(minimum: 0, maximum: 1020),
                    EvdevEvent.absMTTouchMinor: Axis(minimum: 0, maximum: 1020),
                    EvdevEvent.absMTOrientation: Axis(minimum: -31, maximum: 32)])

    /// Synaptics RMI4 TM3053 (bus RMI): 97 x 53 mm, 5 slots, pressure, tool type.
    static let rmi4 = multitouch(
        name: "Synaptics TM3053-004 (virtual)", bus: 0x1d, vendor: 0x6cb, product: 0x0,
        properties: [EvdevEvent.propPointer, EvdevEvent.propButtonPad],
        x: Axis(minimum: 0, maximum: 1940, resolution: 20), y: Axis(minimum: 0, maximum: 1062, resolution: 20),
        slots: 5, keys: [EvdevEvent.btnLeft, EvdevEvent.btnTouch] + fingerTools,
        extraAxes: [EvdevEvent.absPressure: Axis(minimum: 0, maximum: 255),
                    EvdevEvent.absMTPressure: Axis(minimum: 0, maximum: 255),
                    EvdevEvent.absMTToolType: Axis(minimum: 0, maximum: 2)])

    /// Atmel maXTouch-style touchscreen: 10 slots, direct, only BTN_TOUCH, no resolution.
    static let touchscreen = multitouch(
        name: "Atmel maXTouch Touchscreen (virtual)", bus: 0x18, vendor: 0x3eb, product: 0x8a03,
        properties: [EvdevEvent.propDirect],
        x: Axis(minimum: 0, maximum: 799), y: Axis(minimum: 0, maximum: 479),
        slots: 10, keys: [EvdevEvent.btnTouch])

    /// A USB mouse: relative x/y, wheel, three buttons.
    static let mouse = EvdevDeviceInfo(
        name: "Logitech USB Optical Mouse (virtual)", bus: 0x3, vendor: 0x46d, product: 0xc077, version: 0x111,
        codes: [EvdevEvent.key: [EvdevEvent.btnLeft, EvdevEvent.btnRight, EvdevEvent.btnMiddle],
                EvdevEvent.rel: [EvdevEvent.relX, EvdevEvent.relY, EvdevEvent.relWheel]])

    /// The touch devices with their short names and expected kinds.
    static let touchDevices: [(name: String, info: EvdevDeviceInfo, kind: EvdevDeviceInfo.Kind)] = [
        ("synaptics-2slot", synaptics, .touchpad),
        ("apple-16slot", appleTrackpad, .touchpad),
        ("rmi4-5slot", rmi4, .touchpad),
        ("touchscreen-10slot", touchscreen, .touchscreen),
    ]
}

/// Protocol-B frames of gestures, written only with codes the device has.
struct VMGestureWriter {
    let info: EvdevDeviceInfo

    private func abs(_ code: UInt16, _ value: Int32) -> EvdevEvent? {
        info.has(EvdevEvent.abs, code) ? EvdevEvent(type: EvdevEvent.abs, code: code, value: value) : nil
    }
    private func key(_ code: UInt16, _ value: Int32) -> EvdevEvent? {
        info.has(EvdevEvent.key, code) ? EvdevEvent(type: EvdevEvent.key, code: code, value: value) : nil
    }

    /// A point as a fraction of the surface (0...1 each way), in device units.
    func position(_ fx: Double, _ fy: Double) -> (Int32, Int32) {
        let x = info.xAxis!, y = info.yAxis!
        return (x.minimum + Int32(Double(x.maximum - x.minimum) * fx), y.minimum + Int32(Double(y.maximum - y.minimum) * fy))
    }

    /// One frame placing `fingers` contacts (fractions of the surface); tracking ids start at `firstID`.
    /// Fingers beyond the slot count only show in BTN_TOOL_*, as on a 2-slot Synaptics pad.
    func frame(fingers: [(Double, Double)], firstID: Int32, pressure: Int32 = 60, down: Bool = true) -> [EvdevEvent] {
        let slots = info.slotCount ?? 1
        var events: [EvdevEvent?] = []
        for (index, finger) in fingers.prefix(slots).enumerated() {
            let (x, y) = position(finger.0, finger.1)
            events += [abs(EvdevEvent.absMTSlot, Int32(index))]
            if down {
                events.append(abs(EvdevEvent.absMTTrackingID, firstID + Int32(index)))
                events.append(abs(EvdevEvent.absMTPositionX, x))
                events.append(abs(EvdevEvent.absMTPositionY, y))
                events.append(abs(EvdevEvent.absMTPressure, pressure))
                events.append(abs(EvdevEvent.absMTTouchMajor, 300))
                events.append(abs(EvdevEvent.absMTTouchMinor, 200))
            } else {
                events += [abs(EvdevEvent.absMTTrackingID, -1)]
            }
        }
        if down, let first = fingers.first {
            let (x, y) = position(first.0, first.1)
            events.append(abs(EvdevEvent.absX, x))
            events.append(abs(EvdevEvent.absY, y))
            events.append(abs(EvdevEvent.absPressure, pressure))
        }
        events += [key(EvdevEvent.btnTouch, down ? 1 : 0)]
        for (index, tool) in VMDevices.fingerTools.enumerated() {
            events += [key(tool, down && index == fingers.count - 1 ? 1 : 0)]
        }
        return events.compactMap { $0 }
    }

    /// A swipe of `count` fingers to the right: touch down, `steps` motion frames, lift.
    func swipe(count: Int, steps: Int, firstID: Int32) -> [[EvdevEvent]] {
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
    func pinch(steps: Int, firstID: Int32) -> [[EvdevEvent]] {
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
