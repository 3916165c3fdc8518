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
    public init(
        path: String,
        load: @escaping @Sendable (String) throws(ConfigurationErrors) -> DaemonConfiguration = {
            (path: String) throws(ConfigurationErrors) in try DaemonConfiguration.load(contentsOf: path)
        }
    ) {
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
