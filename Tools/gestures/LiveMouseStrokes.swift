import EvdevInput
import Foundation
import GestureRecognition

/// The live loop shared by `strokes` and `train --device`: reads mice, turns
/// button-held motion into strokes with `MouseStrokeTracker`, and hands each
/// finished or cancelled stroke to the caller until it has enough or Ctrl-C.
final class LiveMouseStrokes {
    /// What the caller receives.
    enum Event {
        /// A finished stroke, in mouse counts.
        case stroke([Point])
        /// A stroke cut short, with the reason.
        case cancelled(String)
    }

    /// How long a device must outlive a button release for the stroke to count:
    /// unplugging a mouse makes the kernel release its buttons just before it goes.
    static let unplugGrace: Duration = .milliseconds(100)

    private let reader: EvdevReader
    private let button: UInt16
    private let followAllMice: Bool
    private let commandName: String

    /// Opens `device` (a node, eventN or part of a name), or every mouse plus any plugged in later.
    init(device: String?, directory: String, button: UInt16, commandName: String) throws {
        self.button = button
        self.commandName = commandName
        followAllMice = device == nil
        var devices: [EvdevDevice]
        if let device {
            devices = [try InputDevices.choose(device, in: directory)]
        } else {
            let (all, errors) = InputDevices.openAll(in: directory)
            devices = all.filter { $0.description.kind == .mouse }
            if devices.isEmpty, let denied = errors.first(where: { if case .permissionDenied = $0 { true } else { false } }) {
                throw CommandFailure(denied.description)
            }
            if devices.isEmpty { printError("gestures \(commandName): no mouse yet; waiting for one to be plugged in.") }
        }
        do {
            reader = try EvdevReader(devices: devices)
            if followAllMice { try reader.watchForNewDevices(in: directory) }
        } catch { throw CommandFailure(error.description) }
    }

    /// Runs until `handle` returns false or SIGINT/SIGTERM; returns the exit status
    /// (1 when the one chosen device went away).
    func run(_ handle: (Event) -> Bool) throws -> Int32 {
        let stop = StopSignals(waker: reader.waker)
        defer { stop.cancel() }
        let clock = ContinuousClock()
        var trackers: [ObjectIdentifier: MouseStrokeTracker] = [:]
        var pending: [ObjectIdentifier: (points: [Point], due: ContinuousClock.Instant)] = [:]
        var lastLossWarning: ContinuousClock.Instant?
        for device in reader.devices { announce(device) }
        while true {
            let timeout = pending.values.map(\.due).min().map { max(.zero, $0 - clock.now) }
            let batch: EvdevReader.Batch
            do { batch = try reader.wait(timeout: timeout) } catch { throw CommandFailure(error.description) }
            if batch.woken { return 0 }
            for (device, output) in batch.outputs {
                let id = ObjectIdentifier(device)
                var tracker = trackers[id] ?? MouseStrokeTracker(button: button)
                defer { trackers[id] = tracker }
                switch output {
                case .added:
                    if device.description.kind != .mouse { reader.remove(device) } else { announce(device) }
                case .removed(let error):
                    if tracker.cancel() != nil || pending.removeValue(forKey: id) != nil {
                        guard handle(.cancelled("the device is gone")) else { return 0 }
                    }
                    printError("gestures \(commandName): \(error.description)")
                    // Following every mouse, keep running for the others and for new ones.
                    guard followAllMice else { return 1 }
                case .resynced:
                    // The resync frame is state, not motion: a button it shows held was pressed
                    // during the loss, so no stroke starts until the next real press.
                    let wasDrawing = tracker.cancel() != nil
                    // Rate-limited: a reader that keeps falling behind warns once per 10 s.
                    let now = clock.now
                    if lastLossWarning.map({ now - $0 > .seconds(10) }) ?? true {
                        lastLossWarning = now
                        printError("gestures \(commandName): the kernel dropped events (this program fell behind); a stroke in progress is cancelled.")
                    }
                    if wasDrawing { guard handle(.cancelled("events were lost")) else { return 0 } }
                case .frame(let frame):
                    if case .ended(let points)? = tracker.process(frame) {
                        pending[id] = (points, clock.now + Self.unplugGrace)
                    }
                }
            }
            for (id, stroke) in pending.sorted(by: { $0.value.due < $1.value.due }) where stroke.due <= clock.now {
                pending[id] = nil
                guard handle(.stroke(stroke.points)) else { return 0 }
            }
        }
    }

    /// Says which device is read, once it is open and its clock set.
    private func announce(_ device: EvdevDevice) {
        printError("gestures \(commandName): reading \(device.path) (\(device.description.name)).")
    }
}
