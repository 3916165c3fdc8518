import EvdevInput
import Foundation
import GestureTraces

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The machine the doctor runs on, as a ``DoctorSystem``: files through
/// `stat` and `open`, the processes from `/proc`, devices through libevdev,
/// `systemctl` and `journalctl` run for at most ``commandTimeout``.
///
/// With another `root`, every path is read under that folder instead (a
/// copy of a system's /dev, /sys, /etc and home folders); commands are then
/// not run, since they would describe this machine, not that tree.
///
/// The corresponding C functions are `stat`, `lstat`, `access`, `getuid`,
/// `getgroups` and `getpwuid_r`.
public struct HostSystem: DoctorSystem {
    /// The longest a command may take before its answer counts as none: 5 s.
    public static let commandTimeout: Duration = .seconds(5)

    /// The folder paths are read under: `/` for this machine.
    public var root: String
    public var environment: [String: String]
    public var user: DoctorUser

    /// This machine (or the tree under `root`), as this process sees it.
    public init(root: String = "/", environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.root = root
        self.environment = environment
        let uid = getuid()
        var groups = [gid_t](repeating: 0, count: Int(max(0, getgroups(0, nil))))
        let count = getgroups(Int32(groups.count), &groups)
        var active = Set(groups[0..<Int(max(0, count))].map { UInt32($0) })
        active.insert(UInt32(getgid()))
        user = DoctorUser(name: Self.loginName(uid) ?? environment["USER"] ?? String(uid), uid: UInt32(uid), activeGroupIDs: active)
    }

    private func mapped(_ path: String) -> String {
        root == "/" ? path : (root.hasSuffix("/") ? String(root.dropLast()) : root) + path
    }

    public func status(of path: String) -> DoctorFileStatus? {
        var info = stat()
        guard lstat(mapped(path), &info) == 0 else { return nil }
        let kind: DoctorFileStatus.Kind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFCHR: kind = .characterDevice
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        return DoctorFileStatus(kind: kind, uid: UInt32(info.st_uid), gid: UInt32(info.st_gid), mode: UInt32(info.st_mode & 0o7777))
    }

    /// The most bytes read of a file: the configuration's own limit (the
    /// others, /etc/group, udev data, unit files, are small).
    public static let maximumFileBytes = DaemonConfiguration.Limits.maximumFileBytes

    public func text(of path: String) -> String? {
        // Through the one checked opener: a FIFO or a device is refused at once, never waited on.
        guard let data = try? InputFile.read(mapped(path), maximumBytes: Self.maximumFileBytes) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    public func problem(reading path: String) -> String? {
        do { _ = try InputFile.read(mapped(path), maximumBytes: Self.maximumFileBytes) } catch { return error.message }
        return nil
    }

    public func names(in directory: String) -> [String]? {
        try? FileManager.default.contentsOfDirectory(atPath: mapped(directory))
    }

    public func processes() -> [DoctorProcess] {
        (names(in: "/proc") ?? []).compactMap { name -> DoctorProcess? in
            guard let pid = Int32(name), let opened = try? InputFile.open(mapped("/proc/\(name)/cmdline")) else { return nil }
            defer { try? opened.handle.close() }
            let data = (try? opened.handle.read(upToCount: 8192)) ?? Data()
            let words = data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            let arguments = words.last == "" ? Array(words.dropLast()) : words
            return arguments.isEmpty ? nil : DoctorProcess(pid: pid, arguments: arguments)
        }.sorted { $0.pid < $1.pid }
    }

    public func probe(_ path: String) -> DoctorDeviceProbe {
        do {
            return .opened(try EvdevDevice(path: mapped(path)).description)
        } catch {
            if case .permissionDenied = error { return .denied }
            return .failed(error.description)
        }
    }

    public func canWrite(_ path: String) -> Bool {
        access(mapped(path), W_OK) == 0
    }

    public func run(_ arguments: [String]) -> DoctorCommandResult? {
        guard root == "/", let program = arguments.first else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments.dropFirst()
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        do { try process.run() } catch { return nil }
        let done = DispatchSemaphore(value: 0)
        let collected = Collected()
        DispatchQueue.global().async {
            collected.data = output.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        let seconds = Double(Self.commandTimeout.components.seconds)
        if done.wait(timeout: .now() + seconds) == .timedOut {
            process.terminate()
            return nil
        }
        process.waitUntilExit()
        // `env` exits 127 when the program is not installed.
        guard process.terminationStatus != 127 else { return nil }
        return DoctorCommandResult(status: process.terminationStatus, output: String(decoding: collected.data, as: UTF8.self))
    }

    private final class Collected: @unchecked Sendable {
        var data = Data()
    }

    private static func loginName(_ uid: uid_t) -> String? {
        var entry = passwd()
        var buffer = [CChar](repeating: 0, count: 4096)
        var result: UnsafeMutablePointer<passwd>?
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }
}
