import Foundation

// gestures-vm-suite: the real-kernel checks (VMSuite). Tools/vm-test builds
// it, copies it into a VM beside the release `gestures` and runs it there as
// root; it is part of no product. Its arguments are few, so it reads them
// itself.

let usage = """
    USAGE: gestures-vm-suite [--only TEXT]
             Run the checks (inside Tools/vm-test's VM, as root), or only those
             whose name contains TEXT.
           gestures-vm-suite --list-traces
             Print the names of the synthetic traces the checks play.
           gestures-vm-suite as-user UID GID PROGRAM [ARGUMENT...]
             Run PROGRAM as user UID and group GID (the checks use it; needs root).
           gestures-vm-suite hold-grab NODE
             Grab NODE (EVIOCGRAB), say "grabbed", and wait to be killed.

    """

/// Prints `message` after the program's name on standard error and exits with `status`.
func exit(saying message: String, status: Int32) -> Never {
    printError("gestures-vm-suite: \(message)")
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case nil:
    exit(VMSuite.runAll(filter: nil))
case "--only" where arguments.count == 2:
    exit(VMSuite.runAll(filter: arguments[1]))
case "--list-traces" where arguments.count == 1:
    print(VMSuite.liveTraceFiles.joined(separator: "\n"))
case "as-user":
    AsUser.run(Array(arguments.dropFirst()))
case "hold-grab" where arguments.count == 2:
    VMSuite.holdGrab(arguments[1])
case "--help", "-h":
    print(usage, terminator: "")
default:
    exit(saying: "unexpected arguments '\(arguments.joined(separator: " "))'; see --help.", status: 64)
}
