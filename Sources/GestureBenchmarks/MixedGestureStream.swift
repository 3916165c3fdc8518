import GestureRecognition
import TouchInput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A generated stream of touch input: a cycle of six gestures (a 3-finger
/// swipe down, a 2-finger pinch out, a 4-finger rotation, a 3-finger hold, a
/// 2-finger tap, 1-finger pointer motion), 60 frames each, 8 ms apart, the
/// last frame of each lifting every finger (the hold and the tap land 72 ms
/// after the gesture before lifted, as fingers can).
///
/// The benchmarks feed it to the decoder and the engine as a real pad's
/// kernel events (protocol B: slots, tracking ids, BTN_TOOL_* counts), so
/// every frame goes the whole way, and every gesture kind shows up.
///
///     let stream = MixedGestureStream(device: rmi4)!
///     var events: [InputEvent] = []
///     var state = MixedGestureStream.EncoderState()
///     for index in 0..<3 { stream.appendEvents(ofFrame: index, state: &state, to: &events) }
///     events.count   // 32: the first frame lands three fingers
///
/// - Complexity: O(contacts) per frame.
public struct MixedGestureStream: Sendable {
    /// The frames of one gesture of the cycle.
    public static let framesPerGesture = 60
    /// The time between frames, in microseconds (125 Hz).
    public static let frameIntervalMicroseconds: Int64 = 8_000 /* 8 ms */
    /// The first frame's time, in microseconds.
    public static let startMicroseconds: Int64 = 1_000_000

    /// The device the events are for.
    public let device: DeviceDescription
    private let scale: PositionScale
    private let slotCount: Int
    private let size: (width: Double, height: Double)

    /// What the encoder remembers between frames: the tracking id in each
    /// slot, as the kernel does.
    public struct EncoderState: Sendable {
        var previous: [Int] = []

        /// The state before the first frame: no finger down.
        public init() {}
    }

    /// A stream on `device`, or nil when it is not a protocol B touch device
    /// with positions in millimetres and at least 4 slots (the rotation uses 4).
    public init?(device: DeviceDescription) {
        guard device.contactProtocol == .slots, device.slotCount >= 4,
            let scale = device.positionScale(multitouch: true), let size = device.sizeMillimeters
        else { return nil }
        self.size = size
        self.device = device
        self.scale = scale
        self.slotCount = device.slotCount
    }

    /// The `index`-th frame, in millimetres, with the time since the stream's start.
    public func frame(_ index: Int) -> GestureFrame {
        let time = Duration.microseconds(Int64(index) * Self.frameIntervalMicroseconds)
        let gesture = (index / Self.framesPerGesture) % 6
        let step = index % Self.framesPerGesture
        guard step < Self.framesPerGesture - 1 else { return GestureFrame(time: time, contacts: []) }
        let u = Double(max(step - 5, 0)) / Double(Self.framesPerGesture - 7)  // still for 5 frames, then moving
        let wobble = Double(index % 7) * 0.05
        let firstID = (index / Self.framesPerGesture) * 8
        func contacts(_ n: Int, _ position: (Int) -> Point) -> [GestureFrame.Contact] {
            (0..<n).map { .init(id: firstID + $0, position: position($0) + Point(x: wobble, y: 0)) }
        }
        let center = Point(x: size.width / 2, y: size.height / 2)
        let unit = min(size.width, size.height) / 53  // the distances below are for a 53 mm high pad
        func around(_ n: Int, _ k: Int, radius: Double, turn: Double) -> Point {
            let angle = 2 * Double.pi * Double(k) / Double(n) + turn
            return center + Point(x: cos(angle), y: sin(angle)) * (radius * unit)
        }
        func at(_ x: Double, _ y: Double) -> Point { center + Point(x: x, y: y) * unit }
        let list: [GestureFrame.Contact]
        switch gesture {
        case 0: list = contacts(3) { k in at(-18 + 12 * Double(k), -6 + 20 * u) }  // swipe down
        case 1: list = contacts(2) { k in around(2, k, radius: 8 + 10 * u, turn: 0) }  // pinch out
        case 2: list = contacts(4) { k in around(4, k, radius: 15, turn: u * Double.pi / 3) }  // rotate
        // Nothing, then a hold, and nothing, then a tap: fingers lifting land
        // again 72 ms later at the soonest (no sooner than the engine's
        // relanding gap, within which a landing is the same contact found
        // again and neither taps nor holds).
        case 3: list = step >= 8 ? contacts(3) { k in at(-18 + 12 * Double(k), 4) } : []  // hold
        case 4: list = (8..<20).contains(step) ? contacts(2) { k in at(-8 + 14 * Double(k), 4) } : []
        default: list = contacts(1) { _ in at(-28 + 50 * u, 14 - 10 * u) }  // pointer
        }
        return GestureFrame(time: time, contacts: list)
    }

    /// Appends the kernel events of frame `index` to `events`: slot changes,
    /// tracking ids for new touches, positions in device units, the
    /// BTN_TOOL_* and BTN_TOUCH changes, and the SYN_REPORT.
    public func appendEvents(ofFrame index: Int, state: inout EncoderState, to events: inout [InputEvent]) {
        let frame = self.frame(index)
        let microseconds = Self.startMicroseconds + Int64(index) * Self.frameIntervalMicroseconds
        func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            events.append(InputEvent(type: type, code: code, value: value, microseconds: microseconds))
        }
        let previous = state.previous
        let count = min(frame.contacts.count, slotCount)
        for slot in count..<max(previous.count, count) {
            add(EV.ABS, ABS.MT_SLOT, Int32(slot)); add(EV.ABS, ABS.MT_TRACKING_ID, -1)
        }
        var ids: [Int] = []
        for (slot, contact) in frame.contacts.prefix(count).enumerated() {
            add(EV.ABS, ABS.MT_SLOT, Int32(slot))
            if slot >= previous.count || previous[slot] != contact.id {
                add(EV.ABS, ABS.MT_TRACKING_ID, Int32(contact.id & 0xffff))
            }
            add(EV.ABS, ABS.MT_POSITION_X, scale.deviceX(millimeters: contact.position.x))
            add(EV.ABS, ABS.MT_POSITION_Y, scale.deviceY(millimeters: contact.position.y))
            ids.append(contact.id)
        }
        let tools = [BTN.TOOL_FINGER, BTN.TOOL_DOUBLETAP, BTN.TOOL_TRIPLETAP, BTN.TOOL_QUADTAP, BTN.TOOL_QUINTTAP]
        if previous.count != ids.count {
            if previous.count > 0 { add(EV.KEY, tools[min(previous.count, 5) - 1], 0) }
            if ids.count > 0 { add(EV.KEY, tools[min(ids.count, 5) - 1], 1) }
            if previous.isEmpty || ids.isEmpty { add(EV.KEY, BTN.TOUCH, ids.isEmpty ? 0 : 1) }
        }
        add(EV.SYN, SYN.REPORT, 0)
        state.previous = ids
    }

    /// The kernel events of the first `frameCount` frames.
    public func events(frameCount: Int) -> [InputEvent] {
        var events: [InputEvent] = []
        events.reserveCapacity(frameCount * 12)
        var state = EncoderState()
        for index in 0..<frameCount { appendEvents(ofFrame: index, state: &state, to: &events) }
        return events
    }
}

extension PositionScale {
    /// The device x coordinate of `millimeters` from the left edge, rounded.
    func deviceX(millimeters: Double) -> Int32 {
        Int32(clamping: Int64(minimumX) + Int64((millimeters * unitsPerMillimeterX).rounded()))
    }

    /// The device y coordinate of `millimeters` from the top edge, rounded.
    func deviceY(millimeters: Double) -> Int32 {
        Int32(clamping: Int64(minimumY) + Int64((millimeters * unitsPerMillimeterY).rounded()))
    }
}
