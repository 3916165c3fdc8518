import CommandLineKit
import EvdevInput
import Foundation
import GestureRecognition
import InputInterception
import TouchInput

/// The live loop of `strokes` and `train --device`: `LiveGestures` (the
/// daemon's own loop) on one touchpad or touchscreen (its engine, with no
/// templates) or on mice (their pipelines' decisions), with the commands'
/// messages, Ctrl-C handling and exit status. Every stroke drawn comes out
/// with what the stroke rule's capture made of it (a stroke, or refused:
/// too short, a drag along one line), the commands judging strokes against
/// their own library; a mouse's strokes cut short come out too.
final class LiveStrokes {
    /// What the caller receives.
    enum Event {
        /// A finished stroke, in the surface's unit (millimetres, mouse counts).
        case stroke([Point])
        /// A stroke the stroke rule's capture refused, with the rule and its
        /// figures (`too short: 31.2 of 50 counts`): it could never fire.
        case refused(StrokeVerdict.Rejection)
        /// A stroke cut short, with the reason.
        case cancelled(String)
    }

    private let live: LiveGestures
    /// Whether every device of the kind is read, new ones too (a device that
    /// goes then ends nothing), rather than one chosen device.
    private let followsEveryDevice: Bool
    private let commandName: String

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

    /// Reads the touchpad or touchscreen at `node` with the engine `configuration`.
    convenience init(touch node: String, configuration: GestureEngine.Configuration, commandName: String) throws {
        let setup = LiveGestures.Setup(configuration: configuration, templates: TemplateLibrary())
        try self.init(selection: .node(node), directory: "/dev/input", kinds: .touch, setup: setup, commandName: commandName)
    }

    /// Reads mice drawing with `button`: `device` (a node, eventN or part of
    /// a name), or every mouse plus any plugged in later.
    convenience init(mice device: String?, directory: String, button: UInt16, commandName: String) throws {
        let selection: LiveGestures.Selection = try device.map { .node(try InputDevices.choose($0, in: directory).path) } ?? .all
        let setup = LiveGestures.Setup(mouse: MouseStrokeEngine.Settings(strokes: StrokeButtonFilter.Settings(button: button)))
        try self.init(selection: selection, directory: directory, kinds: .mice, setup: setup, commandName: commandName)
        if live.devices.isEmpty { printError("gestures \(commandName): no mouse yet; waiting for one to be plugged in.") }
    }

    private init(
        selection: LiveGestures.Selection, directory: String, kinds: DeviceKinds, setup: LiveGestures.Setup, commandName: String
    ) throws {
        self.commandName = commandName
        if case .node = selection { followsEveryDevice = false } else { followsEveryDevice = true }
        do {
            live = try LiveGestures(
                selection: selection, directory: directory, kinds: kinds, setup: { _ in setup },
                warn: { printError("gestures \(commandName): \($0)") })
        } catch { throw CommandFailure(error.description) }
    }

    /// Runs until `handle` returns false or SIGINT/SIGTERM; returns the exit status
    /// (1 when the one chosen device went away).
    func run(_ handle: (Event) -> Bool) throws -> Int32 {
        let stop = StopSignals(waker: live.waker)
        defer { stop.cancel() }
        var status: Int32 = 0
        do {
            try live.run { output in
                switch output {
                case .opened(let device):
                    // A touch device's prompt names it already.
                    if device.description.kind == .mouse {
                        printError("gestures \(commandName): reading \(device.node) (\(device.description.name)).")
                    }
                    return true
                case .stroke(let stroke, _):
                    // The engine's own capture: a stroke the daemon could never fire is no sample.
                    if let rejection = stroke.verdict.rejection, rejection.isCapture { return handle(.refused(rejection)) }
                    return handle(.stroke(stroke.points))
                case .decision(let decision, _):
                    switch decision.kind {
                    case .rejected where decision.rejection?.isCapture == true, .passed where decision.rejection?.isCapture == true:
                        return handle(.refused(decision.rejection!))
                    case .stroke, .rejected: return handle(.stroke(decision.points))
                    case .passed where !decision.points.isEmpty: return handle(.stroke(decision.points))  // a stroke whose press passed
                    case .cancelled: return handle(.cancelled(decision.reason))
                    case .click, .press, .passed: return true
                    }
                case .gesture, .handOver, .frame, .events:
                    return true  // a stroke's verdict or decision has its points
                case .removed(_, let error):
                    printError("gestures \(commandName): \(error.description)")
                    // Following every mouse, keep running for the others and for new ones.
                    if !followsEveryDevice { status = 1 }
                    return followsEveryDevice
                }
            }
        } catch { throw CommandFailure(error.description) }
        return status
    }
}
