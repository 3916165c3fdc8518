import Foundation
import GestureRecognition
import GestureTraces
import TouchInput

/// A picture of one touch device's (or mouse's) recording: the surface to
/// scale in millimetres (a mouse's strokes in counts), the path of every contact in its own colour with ticks at
/// even times, touch-downs, lift-offs, palms and discarded jumps, and every
/// gesture the engine recognised, numbered where it began and ended, on a
/// timeline and in a list (type, fingers, direction, scale and angle,
/// template and score, cancelled or not).
///
///     let trace = try Trace.load(contentsOf: url)
///     let picture = try TracePicture(trace: trace, title: url.lastPathComponent)
///     try picture.svg.write(to: out, atomically: true, encoding: .utf8)
///
/// The same picture from data decoded elsewhere (live input, a test):
///
///     TracePicture(device: pad, frames: frames, gestures: gestures, originMicroseconds: 0)
public struct TracePicture: SVGPicture {
    /// The device the frames come from: its kind, size and name.
    public var device: DeviceDescription
    /// The decoded frames, in time order (`MultitouchDecoder`'s output).
    public var frames: [TouchFrame]
    /// The gestures the engine reported for these frames, in time order.
    public var gestures: [GestureEvent]
    /// The frames' time (microseconds) that gesture times count from.
    public var originMicroseconds: Int64
    /// The part of the recording to draw, in times from the origin (as
    /// gesture times are); nil draws all of it.
    public var window: ClosedRange<Duration>?
    /// The heading; the device name when nil.
    public var title: String?

    /// A picture of `frames` of `device` with `gestures`.
    public init(
        device: DeviceDescription, frames: [TouchFrame], gestures: [GestureEvent],
        originMicroseconds: Int64, window: ClosedRange<Duration>? = nil, title: String? = nil
    ) {
        self.device = device
        self.frames = frames
        self.gestures = gestures
        self.originMicroseconds = originMicroseconds
        self.window = window
        self.title = title
    }

    /// The unit of the positions: `mm` on a touch surface, `counts` on a
    /// mouse (whose strokes are drawn as the path of the pointer while the
    /// stroke button is held, in the kernel's counts).
    public var unit: String { device.kind == .mouse ? "counts" : "mm" }

    /// A picture of one touch device or mouse of `trace`: its frames decoded
    /// and its gestures replayed by `replay`, as `gestures replay` does (a
    /// mouse's contacts are its strokes: the pointer's path while `replay`'s
    /// stroke button is held).
    ///
    /// - Parameters:
    ///   - trace: The recording.
    ///   - deviceIndex: The device in the trace's `devices`; nil
    ///     picks the first touchpad or touchscreen that has frames.
    ///   - window: The part of the recording to draw, in times from its first event; nil draws all of it.
    ///   - replay: The replay whose gestures are drawn (its engine setup and templates).
    ///   - title: The heading; the device name when nil.
    /// - Throws: ``PictureError`` when there is no such device or it is not a touch surface.
    public init(
        trace: Trace, device deviceIndex: Int? = nil, window: ClosedRange<Duration>? = nil,
        replay: GestureReplay = GestureReplay(), title: String? = nil
    ) throws(PictureError) {
        let index = try Self.touchDevice(in: trace, requested: deviceIndex)
        let origin = trace.frames.lazy.compactMap { $0.events.first?.microseconds }.first ?? 0
        let isMouse = trace.devices[index].kind == .mouse
        self.init(
            device: trace.devices[index],
            frames: isMouse
                ? Self.strokeFrames(in: trace, device: index, button: replay.setup.mouse.strokes.button)
                : Self.touchFrames(in: trace, device: index),
            gestures: replay.deviceGestures(in: trace, including: { i, _ in i == index }).map(\.value),
            originMicroseconds: origin, window: window, title: title)
    }

    /// The frames the decoder makes of device `index`'s events in `trace`
    /// (with the decoder's default palm detection, as replay uses).
    public static func touchFrames(in trace: Trace, device index: Int) -> [TouchFrame] {
        guard trace.devices.indices.contains(index) else { return [] }
        var decoder = MultitouchDecoder(device: trace.devices[index])
        var frames: [TouchFrame] = []
        for frame in trace.frames where frame.device == index {
            for event in frame.events {
                if let touch = decoder.process(event) { frames.append(touch) }
            }
        }
        if let last = decoder.finish() { frames.append(last) }
        return frames
    }

    /// A mouse's frames as a touch surface's: one contact, at the pointer's
    /// position (its relative motion summed, in counts), in every frame the
    /// stroke `button` is held, a new contact for each press; positions
    /// shifted so that the drawn paths start 5 counts from the top-left corner.
    public static func strokeFrames(in trace: Trace, device index: Int, button code: UInt16) -> [TouchFrame] {
        guard trace.devices.indices.contains(index), let button = Buttons(code: code) else { return [] }
        var decoder = MultitouchDecoder(device: trace.devices[index])
        var frames: [TouchFrame] = []
        var position = Point.zero
        var presses = 0
        var held = false
        func take(_ decoded: TouchFrame) {
            position = position + Point(x: Double(decoded.relativeX), y: Double(decoded.relativeY))
            let down = decoded.buttons.contains(button)
            if down && !held { presses += 1 }
            held = down
            var frame = TouchFrame()
            frame.microseconds = decoded.microseconds
            frame.buttons = decoded.buttons
            if down {
                frame.contacts = [Contact(id: presses - 1, position: position)]
                frame.fingerCount = 1
                frame.isTouching = true
            }
            frames.append(frame)
        }
        for frame in trace.frames where frame.device == index {
            for event in frame.events {
                if let decoded = decoder.process(event) { take(decoded) }
            }
        }
        if let last = decoder.finish() { take(last) }
        let drawn = frames.flatMap(\.contacts).map(\.position)
        guard let minimumX = drawn.map(\.x).min(), let minimumY = drawn.map(\.y).min() else { return frames }
        let shift = Point(x: 5 - minimumX, y: 5 - minimumY)
        for index in frames.indices {
            for contact in frames[index].contacts.indices {
                frames[index].contacts[contact].position = frames[index].contacts[contact].position + shift
            }
        }
        return frames
    }

    /// The device to draw: the one asked for, or the first touchpad,
    /// touchscreen or mouse that has frames.
    static func touchDevice(in trace: Trace, requested: Int?) throws(PictureError) -> Int {
        func drawable(_ device: DeviceDescription) -> Bool { GesturePipeline.surface(for: device) != nil || device.kind == .mouse }
        if let requested {
            guard trace.devices.indices.contains(requested) else {
                throw .noSuchDevice(index: requested, count: trace.devices.count)
            }
            guard drawable(trace.devices[requested]) else {
                throw .notATouchSurface(name: trace.devices[requested].name)
            }
            return requested
        }
        let drawn = trace.devices.indices.filter { drawable(trace.devices[$0]) }
        let used = Set(trace.frames.map(\.device))
        // A touch surface first, as before: a mouse beside it is drawn when asked for.
        let touch = drawn.filter { trace.devices[$0].kind != .mouse }
        guard let first = touch.first(where: used.contains) ?? drawn.first(where: used.contains) ?? touch.first ?? drawn.first else {
            throw .noTouchDevice
        }
        return first
    }

    /// The picture as SVG text.
    public var svg: String {
        TraceLayout(scene: TraceScene(picture: self)).document()
    }
}
