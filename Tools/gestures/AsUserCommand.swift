import Foundation

/// `gestures as-user UID -- SUBCOMMAND...` (hidden): drops root to UID and runs
/// a subcommand, so the VM suite can check what an unprivileged user sees.
enum AsUserCommand: Subcommand {
    static let name = "as-user"
    static let abstract = "Run a subcommand as another user id (for tests; needs root)."
    static let usage = "UID -- SUBCOMMAND [OPTIONS]"
    static let options: [OptionSpec] = []

    static func run(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.count >= 2, let uid = UInt32(arguments.positionals[0]) else {
            throw UsageError("expected a numeric user id and a subcommand")
        }
        guard setgroups(0, nil) == 0, setgid(uid) == 0, setuid(uid) == 0 else {
            throw CommandFailure("Cannot switch to user id \(uid): \(String(cString: strerror(errno)))")
        }
        let argv = ["gestures"] + arguments.positionals.dropFirst()
        let cArguments = argv.map { strdup($0) } + [nil]
        execv("/proc/self/exe", cArguments)
        throw CommandFailure("Cannot run /proc/self/exe: \(String(cString: strerror(errno)))")
    }
}
