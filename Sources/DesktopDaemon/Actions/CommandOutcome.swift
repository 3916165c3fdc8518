/// How a command ended.
public enum CommandOutcome: Hashable, Sendable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// It was ended by this signal (not by the daemon's timeout).
    case signalled(Int32)
    /// It ran past its timeout and the daemon killed it.
    case timedOut(Duration)
    /// It could not be started, for this reason.
    case notStarted(String)

    /// Whether the command ran and exited with status 0.
    public var succeeded: Bool { self == .exited(0) }

    /// `exited with status 1`, `timed out after 10 s and was killed`, ...
    public var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "was ended by signal \(signal)"
        case .timedOut(let timeout): "ran longer than its timeout of \(ActionRunner.seconds(timeout)) s and was killed"
        case .notStarted(let reason): "could not be started: \(reason)"
        }
    }
}
