import CommandLineKit
import GestureRecognition
import GestureTraces
import TouchInput

/// The strokes drawn in a recording, as the gesture engine draws them: the
/// recording replayed (`GestureReplay`, the pipeline the daemon runs) with
/// the engine's stroke finger count, and every stroke that passes the capture
/// rules of the one stroke rule (`StrokeRule.capture`: long and wide enough)
/// taken; the points are in millimetres, as live strokes are.
enum RecordedStrokes {
    /// Every stroke of `trace` (from `file`, for errors), in recorded order.
    ///
    /// - Throws: a ``CommandFailure`` when strokes are off for the trace's
    ///   kind of device, or when it holds none (saying why the strokes drawn were not taken).
    static func strokes(in trace: Trace, file: String, configuration: GestureEngine.Configuration) throws -> [[Point]] {
        var off: [String] = []
        var drawing: [Int] = []
        for device in trace.devices {
            guard let surface = GestureReplay.surface(for: device) else { continue }
            guard let fingers = configuration.strokeFingers(on: surface.kind) else {
                off.append(surface.kind == .touchpad ? "touchpadStrokeFingers" : "touchscreenStrokeFingers")
                continue
            }
            drawing.append(fingers)
        }
        guard let fingers = drawing.min() else {
            if let key = off.first {
                throw CommandFailure(
                    "\(file) was recorded on a \(key == "touchpadStrokeFingers" ? "touchpad" : "touchscreen"), where strokes are off in the engine configuration; set engine.\(key) (the finger count that draws) in the configuration file"
                )
            }
            throw CommandFailure("\(file) holds no touchpad or touchscreen, so no strokes")
        }
        // No templates: every stroke the engine draws comes out with its capture verdict.
        let drawn = GestureReplay(configuration: configuration, templates: TemplateLibrary()).run(trace).strokes.map(\.value)
        let taken = drawn.filter(\.verdict.isCaptured).map(\.points)
        guard !taken.isEmpty else {
            let why = drawn.compactMap(\.verdict.rejection).map(\.description)
            let shown = why.prefix(3).joined(separator: "; ") + (why.count > 3 ? "; ..." : "")
            let reasons = why.isEmpty ? "" : " (\(counted(why.count, "stroke")) drawn, not taken: \(shown))"
            throw CommandFailure("\(file) holds no stroke drawn with \(counted(fingers, "finger"))\(reasons)")
        }
        return taken
    }
}
