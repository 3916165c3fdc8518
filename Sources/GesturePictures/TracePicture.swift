import Foundation
import GestureRecognition
import GestureTraces
import TouchInput

/// A picture of one touch device's recording: the surface to scale in
/// millimetres, the path of every contact in its own colour with ticks at
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

    /// A picture of one touch device of `trace`: its frames decoded and its
    /// gestures replayed by `replay`, as `gestures replay` does.
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
        self.init(
            device: trace.devices[index],
            frames: Self.touchFrames(in: trace, device: index),
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

    static func touchDevice(in trace: Trace, requested: Int?) throws(PictureError) -> Int {
        if let requested {
            guard trace.devices.indices.contains(requested) else {
                throw .noSuchDevice(index: requested, count: trace.devices.count)
            }
            guard GesturePipeline.surface(for: trace.devices[requested]) != nil else {
                throw .notATouchSurface(name: trace.devices[requested].name)
            }
            return requested
        }
        let touch = trace.devices.indices.filter { GesturePipeline.surface(for: trace.devices[$0]) != nil }
        let used = Set(trace.frames.map(\.device))
        guard let first = touch.first(where: used.contains) ?? touch.first else { throw .noTouchDevice }
        return first
    }

    /// The picture as SVG text.
    public var svg: String {
        TraceLayout(scene: TraceScene(picture: self)).document()
    }
}
