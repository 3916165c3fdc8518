import CommandLineKit
import EvdevInput
import Foundation
import GestureRecognition
import TouchInput

/// The live loop of `train --device` on a touchpad or touchscreen: the
/// daemon's own reader (`LiveGestures`, the pipeline and engine) on that one
/// device, with no templates, handing each stroke the engine draws to the
/// caller with its verdict, until it has enough or Ctrl-C. A stroke the
/// capture rules reject (too short, a drag along one line) comes with why.
final class LiveTouchStrokes {
    private let live: LiveGestures

    /// The fingers strokes are drawn with on `device`, from the engine configuration:
    /// `touchscreenStrokeFingers` or `touchpadStrokeFingers`.
    static func strokeFingers(_ device: DeviceDescription, _ configuration: GestureEngine.Configuration) throws -> Int {
        let kind: GestureSurface.Kind = device.kind == .touchscreen ? .touchscreen : .touchpad
        guard let fingers = configuration.strokeFingers(on: kind) else {
            throw CommandFailure(
                "Strokes are off on \(kind == .touchpad ? "touchpads" : "touchscreens") in the engine configuration; set engine.\(kind == .touchpad ? "touchpadStrokeFingers" : "touchscreenStrokeFingers") in the configuration file (--config)"
            )
        }
        return fingers
    }

    /// Reads the device at `node` with the engine `configuration`.
    init(node: String, configuration: GestureEngine.Configuration) throws {
        let setup = LiveGestures.Setup(configuration: configuration, templates: TemplateLibrary())
        do { live = try LiveGestures(selection: .node(node), setup: { _ in setup }) } catch { throw CommandFailure(error.description) }
    }

    /// Runs until `handle` returns false or SIGINT/SIGTERM; returns the exit status
    /// (1 when the device went away).
    func run(_ handle: (DrawnStroke) -> Bool) throws -> Int32 {
        let stop = StopSignals(waker: live.waker)
        defer { stop.cancel() }
        var status: Int32 = 0
        do {
            try live.run { output in
                switch output {
                case .opened, .gesture, .handOver, .decision: return true
                case .stroke(let stroke, _): return handle(stroke)
                case .removed(_, let error):
                    printError("gestures train: \(error.description)")
                    status = 1
                    return false
                }
            }
        } catch { throw CommandFailure(error.description) }
        return status
    }
}
