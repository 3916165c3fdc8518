import CommandLineKit
import EvdevInput
import Foundation
import GestureRecognition
import TouchInput

/// `strokes` and `train --device` on mice: `LiveMouseStrokes` (the loop the
/// daemon uses too) with the commands' messages, Ctrl-C handling and exit
/// status. Its pipelines' decisions give the strokes drawn (recognised or
/// not: the commands judge them against their own library) and those cut short.
final class MouseStrokeSession {
    /// What the caller receives.
    enum Event {
        /// A finished stroke, in mouse counts.
        case stroke([Point])
        /// A stroke cut short, with the reason.
        case cancelled(String)
    }

    private let live: LiveMouseStrokes
    private let followsAllMice: Bool
    private let commandName: String

    /// Opens `device` (a node, eventN or part of a name), or every mouse plus any plugged in later.
    init(device: String?, directory: String, button: UInt16, commandName: String) throws {
        self.commandName = commandName
        followsAllMice = device == nil
        let selection: LiveMouseStrokes.Selection =
            try device.map { .device(try InputDevices.choose($0, in: directory)) }
            ?? .mice(in: directory)
        do {
            let setup = LiveMouseStrokes.Setup(mouse: MouseStrokeEngine.Settings(strokes: StrokeButtonFilter.Settings(button: button)))
            live = try LiveMouseStrokes(
                selection: selection, setup: { _ in setup },
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
                    case .stroke, .rejected: return handle(.stroke(decision.points))
                    case .cancelled: return handle(.cancelled(decision.reason))
                    case .click, .press: return true
                    }
                case .gesture:
                    return true  // the stroke's decision above has its points
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
