import Foundation

/// Decides reloads of one configuration file: reads it again, and says
/// whether to use the new configuration or keep the old one (and why).
/// It never changes the daemon itself; ``GestureDaemon/reload(_:reason:)``
/// applies its verdict.
public struct ConfigurationReloader: Sendable {
    /// What a reload found.
    public enum Outcome: Sendable {
        /// The file is valid: use this configuration.
        case reloaded(DaemonConfiguration)
        /// The file is not valid: keep the old configuration; these are the errors.
        case kept(ConfigurationErrors)
    }

    /// The file.
    public let path: String
    /// The file's stamp when it was last read, to notice changes.
    public private(set) var stamp: FileStamp
    private let load: @Sendable (String) throws(ConfigurationErrors) -> DaemonConfiguration

    /// A reloader for `path`, whose current contents are taken as already
    /// read; `load` reads and checks a file (a seam for tests).
    public init(path: String, load: @escaping @Sendable (String) throws(ConfigurationErrors) -> DaemonConfiguration = {
        (path: String) throws(ConfigurationErrors) in try DaemonConfiguration.load(contentsOf: path)
    }) {
        self.path = path
        self.load = load
        self.stamp = FileStamp(path: path)
    }

    /// Reads the file now.
    public mutating func reload() -> Outcome {
        stamp = FileStamp(path: path)
        do throws(ConfigurationErrors) {
            return .reloaded(try load(path))
        } catch {
            return .kept(error)
        }
    }

    /// Whether the file changed (written, replaced, created or removed)
    /// since it was last read.
    public func fileChanged() -> Bool {
        FileStamp(path: path) != stamp
    }
}

/// What identifies one version of a file without reading it: its inode,
/// size and modification time, or that it is missing.
public struct FileStamp: Hashable, Sendable {
    /// The inode, size and modification time in nanoseconds; nil when missing.
    public var facts: [Int64]?

    /// The stamp of `path` now. The corresponding C function is `stat`.
    public init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { facts = nil; return }
        facts = [Int64(info.st_ino), Int64(info.st_size),
                 Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)]
    }
}

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
