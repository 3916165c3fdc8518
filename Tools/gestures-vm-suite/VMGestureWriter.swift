import TouchInput

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
