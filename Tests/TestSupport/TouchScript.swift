import GestureRecognition
import InputInterception
import TouchInput

/// Protocol-B frames of fingers scripted in millimetres and milliseconds, as
/// a kernel would send them: only changed values, fingers beyond the slots
/// in `BTN_TOOL_*` only, `ABS_X`/`ABS_Y` following the first finger. The
/// host tests feed them to the interception's loop and the real-kernel suite
/// (`Tools/gestures-vm-suite`) writes the same frames to uinput devices, so
/// both play one script.
///
///     let frames = TouchScript.scroll(on: pad, landingApartMilliseconds: 40, millimeters: 20, direction: .down).frames()
public struct TouchScript: Sendable {
    /// One finger: when it lands and lifts (ms from the start) and where it is (mm).
    public struct Finger: Sendable {
        public var down: Int64
        public var up: Int64
        public var path: @Sendable (Int64) -> Point

        public init(down: Int64, up: Int64, path: @escaping @Sendable (Int64) -> Point) {
            self.down = down
            self.up = up
            self.path = path
        }

        /// A finger resting at `x`, `y` (mm) from `down` to `up`.
        public static func still(_ x: Double, _ y: Double, down: Int64, up: Int64) -> Finger {
            Finger(down: down, up: up) { _ in Point(x: x, y: y) }
        }

        /// A finger at `x`, `y` moving `dx`, `dy` mm per 10 ms from `moveFrom` (ms) on.
        public static func moving(_ x: Double, _ y: Double, dx: Double, dy: Double, down: Int64, up: Int64, moveFrom: Int64? = nil)
            -> Finger
        {
            Finger(down: down, up: up) { t in
                let steps = Double(max(0, t - (moveFrom ?? down))) / 10
                return Point(x: x + dx * steps, y: y + dy * steps)
            }
        }
    }

    /// Which way a scripted scroll or swipe goes.
    public enum Direction: String, Sendable, CaseIterable {
        case down, right

        /// The unit step (x, y) of this direction.
        var step: (Double, Double) { self == .down ? (0, 1) : (1, 0) }
    }

    public var device: DeviceDescription
    public var fingers: [Finger] = []
    /// When the clickpad button is held (ms from the start).
    public var clicks: [ClosedRange<Int64>] = []
    public var frameInterval: Int64 = 10
    /// The pressure of every contact (`ABS_MT_PRESSURE` and `ABS_PRESSURE`,
    /// where the device has them), or nil for none: libinput takes a contact
    /// without pressure on a pressure-sensing pad for a hovering finger.
    public var pressure: Int32?
    /// The first frame's time, in microseconds.
    public var start: Int64 = 5_000_000

    public init(device: DeviceDescription, fingers: [Finger] = [], clicks: [ClosedRange<Int64>] = []) {
        self.device = device
        self.fingers = fingers
        self.clicks = clicks
    }

    /// The surface's size in millimetres, as the engine takes it
    /// (`DeviceDescription.positionScale(multitouch:)`, with its fallback
    /// for a device without resolution).
    public static func size(of device: DeviceDescription) -> (width: Double, height: Double) {
        let scale = device.positionScale(multitouch: device.contactProtocol == .slots || device.contactProtocol == .anonymous)!
        return (Double(scale.rangeX) / scale.unitsPerMillimeterX, Double(scale.rangeY) / scale.unitsPerMillimeterY)
    }

    /// A two-finger scroll as a hand makes it: the second finger lands
    /// `landingApartMilliseconds` after the first, both rest one frame more,
    /// then move `millimeters` in `direction` at `millimetersPer10ms`, and lift
    /// together. Side by side, 20 mm apart (12 % of a narrow surface's width).
    public static func scroll(
        on device: DeviceDescription, landingApartMilliseconds apart: Int64, millimeters: Double, direction: Direction,
        millimetersPer10ms speed: Double = 1
    ) -> TouchScript {
        swipe(
            on: device, fingers: 2, landingApartMilliseconds: apart, millimeters: millimeters, direction: direction,
            millimetersPer10ms: speed)
    }

    /// A swipe of `count` fingers landing `landingApartMilliseconds` apart
    /// (one after another, left to right), resting one frame after the last
    /// lands, then moving `millimeters` in `direction` at `millimetersPer10ms`
    /// and lifting together. The hand is placed so that the whole path stays
    /// on the surface.
    public static func swipe(
        on device: DeviceDescription, fingers count: Int, landingApartMilliseconds apart: Int64, millimeters: Double,
        direction: Direction, millimetersPer10ms speed: Double = 1
    ) -> TouchScript {
        let (width, height) = size(of: device)
        let spacing = min(20, width / Double(count + 2))
        let (dx, dy) = direction.step
        let handWidth = spacing * Double(count - 1)
        let x0 = max(2, (width - handWidth - dx * millimeters) / 2)
        let y0 = max(2, (height - dy * millimeters) / 2)
        let lastLanding = apart * Int64(count - 1)
        let moveFrom = lastLanding + 10
        let moving = Int64((millimeters / speed).rounded(.up)) * 10
        let up = moveFrom + moving + 10
        var script = TouchScript(device: device)
        script.pressure = 60
        script.fingers = (0..<count).map { index in
            Finger.moving(
                x0 + spacing * Double(index), y0, dx: dx * speed, dy: dy * speed, down: apart * Int64(index), up: up,
                moveFrom: moveFrom)
        }
        // Stop where the path ends (the lift frame keeps the last position).
        script.fingers = script.fingers.map { finger in
            let path = finger.path
            return Finger(down: finger.down, up: finger.up) { t in path(min(t, moveFrom + moving)) }
        }
        return script
    }

    /// The frames, each ending in `SYN_REPORT`, until 20 ms after the last lift.
    public func frames() -> [[InputEvent]] {
        let end = max(fingers.map(\.up).max() ?? 0, clicks.map(\.upperBound).max() ?? 0) + 20
        let slotCount = max(device.slotCount, 1)
        let scale = device.positionScale(multitouch: device.contactProtocol == .slots || device.contactProtocol == .anonymous)!
        func units(_ point: Point) -> (Int32, Int32) {
            (
                scale.minimumX + min(Int32(scale.rangeX), Int32((point.x * scale.unitsPerMillimeterX).rounded())),
                scale.minimumY + min(Int32(scale.rangeY), Int32((point.y * scale.unitsPerMillimeterY).rounded()))
            )
        }
        var state = EvdevState()
        var slotOf: [Int: Int] = [:]
        var nextTrackingID: Int32 = 100
        var frames: [[InputEvent]] = []
        var t: Int64 = 0
        while t <= end {
            let time = start + t * 1000
            var events: [InputEvent] = []
            func set(_ type: UInt16, _ code: UInt16, _ value: Int32, slot: Int32 = -1) {
                guard device.supports(type, code) else { return }
                if slot >= 0 {
                    guard state.value(type: type, code: code, slot: slot) != value else { return }
                    if state.currentSlot != slot {
                        let select = InputEvent(type: EV.ABS, code: ABS.MT_SLOT, value: slot, microseconds: time)
                        events.append(select)
                        state.apply(select)
                    }
                } else if state.value(type: type, code: code) == value {
                    return
                }
                let event = InputEvent(type: type, code: code, value: value, microseconds: time)
                events.append(event)
                state.apply(event)
            }
            let active = fingers.indices.filter { fingers[$0].down <= t && t < fingers[$0].up }
            for (index, slot) in slotOf.sorted(by: { $0.value < $1.value }) where !active.contains(index) {
                if slot >= 0 { set(EV.ABS, ABS.MT_TRACKING_ID, -1, slot: Int32(slot)) }
                slotOf[index] = nil
            }
            for index in active where slotOf[index] == nil {
                if let free = (0..<slotCount).first(where: { !slotOf.values.contains($0) }) {
                    slotOf[index] = free
                    set(EV.ABS, ABS.MT_TRACKING_ID, nextTrackingID, slot: Int32(free))
                    nextTrackingID += 1
                } else {
                    slotOf[index] = -1 - index  // beyond the slots: counted only
                }
            }
            for index in active {
                guard let slot = slotOf[index], slot >= 0 else { continue }
                let (px, py) = units(fingers[index].path(t))
                set(EV.ABS, ABS.MT_POSITION_X, px, slot: Int32(slot))
                set(EV.ABS, ABS.MT_POSITION_Y, py, slot: Int32(slot))
                if let pressure { set(EV.ABS, ABS.MT_PRESSURE, pressure, slot: Int32(slot)) }
            }
            if let first = active.first(where: { (slotOf[$0] ?? -1) >= 0 }) {
                let (px, py) = units(fingers[first].path(t))
                set(EV.ABS, ABS.X, px)
                set(EV.ABS, ABS.Y, py)
            }
            if let pressure { set(EV.ABS, ABS.PRESSURE, active.isEmpty ? 0 : pressure) }
            set(EV.KEY, BTN.TOUCH, active.isEmpty ? 0 : 1)
            let tools: [UInt16] = [BTN.TOOL_FINGER, BTN.TOOL_DOUBLETAP, BTN.TOOL_TRIPLETAP, BTN.TOOL_QUADTAP, BTN.TOOL_QUINTTAP]
            for (index, tool) in tools.enumerated() where index + 1 != active.count { set(EV.KEY, tool, 0) }
            if active.count >= 1 && active.count <= 5 { set(EV.KEY, tools[active.count - 1], 1) }
            set(EV.KEY, BTN.LEFT, clicks.contains { $0.contains(t) } ? 1 : 0)
            events.append(InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: time))
            frames.append(events)
            t += frameInterval
        }
        return frames
    }
}
