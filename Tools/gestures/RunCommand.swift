import Foundation
import DesktopDaemon

struct RunCommand: Subcommand {
    static let name = "run"
    static let abstract = "Run the desktop daemon: recognise gestures and run the bound commands."
    static let usage = "[--config PATH] [--device D] [--replay TRACE]..."
    static let discussion = """
    The configuration defaults to $XDG_CONFIG_HOME/gestures/config.json (or
    config.yaml); it is checked first, and reloaded on SIGHUP or when the
    file changes (a bad new file keeps the old configuration and logs why).
    Without --replay, it reads every touchpad and touchscreen the
    configuration's devices accept, and those plugged in later (or only
    --device D), until Ctrl-C or SIGTERM.
    With --replay, the traces are replayed through the gesture engine instead
    of live devices, and the daemon exits when their actions have finished;
    `--replay -` reads trace paths from standard input, one per line, until
    end of file. The log (stderr) has one line per fired action and failure.
    """
    static let options: [OptionSpec] = [
        .option("--config", "PATH", "The configuration file (JSON or YAML)."),
        .option("--device", "D", "Read only this device (node, eventN, or part of device names)."),
        .option("--dir", "DIR", "The directory of event nodes (default /dev/input)."),
        .option("--replay", "TRACE", "Replay this trace instead of reading devices ('-': paths on stdin).", repeatable: true),
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.isEmpty else {
            throw UsageError("unexpected argument '\(arguments.positionals[0])'; traces go after --replay")
        }
        let path = try daemonConfigurationPath(arguments.value("--config"))
        let configuration: DaemonConfiguration
        do { configuration = try DaemonConfiguration.load(contentsOf: path) } catch {
            throw CommandFailure(error.description)
        }
        let traces = arguments.all("--replay")
        if traces.contains("-") && traces.count > 1 { throw UsageError("--replay - cannot be combined with trace files") }
        if !traces.isEmpty && arguments.value("--device") != nil { throw UsageError("--device reads live input; it cannot be combined with --replay") }

        let daemon = GestureDaemon(configuration: configuration)
        let watcher = ConfigurationWatcher(daemon: daemon, path: path)
        watcher.start()
        defer { watcher.stop() }
        daemon.log.write("running with \(path): \(configuration.bindings.count) binding\(configuration.bindings.count == 1 ? "" : "s")")
        do {
            if traces.isEmpty {
                let directory = arguments.value("--dir") ?? InputDevices.defaultDirectory
                let stopper = LiveSource.Stopper()
                let stop = StopSignals { stopper.stop() }
                defer { stop.cancel() }
                try daemon.run(LiveSource(selection: WatchCommand.selection(arguments.value("--device"), directory: directory),
                                          directory: directory, stopper: stopper))
            } else {
                try daemon.run(ReplaySource(traces == ["-"] ? .standardInput : .files(traces)))
            }
        } catch {
            throw CommandFailure(sentence(for: error))
        }
        let counts = daemon.runner.counts
        daemon.log.write("done: \(counts.finished) command\(counts.finished == 1 ? "" : "s") run, \(counts.failed) failed, \(counts.dropped) dropped")
        return 0
    }
}
