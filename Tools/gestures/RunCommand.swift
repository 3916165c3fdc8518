import CommandLineKit
import DesktopDaemon
import Foundation

/// `gestures run`: the desktop daemon.
enum RunCommand: Command {
    static let name = "run"
    static let abstract = "Run the desktop daemon: recognise gestures and run the bound commands."
    static let discussion = """
        The configuration defaults to $XDG_CONFIG_HOME/gestures/config.json (or
        config.yaml); it is checked first, and reloaded on SIGHUP or when the
        file changes (a bad new file keeps the old configuration and logs why).
        Without --replay, it reads every touchpad and touchscreen the
        configuration's devices accept, and those plugged in later (or only
        --device D), until Ctrl-C or SIGTERM. It takes each device from the
        desktop (a grab and a virtual clone the desktop reads instead), so that
        claimed gestures and drawn mouse strokes never reach it; --no-intercept
        (or `intercept: false` in the file) reads beside the desktop instead.
        With --replay, the recordings are replayed through the gesture engine
        instead of live devices, and the daemon exits when their actions have
        finished; `--replay -` reads recording paths from standard input, one per
        line, until end of file. Recordings go after --replay (--replay a.jsonl
        b.jsonl), in the formats replay reads; one that cannot be read is
        reported and the others are still replayed. The log (stderr) has one line
        per fired action and failure. The exit status is 1 when a recording could
        not be replayed or a command it ran failed.
        """

    static let device = Option("--device", valueName: "D", .text, help: "Read only this device (node, eventN, or part of device names).")
    static let replay = Option(
        "--replay", valueName: "TRACE", .file,
        help: "Replay these recordings instead of reading devices ('-': paths on stdin)."
    ).repeated()
    static let noIntercept = Flag(
        "--no-intercept",
        help: "Read devices beside the desktop: it sees every gesture too (as `intercept: false`).")
    static let focus = Option(
        "--focus", valueName: "FILE", .file,
        help: "With --replay: the focused window over time (JSON Lines, as `gestures focus --format json` prints).")
    static let socket = Option(
        "--socket", valueName: "PATH",
        .text,
        help: "Offer the daemon's local interface here (default live: $XDG_RUNTIME_DIR/gestures/daemon.socket; replays: none).")
    static let realTime = Flag("--real-time", help: "Replay each recording at the pace it was recorded (a replay only).")
    static let explain = Flag("--explain", help: "Print, for each gesture, every binding of its kind and why it fired or not (stdout).")
    static let format = OutputFormat.option(default: .text, help: "With --explain: a readable block or one JSON object per gesture.")
        .requiring("--explain")

    static var options: [OptionSpec] {
        [
            ConfigurationFile.option.spec, device.spec, InputDevices.directoryOption.spec, replay.spec, focus.spec, noIntercept.spec,
            explain.spec, format.spec, socket.spec, realTime.spec,
        ]
    }
    static let arguments = [ArgumentSpec("TRACE", count: .any, kind: .file, help: "With --replay: more recordings to replay.")]
    static var usage: String {
        usageText(options: [ConfigurationFile.option.spec, device.spec, InputDevices.directoryOption.spec, noIntercept.spec])
            + "\n" + usageText(options: [ConfigurationFile.option.spec]) + " --replay TRACE [TRACE...]"
            + "\n" + usageText(options: [ConfigurationFile.option.spec]) + " --replay -"
    }

    /// The daemon's configuration file and input.
    struct Options {
        var configurationPath: String?
        var device: String?
        var directory: String
        var traces: [String]
        var intercepts: Bool
        /// `--explain`, in this format; nil explains nothing.
        var explain: OutputFormat?
        /// `--focus`: the recorded focus file for a replay.
        var focus: String?
        /// `--socket`: where the daemon's local interface listens; nil: the default for a live run, none for a replay.
        var socket: String?
        /// `--real-time`: a replay at its recorded pace.
        var realTime: Bool = false
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        let traces = arguments[replay] + arguments.positionals
        if arguments[replay].isEmpty && !arguments.positionals.isEmpty {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'; recordings to replay go after --replay")
        }
        if traces.contains("-") && traces.count > 1 { throw UsageError("--replay - cannot be combined with trace files") }
        if traces.isEmpty && arguments[focus] != nil {
            throw UsageError("--focus gives a replay its focused windows; it needs --replay")
        }
        if !traces.isEmpty && arguments[device] != nil {
            throw UsageError("--device reads live input; it cannot be combined with --replay")
        }
        if traces.isEmpty && arguments[realTime] {
            throw UsageError("--real-time sets the pace of a replay; it needs --replay")
        }
        return Options(
            configurationPath: arguments[ConfigurationFile.option], device: arguments[device],
            directory: arguments[InputDevices.directoryOption], traces: traces, intercepts: !arguments[noIntercept],
            explain: arguments[explain] ? arguments[format] : nil, focus: arguments[focus], socket: arguments[socket],
            realTime: arguments[realTime])
    }

    /// A replay's focus source: the recorded file of `--focus` at `path`, or
    /// none, with the log line to write (`run --replay` and `replay --explain`).
    static func replayFocus(_ path: String?, configuration: DaemonConfiguration) throws -> ((any FocusSource)?, String?) {
        if let path {
            do { return (try RecordedFocus.load(contentsOf: path), "focus: recorded, from \(path)") } catch {
                throw CommandFailure(error.description)
            }
        }
        return (
            nil,
            configuration.namesApplications ? "focus: none in a replay without --focus, so bindings with apps or title never apply" : nil
        )
    }

    /// The focus source: the recorded file of `--focus` for a replay, none
    /// for a replay without it, else the session's (``SessionFocus``),
    /// which connects in the background once a binding needs it and logs
    /// what it connected to or why it could not. With the log line to
    /// write for a replay.
    static func focusSource(_ options: Options, configuration: DaemonConfiguration) throws -> ((any FocusSource)?, String?) {
        guard options.focus == nil, options.traces.isEmpty else { return try replayFocus(options.focus, configuration: configuration) }
        return (SessionFocus(session: FocusSession.choose(ProcessInfo.processInfo.environment), log: DaemonLog.standardError), nil)
    }

    /// The daemon's local interface (``DaemonChannel``), listening: at
    /// `--socket`, else for a live run at the default path; nil for a replay
    /// without `--socket`, and when it cannot listen (the log says why: the
    /// daemon runs without it).
    static func channel(_ options: Options, daemon: GestureDaemon, watcher: ConfigurationWatcher) -> DaemonChannel? {
        guard let path = options.socket ?? (options.traces.isEmpty ? DaemonChannel.defaultPath() : nil) else { return nil }
        do {
            let requests = ChannelRequests(daemon: daemon, reload: { watcher.reloadNow(reason: "asked on the socket") })
            let channel = try DaemonChannel(
                path: path, watchers: daemon.watchers, hello: { daemon.hello }, request: requests.take, closed: requests.closed)
            channel.start()
            daemon.log.write("listening on \(path) (gestures ui watches the daemon there)")
            return channel
        } catch {
            daemon.log.write("warning: not offering the daemon's interface: \(error.description)")
            return nil
        }
    }

    /// Prints each explanation worth showing on standard output, unbuffered, in `format`.
    static func explainer(_ format: OutputFormat) -> @Sendable (GestureExplanation) -> Void {
        { explanation in
            guard explanation.isWorthShowing else { return }
            let text = format == .json ? explanation.jsonLine : explanation.text
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }
    }

    static func run(_ options: Options) throws -> Int32 {
        let path = try ConfigurationFile.path(options.configurationPath)
        let configuration = try ConfigurationFile.load(path, options: Self.options)
        var replayFailures = 0
        let traces = options.traces
        let (focus, focusNote) = try Self.focusSource(options, configuration: configuration)
        defer { (focus as? SessionFocus)?.stop() }
        let daemon = GestureDaemon(
            configuration: configuration, explain: options.explain.map(Self.explainer), configurationPath: path,
            focus: focus)
        if let focusNote { daemon.log.write(focusNote) }
        let watcher = ConfigurationWatcher(daemon: daemon, path: path)
        watcher.start()
        defer { watcher.stop() }
        let channel = Self.channel(options, daemon: daemon, watcher: watcher)
        defer { channel?.stop() }
        daemon.log.write("running with \(path): \(configuration.bindings.count) binding\(configuration.bindings.count == 1 ? "" : "s")")
        for ignored in options.configurationPath == nil ? ConfigurationFile.ignoredDefaultPaths : [] {
            daemon.log.write("warning: \(path): \(ignored) is there too and ignored: keep one file")
        }
        daemon.logWarnings(configuration, path: path)
        do {
            if options.traces.isEmpty {
                let stopper = LiveSource.Stopper()
                let stop = StopSignals { stopper.stop() }
                defer { stop.cancel() }
                try daemon.run(
                    LiveSource(
                        selection: WatchCommand.selection(options.device, directory: options.directory),
                        directory: options.directory, stopper: stopper, intercepts: options.intercepts))
            } else {
                // Every path, from the arguments or standard input, is checked the same way before it is read.
                let check: @Sendable (String) -> String? = { path in
                    FileArgument.problem(path, as: .recording, options: Self.options).map {
                        CommandLineTool.sentence(for: CommandFailure($0))
                    }
                }
                try daemon.run(
                    ReplaySource(traces == ["-"] ? .standardInput : .files(traces), check: check, realTime: options.realTime))
            }
        } catch let failure as ReplaySource.Failure {
            replayFailures += failure.count
        } catch {
            throw CommandFailure(CommandLineTool.sentence(for: error))
        }
        if !options.traces.isEmpty {
            // The recordings' devices are known now: a binding filtered to none of them never fired.
            daemon.logDeviceWarnings()
        }
        let counts = daemon.runner.counts
        daemon.log.write("done: \(counted(counts.finished, "command")) run, \(counts.failed) failed, \(counts.dropped) dropped")
        // A replay is a test run: any failure fails it. A live daemon stopped by a signal has done its job.
        guard !options.traces.isEmpty else { return 0 }
        return replayFailures > 0 || counts.failed > 0 ? 1 : 0
    }
}
