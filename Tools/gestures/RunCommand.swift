import CommandLineKit
import Foundation
import DesktopDaemon

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
    With --replay, the traces are replayed through the gesture engine instead
    of live devices, and the daemon exits when their actions have finished;
    `--replay -` reads trace paths from standard input, one per line, until
    end of file. Traces go after --replay, one each. The log (stderr) has one
    line per fired action and failure.
    """

    static let device = Option("--device", valueName: "D", .text, help: "Read only this device (node, eventN, or part of device names).")
    static let replay = Option("--replay", valueName: "TRACE", .file,
                               help: "Replay this trace instead of reading devices ('-': paths on stdin).").repeated()
    static let noIntercept = Flag("--no-intercept",
                                  help: "Read devices beside the desktop: it sees every gesture too (as `intercept: false`).")

    static var options: [OptionSpec] {
        [ConfigurationFile.option.spec, device.spec, InputDevices.directoryOption.spec, replay.spec, noIntercept.spec]
    }

    /// The daemon's configuration file and input.
    struct Options {
        var configurationPath: String?
        var device: String?
        var directory: String
        var traces: [String]
        var intercepts: Bool
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        let traces = arguments[replay]
        if traces.contains("-") && traces.count > 1 { throw UsageError("--replay - cannot be combined with trace files") }
        if !traces.isEmpty && arguments[device] != nil { throw UsageError("--device reads live input; it cannot be combined with --replay") }
        return Options(configurationPath: arguments[ConfigurationFile.option], device: arguments[device],
                       directory: arguments[InputDevices.directoryOption], traces: traces, intercepts: !arguments[noIntercept])
    }

    static func run(_ options: Options) throws -> Int32 {
        let path = try ConfigurationFile.path(options.configurationPath)
        let configuration = try ConfigurationFile.load(path)
        let daemon = GestureDaemon(configuration: configuration)
        let watcher = ConfigurationWatcher(daemon: daemon, path: path)
        watcher.start()
        defer { watcher.stop() }
        daemon.log.write("running with \(path): \(configuration.bindings.count) binding\(configuration.bindings.count == 1 ? "" : "s")")
        do {
            if options.traces.isEmpty {
                let stopper = LiveSource.Stopper()
                let stop = StopSignals { stopper.stop() }
                defer { stop.cancel() }
                try daemon.run(LiveSource(selection: WatchCommand.selection(options.device, directory: options.directory),
                                          directory: options.directory, stopper: stopper, intercepts: options.intercepts))
            } else {
                try daemon.run(ReplaySource(options.traces == ["-"] ? .standardInput : .files(options.traces)))
            }
        } catch {
            throw CommandFailure(CommandLineTool.sentence(for: error))
        }
        let counts = daemon.runner.counts
        daemon.log.write("done: \(counts.finished) command\(counts.finished == 1 ? "" : "s") run, \(counts.failed) failed, \(counts.dropped) dropped")
        return 0
    }
}
