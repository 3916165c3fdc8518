import CommandLineKit
import DesktopDaemon
import Foundation
import GestureRecognition
import GestureTraces
import InputChecks

/// `gestures replay`: runs recorded traces through the gesture engine and
/// prints the gestures, or plays one into virtual devices (`--uinput`).
enum ReplayCommand: Command {
    static let name = "replay"
    static let abstract = "Run the gesture engine over recorded traces and print the gestures."
    static var usage: String {
        usageText(
            options: [ends.spec, format.spec, explain.spec, focus.spec] + EngineOptions.options + [RecordingFile.descOption.spec],
            arguments: [ArgumentSpec("FILE", count: .oneOrMore)])
            + "\n--uinput FILE " + usageText(options: [speed.spec, wait.spec, linger.spec, RecordingFile.descOption.spec])
    }
    static let discussion = """
        FILE is a trace in our JSON format, a `libinput record` YAML file or an
        evemu recording, detected from the content; evemu events without a device
        description take it from --desc, else from the .desc beside them with the
        longest matching name (Pad.laptop.desc before Pad.desc for
        Pad.laptop.scroll.events). One JSON object per line per gesture: type,
        phase, time_ms, fingers, and on ends cancelled, direction, dx_mm, dy_mm,
        edge, scale, angle_degrees, template, score, name where they apply; with
        more than one FILE, each line starts with "file". A mouse's strokes are
        stroke lines with "source":"mouse" and no fingers; what became of its
        other presses of the stroke button are lines starting with "mouse" (click,
        press, rejected, cancelled), with time_ms, length_counts, held_ms,
        template, score and reason where they apply. A file that cannot be read
        is reported and the others are still replayed; the exit status is 1 if
        any failed. A stroke drawn on a touch surface that fires nothing (too
        short, a drag along one line, no template good enough or two too close:
        the stroke rule of Docs/GestureEngine.md) is one line on stderr with the
        reason, as the daemon logs it; stdout keeps only the gestures.

        With --explain, the configuration's bindings are judged instead, as
        'gestures run --replay FILE --explain' judges them but without running
        anything: for every gesture (begins, ends and single events, and the
        updates at which something fired) and every stroke the stroke rule
        rejected, each binding of its kind and why it would fire or not, and
        whether it would be claimed; the configuration's devices: filter
        applies, as in the daemon, and --focus FILE gives the focused window
        over time for bindings with apps or title (as for 'run --replay'). A readable block per gesture by default,
        one JSON object a line with --format json.

        The engine's thresholds, swipe sequences and stroke templates come from
        the configuration file (the daemon's: its engine, sequences, templates,
        mouse and intercept settings, checked as check-config does), the one
        given with --config or else the default one when it exists; --no-config
        ignores it (mice then draw with the right button, withheld from the
        desktop, as the daemon's `mouse: {}`).

        With --uinput, FILE (any of those formats, e.g. made by 'gestures record')
        is played into new virtual devices with its original timing instead, like
        evemu-play and libinput replay; the nodes are printed on stderr. Needs write access to
        /dev/uinput; Ctrl-C or SIGTERM stops it and removes the device.
        """

    static let ends = Flag("--ends", help: "Print only completed gestures (ends and single events).")
    static let format = OutputFormat.option(
        default: .json, help: "JSON Lines or a readable line per gesture (with --explain: text by default).")
    static let focus = Option(
        "--focus", valueName: "FILE", .file,
        help: "With --explain: the focused window over time (JSON Lines, as `gestures focus --format json` prints).")
    static let explain = Flag(
        "--explain", help: "Judge the configuration's bindings for each gesture, as 'run --explain' does, and run nothing (see below).")
    static let uinput = Option("--uinput", valueName: "FILE", .file, help: "Play the recording into a virtual device instead (see above).")
    static let speed = Option("--speed", valueName: "X", .number(above: 0), default: 1, help: "With --uinput: play X times faster.")
        .requiring("--uinput")
    static let wait = Option(
        "--wait", valueName: "MS", .integer(in: 0...), default: 500,
        help: "With --uinput: wait MS ms after creating the device, so readers can open it."
    ).requiring("--uinput")
    static let linger = Option(
        "--linger", valueName: "MS", .integer(in: 0...), default: 500,
        help: "With --uinput: keep the device MS ms after the last frame."
    ).requiring("--uinput")

    static var options: [OptionSpec] {
        [ends.spec, format.spec, explain.spec, focus.spec] + EngineOptions.options + [
            RecordingFile.descOption.spec, uinput.spec, speed.spec, wait.spec, linger.spec,
        ]
    }
    static let arguments = [ArgumentSpec("FILE", count: .any, kind: .file, help: "A recording: JSON trace, libinput record YAML or evemu.")]

    /// What to do.
    enum Options {
        /// Print the gestures of these traces.
        case gestures(traces: [String], endsOnly: Bool, format: OutputFormat, engine: EngineOptions, description: String?)
        /// Judge a configuration's bindings for the gestures of these traces.
        case explain(traces: [String], format: OutputFormat, engine: EngineOptions, description: String?, focus: String?)
        /// Play one recording into virtual devices.
        case uinput(UinputReplay.Options)
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        if let path = arguments[uinput] {
            guard arguments.positionals.isEmpty else { throw UsageError("--uinput plays one recording; give it as --uinput FILE") }
            return .uinput(
                UinputReplay.Options(
                    path: path, speed: arguments[speed], waitMilliseconds: arguments[wait],
                    lingerMilliseconds: arguments[linger], description: arguments[RecordingFile.descOption]))
        }
        guard !arguments.positionals.isEmpty else { throw UsageError("no trace files given") }
        if arguments[focus] != nil, !arguments[explain] {
            throw UsageError("--focus gives the bindings a focused window; it needs --explain (or use 'run --replay FILE --focus')")
        }
        if arguments[explain] {
            guard !arguments[ends] else { throw UsageError("--explain shows every gesture's verdicts; drop --ends") }
            let engine = try EngineOptions(arguments)
            guard engine.configuration.choice != .none else {
                throw UsageError("--explain judges a configuration's bindings; drop --no-config, or give --config PATH")
            }
            return .explain(
                traces: arguments.positionals, format: arguments.isGiven(format.spec) ? arguments[format] : .text,
                engine: engine, description: arguments[RecordingFile.descOption], focus: arguments[focus])
        }
        return .gestures(
            traces: arguments.positionals, endsOnly: arguments[ends], format: arguments[format],
            engine: try EngineOptions(arguments), description: arguments[RecordingFile.descOption])
    }

    static func run(_ options: Options) throws -> Int32 {
        switch options {
        case .uinput(let options):
            return try UinputReplay.run(options)
        case .explain(let traces, let format, let engine, let description, let focus):
            return try explain(traces, format: format, engine: engine, description: description, focus: focus)
        case .gestures(let traces, let endsOnly, let format, let engine, let description):
            let replay = GestureReplay(setup: try engine.pipelineSetup(options: Self.options))
            try RecordingFile.checkDescription(description)
            if let read = engine.configuration.readPath {
                printError(
                    "gestures replay: the engine's settings, sequences and templates from \(read); its devices: and bindings do not apply"
                        + " here (every device's gestures are printed): --explain judges the bindings")
            }
            guard traces.count > 1 else {
                let trace = try RecordingFile.load(traces[0], description: description, options: Self.options)
                let run = replay.run(trace)
                for output in run.outputs.map(\.value) where !endsOnly || output.isCompletion {
                    print(format == .text ? output.text : output.jsonLine)
                }
                reportRejectedStrokes(run, in: trace, file: traces[0])
                return 0
            }
            var failed = 0
            for file in traces {
                let trace: Trace
                do { trace = try RecordingFile.load(file, description: description, options: Self.options) } catch {
                    printError("gestures replay: \(CommandLineTool.sentence(for: error))")
                    failed += 1
                    continue
                }
                if format == .text { print("# \(file)") }
                let run = replay.run(trace)
                for output in run.outputs.map(\.value) where !endsOnly || output.isCompletion {
                    print(format == .text ? output.text : tagged(output.jsonLine, file: file))
                }
                reportRejectedStrokes(run, in: trace, file: file)
            }
            guard failed == 0 else {
                throw CommandFailure("\(failed) of \(traces.count) files could not be replayed; the others were")
            }
            return 0
        }
    }

    /// `--explain`: the traces through a daemon that runs nothing, its
    /// explanations on stdout and its log (the replayed files, rejected
    /// strokes, warnings) on stderr; status 1 if a trace could not be read.
    static func explain(_ traces: [String], format: OutputFormat, engine: EngineOptions, description: String?, focus focusPath: String?)
        throws -> Int32
    {
        try RecordingFile.checkDescription(description)
        guard let path = engine.configuration.readPath, var configuration = try engine.configuration.load(options: Self.options) else {
            throw CommandFailure(
                "no configuration file to explain: write \(ConfigurationFile.defaultDirectory)/config.yaml, or give --config PATH")
        }
        if let sequences = engine.sequencesPath {
            configuration.engine.sequences = try EngineOptions.loadSequences(sequences, options: Self.options)
        }
        if let library = engine.libraryPath { configuration.templates = try TemplateLibraryFile.load(library, options: Self.options) }
        let (focus, focusNote) = try RunCommand.replayFocus(focusPath, configuration: configuration)
        let daemon = GestureDaemon(
            configuration: configuration, explain: RunCommand.explainer(format), runsActions: false, configurationPath: path,
            focus: focus)
        if let focusNote { daemon.log.write(focusNote) }
        daemon.log.write(
            "explaining \(path): \(configuration.bindings.count) binding\(configuration.bindings.count == 1 ? "" : "s"); nothing runs")
        daemon.logWarnings(configuration, path: path)
        let check: @Sendable (String) -> String? = { path in
            FileArgument.problem(path, as: .recording, options: Self.options).map { CommandLineTool.sentence(for: CommandFailure($0)) }
        }
        var failed = 0
        do { try daemon.run(ReplaySource(.files(traces), check: check, deviceDescription: description)) } catch let failure
            as ReplaySource.Failure
        {
            failed = failure.count
        }
        daemon.logDeviceWarnings()
        return failed > 0 ? 1 : 0
    }

    /// One line on stderr per stroke of `run` that fired nothing, with the
    /// rule that rejected it: `gestures replay: FILE: a stroke on "Atmel" at
    /// 912 ms fired nothing: too close to v: 0.1476 of the 0.2 margin.`
    /// (stderr, so that stdout stays the gestures, as `.expected.jsonl` files hold them).
    static func reportRejectedStrokes(_ run: GestureReplay.Run, in trace: Trace, file: String) {
        for rejected in run.strokes {
            guard let line = rejected.value.rejectionLine(device: trace.devices[rejected.device].name) else { continue }
            printError("gestures replay: \(file): \(line).")
        }
    }

    /// `{"file":"a.jsonl","type":...}`: a replay output line that says which file it came from.
    static func tagged(_ line: String, file: String) -> String {
        guard line.hasPrefix("{") else { return line }
        return "{\"file\":\(JSONText.quoted(file)),\(line.dropFirst())"
    }
}
