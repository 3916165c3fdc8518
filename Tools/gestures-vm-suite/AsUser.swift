import Foundation

/// `gestures-vm-suite as-user UID GID PROGRAM [ARGUMENT...]`: drops root to
/// the user and group ids, with no supplementary groups, and runs PROGRAM,
/// so a check can see what an unprivileged user sees. Needs root.
enum AsUser {
    /// Switches user and executes the program; returns only by exiting.
    static func run(_ arguments: [String]) -> Never {
        guard arguments.count >= 3, let uid = uid_t(arguments[0]), let gid = gid_t(arguments[1]) else {
            exit(saying: "as-user expects a numeric user id, a numeric group id and a program; see --help.", status: 64)
        }
        // The groups first: once the user id is not root, they can no longer be changed.
        guard setgroups(0, nil) == 0, setgid(gid) == 0, setuid(uid) == 0 else {
            exit(
                saying: "cannot switch to user id \(uid) and group id \(gid): \(String(cString: strerror(errno))); as-user needs root.",
                status: 1)
        }
        let program = arguments[2]
        let argv = arguments.dropFirst(2).map { strdup($0) } + [nil]
        execv(program, argv)
        exit(saying: "cannot run \(program): \(String(cString: strerror(errno))).", status: 1)
    }
}
