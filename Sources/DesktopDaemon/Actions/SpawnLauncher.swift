import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Starts commands with `posix_spawnp`: the program is looked up in `PATH`,
/// standard input is `/dev/null`, standard output and error go to the
/// daemon's standard error, signals are reset to their defaults, and the
/// command leads a new process group so that a timeout kills what it started too.
///
/// The corresponding C functions are `posix_spawnp`, `waitid` and `kill`.
public struct SpawnLauncher: ProcessLauncher {
    /// How long after SIGTERM a timed-out command gets SIGKILL: 1 s.
    public static let killGrace: Duration = .seconds(1)

    /// A launcher.
    public init() {}

    /// Starts `command`; see ``ProcessLauncher/launch(_:environment:timeout:completion:)``.
    public func launch(
        _ command: [String], environment: [String: String], timeout: Duration,
        completion: @escaping @Sendable (CommandOutcome) -> Void
    ) {
        let pid: pid_t
        switch Self.spawn(command, environment: environment) {
        case .success(let spawned): pid = spawned
        case .failure(let reason):
            completion(.notStarted(reason))
            return
        }
        let child = Child(pid: pid)
        let nanoseconds =
            Int(min(timeout.components.seconds, 1 << 32)) * 1_000_000_000 + Int(timeout.components.attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            guard child.signal(SIGTERM) else { return }
            let grace = Int(Self.killGrace.components.seconds) * 1_000_000_000
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(grace)) { _ = child.signal(SIGKILL) }
        }
        let thread = Thread {
            // Wait without reaping, so the pid (and its group) cannot be
            // reused while the timeout may still signal it.
            try? waitForChildWithoutReaping(pid)
            let timedOut = child.finish()
            let status = (try? waitForChild(pid)) ?? 0
            if timedOut {
                completion(.timedOut(timeout))
            } else if status & 0x7f == 0 {
                completion(.exited((status >> 8) & 0xff))
            } else {
                completion(.signalled(status & 0x7f))
            }
        }
        thread.start()
    }

    /// A running child: whether it was reaped, and whether the timeout signalled it.
    private final class Child: @unchecked Sendable {
        let pid: pid_t
        private let lock = NSLock()
        private var finished = false
        private var signalled = false

        init(pid: pid_t) { self.pid = pid }

        /// Signals the child's process group unless the child has exited;
        /// returns whether it signalled.
        func signal(_ number: Int32) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard !finished else { return false }
            signalled = true
            kill(-pid, number)
            return true
        }

        /// Marks the child exited; returns whether the timeout had signalled it.
        func finish() -> Bool {
            lock.lock()
            defer { lock.unlock() }
            finished = true
            return signalled
        }
    }

    private enum SpawnResult {
        case success(pid_t)
        case failure(String)
    }

    private static func spawn(_ command: [String], environment: [String: String]) -> SpawnResult {
        guard let program = command.first, !program.isEmpty else { return .failure("the command is empty") }
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let argv = command.map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGCHLD, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid: pid_t = 0
        let result = posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
        guard result == 0 else { return .failure(String(cString: strerror(result))) }
        return .success(pid)
    }
}
