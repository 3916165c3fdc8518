import CommandLineKit
import EvdevInput
import Foundation
import GestureRecognition
import TouchInput

/// `strokes` and `train --device` on mice: `LiveGestures` reading mice (the
/// loop the daemon uses too) with the commands' messages, Ctrl-C handling
/// and exit status. Its pipelines' decisions give the strokes drawn
/// (recognised or not: the commands judge them against their own library),
/// those the stroke rule's capture refuses (too short, a drag along one
/// line) and those cut short.
final class MouseStrokeSession {
    /// What the caller receives.
    enum Event {
        /// A finished stroke, in mouse counts.
        case stroke([Point])
        /// A stroke the stroke rule's capture refused, with the rule and its
        /// figures (`too short: 31.2 of 50 counts`): it could never fire.
        case refused(StrokeVerdict.Rejection)
        /// A stroke cut short, with the reason.
        case cancelled(String)
    }

    private let live: LiveGestures
    private let followsAllMice: Bool
    private let commandName: String

    /// Opens `device` (a node, eventN or part of a name), or every mouse plus any plugged in later.
    init(device: String?, directory: String, button: UInt16, commandName: String) throws {
        self.commandName = commandName
        followsAllMice = device == nil
        let selection: LiveGestures.Selection = try device.map { .node(try InputDevices.choose($0, in: directory).path) } ?? .all
        do {
            let setup = LiveGestures.Setup(mouse: MouseStrokeEngine.Settings(strokes: StrokeButtonFilter.Settings(button: button)))
            live = try LiveGestures(
                selection: selection, directory: directory, kinds: .mice, setup: { _ in setup },
                warn: { printError("gestures \(commandName): \($0)") })
        } catch { throw CommandFailure(error.description) }
        if live.devices.isEmpty { printError("gestures \(commandName): no mouse yet; waiting for one to be plugged in.") }
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
                    printError("gestures \(commandName): reading \(device.node) (\(device.description.name)).")
                    return true
                case .decision(let decision, _):
                    switch decision.kind {
                    case .rejected where decision.rejection?.isCapture == true: return handle(.refused(decision.rejection!))
                    case .stroke, .rejected: return handle(.stroke(decision.points))
                    case .cancelled: return handle(.cancelled(decision.reason))
                    case .click, .press: return true
                    }
                case .gesture, .stroke, .handOver:
                    return true  // a mouse stroke's decision above has its points
                case .removed(_, let error):
                    printError("gestures \(commandName): \(error.description)")
                    // Following every mouse, keep running for the others and for new ones.
                    if !followsAllMice { status = 1 }
                    return followsAllMice
                }
            }
        } catch { throw CommandFailure(error.description) }
        return status
    }
}
