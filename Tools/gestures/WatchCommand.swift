import CommandLineKit
import EvdevInput
import Foundation
import GestureRecognition
import GestureTraces

/// `gestures watch`: prints live gestures from touchpads and touchscreens in
/// the `gestures replay` contract, one line each, as they happen.
enum WatchCommand: Command {
    static let name = "watch"
    static let abstract = "Print live touchpad and touchscreen gestures as replay does, until Ctrl-C."
    static let discussion = """
        Reads every touchpad and touchscreen, and those plugged in later, or only D (a node such as
        /dev/input/event5 or event5, or part of device names). Each gesture prints one line, flushed
        at once: the same JSON object as `gestures replay` (or a readable line with --format text),
        with time_ms counted from the start of watch. Lost events (SYN_DROPPED) or a device going
        away end the gesture in progress cancelled; watch keeps running. Ctrl-C or SIGTERM end it
        cleanly: a gesture in progress ends cancelled. Device notes go to stderr.
        The engine is set up as for replay: from the configuration file (--config, else the default
        one when it exists), with --library and --sequences instead of its templates and sequences.
        """

    static let device = Option("--device", valueName: "D", .text, help: "Read only this device (node, eventN, or part of device names).")
    static let ends = Flag("--ends", help: "Print only completed gestures (ends and single events).")
    static let format = OutputFormat.option(default: .json, help: "JSON Lines or a readable line per gesture.")

    static var options: [OptionSpec] {
        [device.spec, ends.spec, format.spec] + EngineOptions.options + [InputDevices.directoryOption.spec]
    }

    /// What to read and print.
    struct Options {
        var device: String?
        var endsOnly: Bool
        var format: OutputFormat
        var engine: EngineOptions
        var directory: String
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        Options(
            device: arguments[device], endsOnly: arguments[ends], format: arguments[format],
            engine: try EngineOptions(arguments), directory: arguments[InputDevices.directoryOption])
    }

    /// The selection `--device` names: a node (a path or eventN), else part of device names.
    static func selection(_ choice: String?, directory: String) -> LiveGestures.Selection {
        guard let choice else { return .all }
        if choice.hasPrefix("/") { return .node(choice) }
        if choice.hasPrefix("event"), Int(choice.dropFirst(5)) != nil { return .node(directory + "/" + choice) }
        return .named(choice)
    }

    static func run(_ options: Options) throws -> Int32 {
        let engine = try options.engine.load(options: Self.options)
        let setup = LiveGestures.Setup(configuration: engine.engine, templates: engine.templates)
        let selection = selection(options.device, directory: options.directory)
        let live: LiveGestures
        do { live = try LiveGestures(selection: selection, directory: options.directory, setup: { _ in setup }) } catch {
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
                    if !options.endsOnly || event.isCompletion {
                        let line = options.format == .text ? event.description : event.jsonLine
                        FileHandle.standardOutput.write(Data((line + "\n").utf8))
                    }
                case .stroke(let stroke, let device):
                    if let line = stroke.rejectionLine(device: device.description.name) { printError("gestures watch: \(line).") }
                case .handOver, .decision, .frame, .events:
                    break  // watch intercepts nothing, reads no mice and asks for no frames
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
