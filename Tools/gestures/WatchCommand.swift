import EvdevInput
import Foundation
import GestureRecognition
import GestureTraces

/// `gestures watch`: prints live gestures from touchpads and touchscreens in
/// the `gestures replay` contract, one line each, as they happen.
enum WatchCommand: Subcommand {
    static let name = "watch"
    static let abstract = "Print live touchpad and touchscreen gestures as replay does, until Ctrl-C."
    static let usage = "[--device D] [--ends] [--format json|text] [--library LIB.json] [--sequences SEQ.json] [--config CONFIG.json]"
    static let discussion = """
        Reads every touchpad and touchscreen, and those plugged in later, or only D (a node such as
        /dev/input/event5 or event5, or part of device names). Each gesture prints one line, flushed
        at once: the same JSON object as `gestures replay` (or a readable line with --format text),
        with time_ms counted from the start of watch. Lost events (SYN_DROPPED) or a device going
        away end the gesture in progress cancelled; watch keeps running. Ctrl-C or SIGTERM end it
        cleanly: a gesture in progress ends cancelled. Device notes go to stderr.
        """
    static let options: [OptionSpec] = [
        .option("--device", "D", "Read only this device (node, eventN, or part of device names)."),
        .flag("--ends", "Print only completed gestures (ends and single events)."),
        .option("--format", "json|text", "JSON Lines (default) or a readable line per gesture."),
        .option("--library", "LIB.json", "Templates for drawn strokes (default: the bundled 16 shapes)."),
        .option("--sequences", "SEQ.json", "Swipe sequences, as for replay."),
        .option("--config", "CONFIG.json", "Engine thresholds (GestureEngine.Configuration as JSON)."),
        .option("--dir", "DIR", "The directory of event nodes (default /dev/input)."),
    ]

    /// The selection `--device` names: a node (a path or eventN), else part of device names.
    static func selection(_ choice: String?, directory: String) -> LiveGestures.Selection {
        guard let choice else { return .touchDevices }
        if choice.hasPrefix("/") { return .node(choice) }
        if choice.hasPrefix("event"), Int(choice.dropFirst(5)) != nil { return .node(directory + "/" + choice) }
        return .named(choice)
    }

    static func run(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.isEmpty else { throw UsageError("unexpected argument '\(arguments.positionals[0])'") }
        let text = try arguments.value("--format", default: false, "json or text") { $0 == "text" ? true : $0 == "json" ? false : nil }
        let endsOnly = arguments.flag("--ends")
        let setup = LiveGestures.Setup(configuration: try engineConfiguration(arguments),
                                       templates: try loadLibrary(arguments.value("--library") ?? "default"))
        let directory = arguments.value("--dir") ?? InputDevices.defaultDirectory
        let selection = selection(arguments.value("--device"), directory: directory)
        let live: LiveGestures
        do { live = try LiveGestures(selection: selection, directory: directory, setup: { _ in setup }) } catch {
            throw CommandFailure(error.description)
        }
        let stop = StopSignals(waker: live.waker)
        defer { stop.cancel() }
        if live.devices.isEmpty { printError("gestures watch: no touchpad or touchscreen yet; waiting for one.") }
        var status: Int32 = 0
        do {
            try live.run { output in
                switch output {
                case .opened(let device):
                    printError("gestures watch: reading \(device.node) (\(device.description.name), \(device.description.kind)).")
                case .gesture(let event, _):
                    if !endsOnly || event.isCompletion {
                        FileHandle.standardOutput.write(Data(((text ? event.description : event.jsonLine) + "\n").utf8))
                    }
                case .removed(let device, let error):
                    printError("gestures watch: \(error.description)")
                    if case .node = selection {
                        status = 1
                        _ = device
                        return false
                    }
                }
                return true
            }
        } catch {
            throw CommandFailure(error.description)
        }
        return status
    }
}
