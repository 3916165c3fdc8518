import Foundation
import SystemCalls

extension VMSuite {
    /// This program's path, from /proc/self/exe: `as-user` runs it again.
    static let executable: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    }()

    /// The `gestures` program the checks run: the one beside this program,
    /// where Tools/vm-test puts it.
    static let gestures = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("gestures").path

    /// Runs `gestures` with `arguments` (posix_spawn, empty environment); calls
    /// `whileRunning` with its pid, then returns its exit status, stdout and stderr.
    /// (Foundation's Process needs a CFSocket wake-up pair, which failed in the VM.)
    func runGestures(_ arguments: [String], whileRunning: ((pid_t) throws -> Void)? = nil) throws -> (Int32, String, String) {
        try runGestures(arguments, whileRunning: whileRunning.map { callback in { pid, _ in try callback(pid) } })
    }

    /// Runs `gestures` with `arguments`; `whileRunning` gets its pid and
    /// its standard error as it is written.
    func runGestures(_ arguments: [String], whileRunning: ((pid_t, ChildOutput) throws -> Void)?) throws -> (Int32, String, String) {
        try run(VMSuite.gestures, ["gestures"] + arguments, whileRunning: whileRunning)
    }

    /// Runs `gestures` with `arguments` as user and group 65534 (nobody),
    /// through this program's `as-user`.
    func runGesturesAsNobody(_ arguments: [String]) throws -> (Int32, String, String) {
        try runGesturesAs(uid: 65534, gid: 65534, arguments)
    }

    /// Runs `gestures` with `arguments` as `uid` with the one group `gid`, through this program's `as-user`.
    func runGesturesAs(uid: uid_t, gid: gid_t, _ arguments: [String]) throws -> (Int32, String, String) {
        try run(
            VMSuite.executable, ["gestures-vm-suite", "as-user", String(uid), String(gid), VMSuite.gestures] + arguments, whileRunning: nil)
    }

    /// Runs `path` with `argv` (argv[0] included) to its end, killing it after 60 s.
    private func run(_ path: String, _ argv: [String], whileRunning: ((pid_t, ChildOutput) throws -> Void)?) throws -> (
        Int32, String, String
    ) {
        let (pid, outFD, errFD) = try VMSuite.spawn(path, argv)
        var callbackError: (any Error)?
        let childStderr = ChildOutput(fd: errFD)
        do { try whileRunning?(pid, childStderr) } catch { callbackError = error; kill(pid, SIGKILL) }
        // A child that never exits must not hang the suite: after 60 s it is killed
        // and the check fails with its output.
        var status: Int32 = 0
        var exited = false
        for _ in 0..<6000 where !exited {
            exited = waitpid(pid, &status, WNOHANG) == pid
            if !exited { usleep(10_000) }
        }
        if !exited {
            kill(pid, SIGKILL)
            status = (try? waitForChild(pid)) ?? status
            if callbackError == nil { callbackError = CheckFailure("the child did not exit within 60 s") }
        }
        let out = readAll(outFD), err = childStderr.text + readAll(errFD)
        if let callbackError {
            throw CheckFailure("\(callbackError) [child stdout: \(out.debugDescription), stderr: \(err.debugDescription)]")
        }
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, out, err)
    }

    private func readAll(_ fd: Int32) -> String {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = (try? buffer.withUnsafeMutableBytes { bytes in try FileDescriptor(rawValue: fd).read(into: bytes) }) ?? -1
            if count <= 0 { break }
            data += buffer[..<count]
        }
        close(fd)
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts `gestures` with `arguments`, its stdout and stderr on
    /// pipes; returns the pid and the reading ends. (posix_spawn: Foundation's
    /// Process hangs in the VM.)
    static func spawnGestures(_ arguments: [String]) throws -> (pid: pid_t, stdout: Int32, stderr: Int32) {
        try spawn(gestures, ["gestures"] + arguments)
    }

    /// Starts `path` with `argv` (argv[0] included), its stdout and stderr on
    /// pipes and its stdin from the file `stdin` if given; returns the pid
    /// and the reading ends.
    static func spawn(_ path: String, _ arguments: [String], stdin: String? = nil) throws -> (pid: pid_t, stdout: Int32, stderr: Int32) {
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw CheckFailure("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin { posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0) }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, outPipe[0])
        posix_spawn_file_actions_addclose(&actions, errPipe[0])
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let environment: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/bin:/usr/bin"), nil]
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, nil, argv, environment)
        close(outPipe[1])
        close(errPipe[1])
        guard rc == 0 else { close(outPipe[0]); close(errPipe[0]); throw CheckFailure("posix_spawn \(path) failed: \(rc)") }
        return (pid, outPipe[0], errPipe[0])
    }
}

/// A child's output read as it is written, so a check can wait for a line.
final class ChildOutput {
    let fd: Int32
    private(set) var text = ""

    init(fd: Int32) { self.fd = fd }

    /// Reads what is available within `milliseconds`.
    func poll(milliseconds: Int32 = 20) {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&entry, 1, milliseconds) > 0, entry.revents & Int16(POLLIN) != 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &buffer, buffer.count)
        if count > 0 { text += String(decoding: buffer[..<count], as: UTF8.self) }
    }

    func contains(_ needle: String) -> Bool { poll(milliseconds: 0); return text.contains(needle) }

    func count(_ needle: String) -> Int { poll(milliseconds: 0); return text.components(separatedBy: needle).count - 1 }

    /// Waits up to 10 s for `needle` to appear.
    func waitFor(_ needle: String) -> Bool {
        for _ in 0..<500 {
            if text.contains(needle) { return true }
            poll()
        }
        return text.contains(needle)
    }
}

/// A `gestures` child process whose output is collected while it runs:
/// each stdout line with the CLOCK_MONOTONIC time it arrived, and stderr.
/// (posix_spawn: Foundation's Process hangs in the VM.)
final class VMChild: @unchecked Sendable {
    let pid: pid_t
    private let lock = NSLock()
    private var outLines: [(line: String, arrived: Int64)] = []
    private var errText = ""
    private var readers: [Thread] = []
    private let done = DispatchGroup()

    init(_ arguments: [String]) throws {
        let (pid, outFD, errFD) = try VMSuite.spawnGestures(arguments)
        self.pid = pid
        collect(outFD) { [self] text, time in
            lock.lock(); defer { lock.unlock() }
            for line in text { outLines.append((line, time)) }
        }
        collect(errFD) { [self] text, _ in
            lock.lock(); defer { lock.unlock() }
            for line in text { errText += line + "\n" }
        }
    }

    /// Reads `fd` until end of file, handing over whole lines (and a last
    /// partial one) with their arrival time (µs, CLOCK_MONOTONIC); closes it.
    static func readLines(from fd: Int32, _ take: ([String], Int64) -> Void) {
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = (try? buffer.withUnsafeMutableBytes { bytes in try FileDescriptor(rawValue: fd).read(into: bytes) }) ?? -1
            if count <= 0 { break }
            let now = VMSuite.nowMicroseconds()
            pending += buffer[..<count]
            var lines: [String] = []
            while let newline = pending.firstIndex(of: 10) {
                lines.append(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
            if !lines.isEmpty { take(lines, now) }
        }
        if !pending.isEmpty { take([String(decoding: pending, as: UTF8.self)], VMSuite.nowMicroseconds()) }
        close(fd)
    }

    /// Reads `fd` on a thread, handing over whole lines with their arrival time.
    private func collect(_ fd: Int32, _ take: @escaping @Sendable ([String], Int64) -> Void) {
        done.enter()
        let thread = Thread { [done] in
            VMChild.readLines(from: fd, take)
            done.leave()
        }
        thread.start()
        readers.append(thread)
    }

    /// The stdout lines so far, with their arrival times (µs, CLOCK_MONOTONIC).
    var lines: [(line: String, arrived: Int64)] { lock.lock(); defer { lock.unlock() }; return outLines }
    /// The stderr text so far.
    var stderr: String { lock.lock(); defer { lock.unlock() }; return errText }

    /// The lines where the child said it reads a device (watch and run say
    /// so once the device is open and its clock set; an open file descriptor
    /// alone is too early, as setting the clock flushes what was queued).
    var readingLines: [Substring] {
        stderr.split(separator: "\n").filter { $0.contains("reading /") && !$0.contains("not reading") }
    }

    /// Whether the child said it reads `node` after its first `seen` such
    /// lines: node numbers are reused once a device is destroyed, so only a
    /// new line counts.
    func isReading(_ node: String, after seen: Int) -> Bool {
        readingLines.dropFirst(seen).contains { $0.contains("reading \(node) (") }
    }

    /// Waits (up to 20 s) until `condition` holds; fails with `what` and the child's stderr otherwise.
    func waitUntil(_ what: String, _ condition: (VMChild) -> Bool) throws {
        for _ in 0..<2000 {
            if condition(self) { return }
            if kill(pid, 0) != 0 { break }
            usleep(10_000)
        }
        if condition(self) { return }
        throw CheckFailure("\(what) never happened; stdout \(lines.map(\.line)), stderr \(stderr.debugDescription)")
    }

    /// Sends `signal` and waits for the exit; returns the exit status.
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        kill(pid, signal)
        return wait()
    }

    /// Waits for the exit and for all output; returns the exit status.
    func wait() -> Int32 {
        let status = (try? waitForChild(pid)) ?? 0
        done.wait()
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
