/// Starts one command in its own process group, without a shell, and
/// reports how it ended; the seam between ``ActionRunner`` and the system.
public protocol ProcessLauncher: Sendable {
    /// Starts `command` with `environment` added to the daemon's own, kills
    /// its whole process group after `timeout`, and calls `completion` once
    /// (on any thread) with how it ended. Must not block.
    func launch(
        _ command: [String], environment: [String: String], timeout: Duration,
        completion: @escaping @Sendable (CommandOutcome) -> Void)
}
