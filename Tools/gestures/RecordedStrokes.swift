import CommandLineKit
import DesktopDaemon
import GestureRecognition
import GestureTraces
import TouchInput

/// The strokes drawn in a recording, as the daemon draws them: the
/// recording replayed (`GestureReplay`, the pipeline the daemon runs) with
/// the engine's stroke finger count on touch surfaces and the `mouse`
/// section's button on mice, and every stroke that passes the capture
/// rules of the one stroke rule (`StrokeRule.capture`: long and wide enough)
/// taken; touch points are in millimetres and a mouse's in counts, as live
/// strokes are.
enum RecordedStrokes {
    /// Every stroke of `trace` (from `file`, for errors), in recorded order,
    /// drawn with `configuration` and, on mice, `mouse` (the defaults of a
    /// `mouse:` section when nil).
    ///
    /// - Throws: a ``CommandFailure`` when strokes are off for the trace's
    ///   kind of device, or when it holds none (saying why the strokes drawn were not taken).
    static func strokes(
        in trace: Trace, file: String, configuration: GestureEngine.Configuration,
        mouse: DaemonConfiguration.MouseSettings? = nil
    ) throws -> [[Point]] {
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
        let mice = trace.devices.contains { $0.kind == .mouse }
        let settings = mouse ?? DaemonConfiguration.MouseSettings()
        guard !drawing.isEmpty || mice else {
            if let key = off.first {
                throw CommandFailure(
                    "\(file) was recorded on a \(key == "touchpadStrokeFingers" ? "touchpad" : "touchscreen"), where strokes are off in the engine configuration; set engine.\(key) (the finger count that draws) in the configuration file"
                )
            }
            throw CommandFailure("\(file) holds no touchpad, touchscreen or mouse, so no strokes")
        }
        // No templates: every stroke drawn comes out with its capture verdict. The mouse's button is
        // not withheld: a replay has no desktop to keep it from, and its strokes are the same.
        let setup = GesturePipeline.Setup(
            configuration: configuration, templates: TemplateLibrary(),
            mouse: settings.strokeSettings(withholdsButton: false, engine: configuration))
        let run = GestureReplay(setup: setup).run(trace)
        let drawn: [(time: Duration, points: [Point], rejection: StrokeVerdict.Rejection?)] =
            run.strokes.map { ($0.value.time, $0.value.points, $0.value.verdict.rejection) }
            + run.mouseStrokes.map { ($0.value.time, $0.value.points, $0.value.rejection) }
        let taken = drawn.sorted { $0.time < $1.time }.filter { !($0.rejection?.isCapture ?? false) }.map(\.points)
        guard !taken.isEmpty else {
            let why = drawn.compactMap(\.rejection).map(\.description)
            let shown = why.prefix(3).joined(separator: "; ") + (why.count > 3 ? "; ..." : "")
            let reasons = why.isEmpty ? "" : " (\(counted(why.count, "stroke")) drawn, not taken: \(shown))"
            let with =
                (drawing.min().map { [counted($0, "finger")] } ?? []) + (mice ? ["the mouse's \(settings.button.rawValue) button"] : [])
            throw CommandFailure("\(file) holds no stroke drawn with \(with.joined(separator: " or "))\(reasons)")
        }
        return taken
    }
}
