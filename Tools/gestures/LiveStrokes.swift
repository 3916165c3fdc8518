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
/// with the verdict of the stroke rule the engine judged it by, against the
/// templates it was given (refused by the capture: too short, a drag along
/// one line; or judged: accepted, or rejected with the rule and figures),
/// so that a command says what the daemon does with it; a mouse's strokes
/// cut short come out too.
final class LiveStrokes {
    /// What the caller receives.
    enum Event: Equatable {
        /// A finished stroke, in the surface's unit (millimetres, mouse
        /// counts), with the engine's verdict: accepted (it fires), or
        /// rejected by a rule that needs templates.
        case stroke([Point], StrokeVerdict)
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

    /// Reads mice drawing as `settings` say, their strokes judged against
    /// `templates`: `device` (a node, eventN or part of a name), or every
    /// mouse plus any plugged in later.
    convenience init(
        mice device: String?, directory: String, settings: MouseStrokeEngine.Settings, templates: TemplateLibrary, commandName: String
    ) throws {
        let selection: LiveGestures.Selection = try device.map { .node(try InputDevices.choose($0, in: directory).path) } ?? .all
        let setup = LiveGestures.Setup(templates: templates, mouse: settings)
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
                    return handle(Self.event(for: stroke))
                case .decision(let decision, _):
                    guard let event = Self.event(for: decision) else { return true }
                    return handle(event)
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

    /// What a touch stroke the engine drew comes out as: refused when the
    /// capture rejected it (the daemon could never fire it, and it is no
    /// sample), else with the engine's verdict.
    static func event(for stroke: DrawnStroke) -> Event {
        if let rejection = stroke.verdict.rejection, rejection.isCapture { return .refused(rejection) }
        return .stroke(stroke.points, stroke.verdict)
    }

    /// What a mouse's decision comes out as, or nil for a press that drew
    /// no stroke (a click, a press held still): as ``event(for:)-(DrawnStroke)``
    /// for a stroke (also one whose press passed), `cancelled` for one cut short.
    static func event(for decision: MouseDecision) -> Event? {
        switch decision.kind {
        case .cancelled:
            return .cancelled(decision.reason)
        case .stroke, .rejected, .passed:
            guard let verdict = decision.verdict else { return nil }  // a press that passed and drew nothing
            if let rejection = verdict.rejection, rejection.isCapture { return .refused(rejection) }
            return .stroke(decision.points, verdict)
        case .click, .press:
            return nil
        }
    }
}
