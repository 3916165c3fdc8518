import Foundation

/// Reloads the daemon on SIGHUP and when the configuration file changes
/// (its stamp is polled every second, which also sees editors that replace
/// the file), on one serial queue.
public final class ConfigurationWatcher: @unchecked Sendable {
    // `reloader`, `signalSource` and `timer` are touched only on `queue`.
    private let queue = DispatchQueue(label: "gestures.configuration-watcher")
    private var reloader: ConfigurationReloader
    private var signalSource: (any DispatchSourceSignal)?
    private var timer: (any DispatchSourceTimer)?
    private let daemon: GestureDaemon

    /// How often the file's stamp is checked: 1 s.
    public static let pollInterval: Duration = .seconds(1)

    /// A watcher reloading `daemon` from `path`.
    public init(daemon: GestureDaemon, path: String) {
        self.daemon = daemon
        self.reloader = ConfigurationReloader(path: path)
    }

    /// Starts watching: SIGHUP is taken from its default action (ending the
    /// process) and handled here. The corresponding C function is `signal`.
    public func start() {
        signal(SIGHUP, SIG_IGN)
        queue.sync {
            let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
            source.setEventHandler { [self] in daemon.reload(&reloader, reason: "SIGHUP") }
            source.resume()
            signalSource = source
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1))
            timer.setEventHandler { [self] in
                if reloader.fileChanged() { daemon.reload(&reloader, reason: "the file changed") }
            }
            timer.resume()
            self.timer = timer
        }
    }

    /// Reloads now, on the watcher's queue (a watcher asked for it on the
    /// daemon's socket: `{"request":"reload"}`), saying `reason` in the log.
    public func reloadNow(reason: String) {
        queue.async { [self] in daemon.reload(&reloader, reason: reason) }
    }

    /// Stops watching.
    public func stop() {
        queue.sync {
            signalSource?.cancel()
            timer?.cancel()
            signalSource = nil
            timer = nil
        }
    }
}
