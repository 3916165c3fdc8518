import Foundation
import GestureRecognition
import GestureTraces
import TouchInput

/// Recordings of one finger drawing a given path on a touchscreen, for tests
/// that follow a stroke from the kernel's events through the engine.
///
/// ```swift
/// let trace = StrokeTraces.drawing(points, on: try RecordedDevices.named("atmel"), at: Point(x: 60, y: 20))
/// try StrokeTraces.write(trace, to: url)
/// ```
public enum StrokeTraces {
    /// One finger landing at the first of `points` (millimetres, moved by
    /// `origin`), following them evenly over `milliseconds` at 100 Hz, and
    /// lifting: protocol-B events of `device`, its size from its ranges.
    public static func drawing(_ points: [Point], on device: DeviceDescription, at origin: Point, milliseconds: Int = 600) -> Trace {
        let size = device.sizeMillimeters ?? (width: 100, height: 60)
        let x = device.absInfo[ABS.MT_POSITION_X] ?? AbsInfo(minimum: 0, maximum: 1000)
        let y = device.absInfo[ABS.MT_POSITION_Y] ?? AbsInfo(minimum: 0, maximum: 1000)
        func units(_ point: Point) -> (Int32, Int32) {
            let p = point + origin
            return (
                x.minimum + Int32((p.x / size.width * Double(x.range)).rounded()),
                y.minimum + Int32((p.y / size.height * Double(y.range)).rounded())
            )
        }
        // Evenly along the path, by length.
        var lengths = [0.0]
        for (a, b) in zip(points, points.dropFirst()) {
            lengths.append(lengths.last! + ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot())
        }
        let total = lengths.last!
        func point(at fraction: Double) -> Point {
            let target = fraction * total
            var k = 1
            while k < points.count - 1 && lengths[k] < target { k += 1 }
            let span = lengths[k] - lengths[k - 1]
            let f = span > 0 ? (target - lengths[k - 1]) / span : 0
            return points[k - 1] + (points[k] - points[k - 1]) * f
        }
        let steps = max(1, milliseconds / 10)
        var events: [InputEvent] = []
        let start: Int64 = 1_000_000
        for step in 0...steps {
            let time = start + Int64(step) * 10_000
            let (ux, uy) = units(point(at: Double(step) / Double(steps)))
            func event(_ type: UInt16, _ code: UInt16, _ value: Int32) {
                events.append(InputEvent(type: type, code: code, value: value, microseconds: time))
            }
            if step == 0 {
                event(EV.ABS, ABS.MT_SLOT, 0)
                event(EV.ABS, ABS.MT_TRACKING_ID, 1)
            }
            event(EV.ABS, ABS.MT_POSITION_X, ux)
            event(EV.ABS, ABS.MT_POSITION_Y, uy)
            if step == 0 { event(EV.KEY, BTN.TOUCH, 1) }
            event(EV.ABS, ABS.X, ux)
            event(EV.ABS, ABS.Y, uy)
            event(EV.SYN, SYN.REPORT, 0)
        }
        let lift = start + Int64(steps + 1) * 10_000
        events += [
            InputEvent(type: EV.ABS, code: ABS.MT_TRACKING_ID, value: -1, microseconds: lift),
            InputEvent(type: EV.KEY, code: BTN.TOUCH, value: 0, microseconds: lift),
            InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: lift),
        ]
        return Trace(device: device, events: events)
    }

    /// Writes `trace` as a JSON trace file at `url`.
    public static func write(_ trace: Trace, to url: URL) throws {
        let writer = try TraceWriter(url: url, devices: trace.devices)
        for frame in trace.frames { try writer.write(frame) }
        try writer.finish()
    }
}
