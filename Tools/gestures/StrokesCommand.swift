import EvdevInput
import Foundation
import GestureRecognition

/// `gestures strokes`: mouse gestures. While a button is held (the right one by
/// default), pointer motion draws a stroke; on release it is recognised.
enum StrokesCommand: Subcommand {
    static let name = "strokes"
    static let abstract = "Recognise shapes drawn with a mouse while a button is held (mouse gestures)."
    static let usage = "[--device D] [--button right|middle|left] [--library LIB.json] [--count N] [--format text|json]"
    static let discussion = """
        Reads the chosen mouse (by default every mouse, including ones plugged in later) until Ctrl-C.
        Each stroke drawn with the button held prints one line: the template and score, or 'no match'.
        A press that barely moves is a click and prints nothing. A stroke interrupted by lost events or
        by the device going away prints 'cancelled'; the program keeps running. A stroke is reported
        100 ms after the release, because unplugging a mouse also releases its buttons.
        """
    static let options: [OptionSpec] = [
        .option("--device", "D", "The mouse to read (node, eventN, or part of its name); default: all mice."),
        .option("--button", "NAME", "The button that draws: right (default), middle or left."),
        .option("--library", "LIB.json", "The templates (default: the bundled 16 shapes of the $1 study)."),
        .option("--count", "N", "Stop after N strokes."),
        .option("--format", "text|json", "Output format (default text)."),
        .option("--dir", "DIR", "The directory of event nodes (default /dev/input)."),
    ]

    /// How long a device must outlive a button release for the stroke to count.
    static let unplugGrace: Duration = .milliseconds(100)

    static let buttons: [String: UInt16] = ["right": EvdevEvent.btnRight, "middle": EvdevEvent.btnMiddle, "left": EvdevEvent.btnLeft]

    static func run(_ arguments: Arguments) throws -> Int32 {
        let button = try arguments.value("--button", default: EvdevEvent.btnRight, "right, middle or left") { buttons[$0] }
        let count = try arguments.value("--count", default: Int.max, "a positive number") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        let json = try arguments.value("--format", default: false, "text or json") { $0 == "json" ? true : $0 == "text" ? false : nil }
        let recognizer = UnistrokeRecognizer(library: try loadLibrary(arguments.value("--library") ?? "default"))
        let directory = arguments.value("--dir") ?? InputDevices.defaultDirectory

        var devices: [EvdevDevice]
        let followAllMice = arguments.value("--device") == nil
        if let choice = arguments.value("--device") {
            devices = [try InputDevices.choose(choice, in: directory)]
        } else {
            let (all, errors) = InputDevices.openAll(in: directory)
            devices = all.filter { $0.info.kind == .mouse }
            if devices.isEmpty, let denied = errors.first(where: { if case .permissionDenied = $0 { true } else { false } }) {
                throw CommandFailure(denied.description)
            }
            if devices.isEmpty { printError("gestures strokes: no mouse yet; waiting for one to be plugged in.") }
        }
        let reader: EvdevReader
        do {
            reader = try EvdevReader(devices: devices)
            if followAllMice { try reader.watchForNewDevices(in: directory) }
        } catch { throw CommandFailure(error.description) }
        let stop = StopSignals(waker: reader.waker)
        defer { stop.cancel() }

        var trackers: [ObjectIdentifier: MouseStrokeTracker] = [:]
        // On unplug the kernel releases held buttons before the device goes away, so a
        // release is only trusted once the device outlives it by `unplugGrace`.
        var pending: [ObjectIdentifier: (points: [Point], due: ContinuousClock.Instant)] = [:]
        var strokes = 0
        var lastLossWarning: ContinuousClock.Instant?
        func emit(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        func cancelled(_ why: String) { emit(json ? "{\"cancelled\":true,\"reason\":\(jsonString(why))}" : "cancelled (\(why))") }
        func recognise(_ points: [Point]) {
            strokes += 1
            switch recognizer.recognize(points) {
            case .match(let match):
                emit(json ? "{\"template\":\(jsonString(match.name)),\"score\":\(rounded(match.score)),\"points\":\(points.count)}"
                          : "\(match.name) (score \(rounded(match.score)))")
            case .noMatch(let best):
                emit(json ? "{\"template\":null\(best.map { ",\"best\":\(jsonString($0.name)),\"score\":\(rounded($0.score))" } ?? ""),\"points\":\(points.count)}"
                          : "no match\(best.map { " (best \($0.name), score \(rounded($0.score)))" } ?? "")")
            case .degenerate(let reason):
                emit(json ? "{\"template\":null,\"error\":\(jsonString(reason.description))}" : "not recognised: \(reason)")
            }
        }

        while strokes < count {
            let clock = ContinuousClock()
            let timeout = pending.values.map(\.due).min().map { max(.zero, $0 - clock.now) }
            let batch: EvdevReader.Batch
            do { batch = try reader.wait(timeout: timeout) } catch { throw CommandFailure(error.description) }
            if batch.woken { break }
            for (device, output) in batch.outputs {
                let id = ObjectIdentifier(device)
                var tracker = trackers[id] ?? MouseStrokeTracker(button: button)
                defer { trackers[id] = tracker }
                switch output {
                case .added:
                    if device.info.kind != .mouse { reader.remove(device) }
                case .removed(let error):
                    if tracker.cancel() != nil || pending.removeValue(forKey: id) != nil { cancelled("the device is gone") }
                    printError("gestures strokes: \(error.description)")
                    // Following every mouse, keep running for the others and for new ones.
                    guard followAllMice else { return 1 }
                case .resynced(let frame):
                    if tracker.cancel() != nil { cancelled("events were lost") }
                    _ = tracker.process(frame)
                    // Rate-limited: a reader that keeps falling behind warns once per 10 s.
                    let now = clock.now
                    if lastLossWarning.map({ now - $0 > .seconds(10) }) ?? true {
                        lastLossWarning = now
                        printError("gestures strokes: the kernel dropped events (this program fell behind); the stroke in progress was cancelled.")
                    }
                case .frame(let frame):
                    if case .ended(let points)? = tracker.process(frame) {
                        pending[id] = (points, clock.now + unplugGrace)
                    }
                }
            }
            for (id, stroke) in pending where stroke.due <= clock.now && strokes < count {
                pending[id] = nil
                recognise(stroke.points)
            }
        }
        return 0
    }
}
