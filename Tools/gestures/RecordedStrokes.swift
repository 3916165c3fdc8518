import CommandLineKit
import GestureRecognition
import GestureTraces
import TouchInput

/// The strokes drawn in a recording, as the gesture engine sees them: each
/// touch device's events through the `MultitouchDecoder` the engine is fed
/// by, and a `TouchStrokeTracker` with the engine's stroke finger count and
/// minimum length; the points are in millimetres, as live strokes are.
enum RecordedStrokes {
    /// Every stroke of `trace` (from `file`, for errors), in recorded order.
    ///
    /// - Throws: a ``CommandFailure`` when strokes are off for the trace's
    ///   kind of device, or when it holds none.
    static func strokes(in trace: Trace, file: String, configuration: GestureEngine.Configuration) throws -> [[Point]] {
        var trackers: [Int: (decoder: MultitouchDecoder, tracker: TouchStrokeTracker)] = [:]
        var off: [String] = []
        for (index, device) in trace.devices.enumerated() {
            guard let surface = GestureReplay.surface(for: device) else { continue }
            guard let fingers = configuration.strokeFingers(on: surface.kind) else {
                off.append(surface.kind == .touchpad ? "touchpadStrokeFingers" : "touchscreenStrokeFingers")
                continue
            }
            trackers[index] = (MultitouchDecoder(device: device),
                               TouchStrokeTracker(fingers: fingers, minimumLengthMillimeters: configuration.strokeMinimumLengthMillimeters))
        }
        guard !trackers.isEmpty else {
            if let key = off.first {
                throw CommandFailure("\(file) was recorded on a \(key == "touchpadStrokeFingers" ? "touchpad" : "touchscreen"), where strokes are off in the engine configuration; set engine.\(key) (the finger count that draws) in the configuration file")
            }
            throw CommandFailure("\(file) holds no touchpad or touchscreen, so no strokes")
        }
        var strokes: [[Point]] = []
        var tooShort = 0
        func take(_ event: TouchStrokeTracker.Event?) {
            switch event {
            case .ended(let points)?: strokes.append(points)
            case .tooShort?: tooShort += 1
            case .cancelled?, nil: break
            }
        }
        for frame in trace.frames {
            guard var pair = trackers[frame.device] else { continue }
            for event in frame.events {
                if let touch = pair.decoder.process(event) { take(pair.tracker.process(touch)) }
            }
            trackers[frame.device] = pair
        }
        for (index, var pair) in trackers {
            if let touch = pair.decoder.finish() { take(pair.tracker.process(touch)) }
            trackers[index] = pair
        }
        guard !strokes.isEmpty else {
            let fingers = trackers.values.map(\.tracker.fingers).min() ?? 1
            let short = tooShort > 0 ? " (\(counted(tooShort, "touch", plural: "touches")) shorter than \(GestureEvent.decimalText(configuration.strokeMinimumLengthMillimeters)) mm)" : ""
            throw CommandFailure("\(file) holds no stroke drawn with \(counted(fingers, "finger"))\(short)")
        }
        return strokes
    }
}
