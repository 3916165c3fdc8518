import TouchInput

/// Everything `gestures doctor` looks at, behind one seam: files and their
/// owners and modes (/dev, /sys, /etc, the user's folders), the user, the
/// environment of the session, the running processes, a few commands
/// (`systemctl --user`, `journalctl --user`) and the input devices.
///
/// ``HostSystem`` is the machine itself (optionally under another root
/// folder); tests give ``Doctor`` a made-up system for each case (no
/// permission, a group added but not active, uinput missing, the service
/// failed, fusuma running...). Paths are always absolute paths of the
/// system described (`/dev/input/event5`), whatever the implementation
/// maps them to.
public protocol DoctorSystem {
    /// The environment of the session (`XDG_CURRENT_DESKTOP`, `HOME`, ...).
    var environment: [String: String] { get }
    /// Who asks.
    var user: DoctorUser { get }
    /// The owner, group, mode and type of the file at `path`, or nil when there is none.
    func status(of path: String) -> DoctorFileStatus?
    /// The text of the (small) file at `path`, or nil when it cannot be read.
    /// Only regular files are read: a FIFO or a device is never waited on.
    func text(of path: String) -> String?
    /// Why the file at `path` cannot be read (`is a pipe (FIFO), not a
    /// regular file`), or nil when it can or the system does not say.
    func problem(reading path: String) -> String?
    /// The names in the directory at `path`, or nil when it cannot be listed.
    func names(in directory: String) -> [String]?
    /// The processes running now.
    func processes() -> [DoctorProcess]
    /// Opens the input node `path` for reading, as the daemon would, and describes it.
    func probe(_ path: String) -> DoctorDeviceProbe
    /// Whether the node at `path` can be opened for writing (`/dev/uinput`).
    func canWrite(_ path: String) -> Bool
    /// Runs a program (looked up in `PATH`) with a short time limit; nil
    /// when it cannot be run (not installed, no user session).
    func run(_ arguments: [String]) -> DoctorCommandResult?
}

extension DoctorSystem {
    /// No reason given.
    public func problem(reading path: String) -> String? { nil }
}

/// The user who runs the doctor.
public struct DoctorUser: Hashable, Sendable {
    /// The login name.
    public var name: String
    /// The user id.
    public var uid: UInt32
    /// The groups this process has now (the login session's): the primary
    /// group and the supplementary ones. A group added since the login is
    /// in `/etc/group` but not here.
    public var activeGroupIDs: Set<UInt32>

    /// A user.
    public init(name: String, uid: UInt32, activeGroupIDs: Set<UInt32>) {
        self.name = name
        self.uid = uid
        self.activeGroupIDs = activeGroupIDs
    }
}

/// What `stat` says of a file.
public struct DoctorFileStatus: Hashable, Sendable {
    /// The kind of file.
    public enum Kind: String, Hashable, Sendable {
        case regular, directory, characterDevice, symbolicLink, other
    }

    /// The kind of file.
    public var kind: Kind
    /// The owner's user id.
    public var uid: UInt32
    /// The group id.
    public var gid: UInt32
    /// The permission bits (`0o640`).
    public var mode: UInt32

    /// A status.
    public init(kind: Kind, uid: UInt32 = 0, gid: UInt32 = 0, mode: UInt32) {
        self.kind = kind
        self.uid = uid
        self.gid = gid
        self.mode = mode
    }

    /// The mode as `ls -l` shows the permission digits: `0640`.
    public var modeText: String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// A running process.
public struct DoctorProcess: Hashable, Sendable {
    /// Its id.
    public var pid: Int32
    /// Its command line, word by word (`[ruby, /usr/bin/fusuma, -d]`).
    public var arguments: [String]

    /// A process.
    public init(pid: Int32, arguments: [String]) {
        self.pid = pid
        self.arguments = arguments
    }
}

/// What opening an input node for reading gave.
public enum DoctorDeviceProbe: Hashable, Sendable {
    /// It opened: what the kernel says of it.
    case opened(DeviceDescription)
    /// The user may not read it.
    case denied
    /// It could not be opened for another reason (the sentence says which).
    case failed(String)
}

/// What a command printed and how it ended.
public struct DoctorCommandResult: Hashable, Sendable {
    /// Its exit status.
    public var status: Int32
    /// What it wrote on standard output.
    public var output: String

    /// A result.
    public init(status: Int32, output: String) {
        self.status = status
        self.output = output
    }
}
