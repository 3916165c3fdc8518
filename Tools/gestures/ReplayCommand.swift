import CommandLineKit
import Foundation
import GestureRecognition
import GestureTraces

/// `gestures replay`: runs recorded traces through the gesture engine and
/// prints the gestures, or plays one into virtual devices (`--uinput`).
enum ReplayCommand: Command {
    static let name = "replay"
    static let abstract = "Run the gesture engine over recorded traces and print the gestures."
    static var usage: String {
        usageText(options: [ends.spec, format.spec] + EngineOptions.options, arguments: [ArgumentSpec("FILE", count: .oneOrMore)])
            + "\n--uinput FILE " + usageText(options: [speed.spec, wait.spec, linger.spec])
    }
    static let discussion = """
    FILE is a trace in our JSON format, a `libinput record` YAML file or an
    evemu recording (a .events file finds its .desc beside it), detected from
    the content. One JSON object per line per gesture: type, phase, time_ms,
    fingers, and on ends cancelled, direction, dx_mm, dy_mm, edge, scale,
    angle_degrees, template, score, name where they apply.

    The engine's thresholds, swipe sequences and stroke templates come from
    the configuration file (the daemon's: its engine, sequences and templates
    sections, checked as check-config does), the one given with --config or
    else the default one when it exists; --no-config ignores it.

    With --uinput, FILE (any of those formats, e.g. made by 'gestures record')
    is played into new virtual devices with its original timing instead, like
    evemu-play and libinput replay; the nodes are printed on stderr. Needs write access to
    /dev/uinput; Ctrl-C or SIGTERM stops it and removes the device.
    """

    static let ends = Flag("--ends", help: "Print only completed gestures (ends and single events).")
    static let format = OutputFormat.option(default: .json, help: "JSON Lines or a readable line per gesture.")
    static let uinput = Option("--uinput", valueName: "FILE", .file, help: "Play the recording into a virtual device instead (see above).")
    static let speed = Option("--speed", valueName: "X", .number(above: 0), default: 1, help: "With --uinput: play X times faster.")
    static let wait = Option("--wait", valueName: "MS", .integer(in: 0...), default: 500,
                             help: "With --uinput: wait MS ms after creating the device, so readers can open it.")
    static let linger = Option("--linger", valueName: "MS", .integer(in: 0...), default: 500,
                               help: "With --uinput: keep the device MS ms after the last frame.")

    static var options: [OptionSpec] {
        [ends.spec, format.spec] + EngineOptions.options + [uinput.spec, speed.spec, wait.spec, linger.spec]
    }
    static let arguments = [ArgumentSpec("FILE", count: .any, kind: .file, help: "A recording: JSON trace, libinput record YAML or evemu.")]

    /// What to do.
    enum Options {
        /// Print the gestures of these traces.
        case gestures(traces: [String], endsOnly: Bool, format: OutputFormat, engine: EngineOptions)
        /// Play one recording into virtual devices.
        case uinput(UinputReplay.Options)
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        if let path = arguments[uinput] {
            guard arguments.positionals.isEmpty else { throw UsageError("--uinput plays one recording; give it as --uinput FILE") }
            return .uinput(UinputReplay.Options(path: path, speed: arguments[speed],
                                                waitMilliseconds: arguments[wait], lingerMilliseconds: arguments[linger]))
        }
        guard !arguments.positionals.isEmpty else { throw UsageError("no trace files given") }
        return .gestures(traces: arguments.positionals, endsOnly: arguments[ends], format: arguments[format],
                         engine: try EngineOptions(arguments))
    }

    static func run(_ options: Options) throws -> Int32 {
        switch options {
        case .uinput(let options):
            return try UinputReplay.run(options)
        case .gestures(let traces, let endsOnly, let format, let engine):
            let setup = try engine.load()
            let replay = GestureReplay(configuration: setup.engine, templates: setup.templates)
            for file in traces {
                let trace: Trace
                do { trace = try Trace.load(contentsOf: URL(fileURLWithPath: file)) } catch {
                    throw CommandFailure(CommandLineTool.sentence(for: error))
                }
                if traces.count > 1 && format == .text { print("# \(file)") }
                for event in replay.gestures(in: trace) where !endsOnly || event.isCompletion {
                    print(format == .text ? event.description : event.jsonLine)
                }
            }
            return 0
        }
    }
}
