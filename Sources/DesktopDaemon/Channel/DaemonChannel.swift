import Foundation
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The daemon's local interface: a Unix socket, readable and writable by
/// the user alone (in `$XDG_RUNTIME_DIR/gestures/`, a folder of mode 0700),
/// where a program (the page of `gestures ui`, a script with `socat`)
/// watches what the daemon sees and decides, and asks it to reload.
///
/// On each connection the daemon writes ``ChannelMessage`` lines: a
/// `hello`, the devices seen so far, then every frame and explanation as
/// they happen. A client may write one request a line:
/// `{"request":"reload"}`. Nothing is computed for watchers while none is
/// connected (``DaemonWatchers/isWatched``); a client that reads too slowly
/// loses its oldest lines, never the daemon's time. A connection from
/// another user is closed at once (`SO_PEERCRED`).
///
///     let channel = try DaemonChannel(path: DaemonChannel.defaultPath()!, watchers: daemon.watchers, hello: { ... })
///     channel.start()
///     defer { channel.stop() }
public final class DaemonChannel: Sendable {
    /// Why the socket cannot be offered: one sentence.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What went wrong, and where.
        public var description: String
    }

    /// The socket's path.
    public let path: String
    /// The lines each client is handed.
    public let watchers: DaemonWatchers
    private let hello: @Sendable () -> ChannelMessage
    private let request: @Sendable (_ line: String, _ client: Int32) -> Void
    private let closed: @Sendable (_ client: Int32) -> Void
    private let listener: Int32
    private let clients = Mutex<[Int32]>([])
    private let stopped = Atomic<Bool>(false)
    /// Lines a client may fall behind by before its oldest are dropped: about 30 s of a 120 Hz pad.
    static let queueCapacity = 4096
    /// The longest request line read; a longer one closes the connection.
    static let maximumRequestBytes = 4096

    /// The default socket: `$XDG_RUNTIME_DIR/gestures/daemon.socket`, or nil without `XDG_RUNTIME_DIR`.
    public static func defaultPath(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        return runtime + "/gestures/daemon.socket"
    }

    /// Listens at `path` (its folder is made, mode 0700, when missing); a
    /// socket left there by a daemon that is gone is replaced, one that a
    /// running daemon answers on is not. `hello` is the first line of every
    /// connection; `request` takes each request a client writes (its text,
    /// and a number that tells the client apart while it is connected), and
    /// `closed` hears when a client went (what it asked for ends with it).
    /// The corresponding C functions are `socket`, `bind` and `listen`.
    public init(
        path: String, watchers: DaemonWatchers, hello: @escaping @Sendable () -> ChannelMessage,
        request: @escaping @Sendable (_ line: String, _ client: Int32) -> Void = { _, _ in },
        closed: @escaping @Sendable (_ client: Int32) -> Void = { _ in }
    ) throws(Failure) {
        self.path = path
        self.watchers = watchers
        self.hello = hello
        self.request = request
        self.closed = closed
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, mkdir(folder, 0o700) != 0, errno != EEXIST {
            throw Failure(description: "cannot make the folder \(folder) for the daemon's socket: \(String(cString: strerror(errno)))")
        }
        var folderStatus = stat()
        guard !folder.isEmpty, lstat(folder, &folderStatus) == 0, folderStatus.st_mode & S_IFMT == S_IFDIR,
            folderStatus.st_uid == getuid(), folderStatus.st_mode & 0o077 == 0
        else {
            throw Failure(
                description:
                    "the folder \(folder) for the daemon's socket must be a folder of this user's that nobody else may enter (mode 0700)")
        }
        guard var address = Self.address(path) else {
            throw Failure(description: "the socket path \(path) is too long for a Unix socket")
        }
        if let existing = try? UnixSocket(connectingTo: path) {
            existing.close()
            throw Failure(description: "another daemon already answers on \(path); stop it first (systemctl --user stop gestures)")
        }
        unlink(path)  // a socket left by a daemon that is gone
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "cannot make a socket: \(String(cString: strerror(errno)))") }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // Only the user may connect: the folder (0700) keeps everyone else out
        // until the socket's own mode is set, before it listens.
        guard bound == 0, chmod(path, 0o600) == 0, listen(descriptor, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "cannot listen on \(path): \(reason)")
        }
        listener = descriptor
    }

    /// Accepts connections on a thread of its own until ``stop()``.
    public func start() {
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "gestures channel"
        thread.start()
    }

    /// Stops accepting, closes every connection and removes the socket.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        for client in clients.withLock({ $0 }) { shutdown(client, Int32(SHUT_RDWR)) }
        unlink(path)
    }

    private static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return address
    }

    private func acceptLoop() {
        defer { close(listener) }
        while !stopped.load(ordering: .acquiring) {
            let client: Int32
            do {
                client = try FileDescriptor(rawValue: listener).accept().rawValue
            } catch  where error == .connectionAborted {
                continue
            } catch {
                return  // shut down
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)  // a command the daemon runs never inherits it
            guard Self.peerIsThisUser(client) else {
                close(client)
                continue
            }
            serve(client)
        }
    }

    /// Whether the process at the other end runs as this process's user.
    /// The corresponding C function is `getsockopt` with `SO_PEERCRED`.
    private static func peerIsThisUser(_ descriptor: Int32) -> Bool {
        // struct ucred: pid_t pid, uid_t uid, gid_t gid (Glibc's Swift module leaves it out).
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, .max, .max)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return false }
        return credentials.uid == getuid()
    }

    /// Two threads a client: one writes its queue, one reads its requests.
    private func serve(_ client: Int32) {
        clients.withLock { $0.append(client) }
        let queue = LineQueue(capacity: Self.queueCapacity)
        queue.push(hello().jsonLine)
        let subscription = watchers.subscribe { queue.push($0) }
        let writerDone = DispatchSemaphore(value: 0)
        let writer = Thread { [self] in
            defer { writerDone.signal() }
            let socket = UnixSocket(descriptor: client)
            writing: while true {
                switch queue.pop(timeout: .seconds(3600)) {
                case .line(let line):
                    do { try socket.write(Array((line + "\n").utf8)) } catch { break writing }
                case .timedOut: continue
                case .closed: break writing
                }
            }
            watchers.unsubscribe(subscription)
            shutdown(client, Int32(SHUT_RDWR))
            queue.close()
        }
        let reader = Thread { [self] in
            let socket = UnixSocket(descriptor: client)
            var pending: [UInt8] = []
            reading: while let bytes = try? socket.readAvailable(limit: Self.maximumRequestBytes) {
                pending += bytes
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    request(line, client)
                }
                if pending.count > Self.maximumRequestBytes { break reading }
            }
            watchers.unsubscribe(subscription)
            queue.close()
            // The writer closes nothing: the descriptor is closed once both are done with it.
            shutdown(client, Int32(SHUT_WR))
            writerDone.wait()
            closed(client)
            clients.withLock { $0.removeAll { $0 == client } }
            close(client)
        }
        writer.start()
        reader.start()
    }
}
