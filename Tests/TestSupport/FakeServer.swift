import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A server on a Unix socket, played by a test: a thread accepts each
/// connection and hands it to `serve`, which answers as the test's server
/// does (a lying reply, half a frame, nothing at all); then the connection
/// is held open until the client closes it, so a client waiting for more
/// waits on an open socket, as it would on a stuck compositor.
///
///     let server = try FakeServer(path: folder + "/x.sock") { connection in
///         _ = connection.read()          // the client's first request
///         connection.write(lyingReply)   // and nothing more
///     }
public final class FakeServer: Sendable {
    /// The socket's path.
    public let path: String
    private let listener: Int32
    private let accepted = Count()

    /// A count shared with the accepting thread.
    private final class Count: Sendable {
        let value = Mutex(0)
    }

    /// One accepted connection, as `serve` sees it.
    public struct Connection: Sendable {
        /// The descriptor.
        public let descriptor: Int32

        /// What the client sent next (up to 64 KiB), waiting for it; empty once it closed.
        public func read() -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            return count > 0 ? Array(buffer.prefix(count)) : []
        }

        /// Reads until the client has sent at least `count` bytes in all (or closed); what it sent.
        public func read(atLeast count: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            while bytes.count < count {
                let more = read()
                if more.isEmpty { break }
                bytes += more
            }
            return bytes
        }

        /// Writes all of `bytes` (a client gone is no error).
        public func write(_ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard written > 0 else { return }
                offset += written
            }
        }

        /// Writes `text` as UTF-8.
        public func write(_ text: String) { write(Array(text.utf8)) }
    }

    /// Listens at `path` and serves each connection with `serve` on a thread of its own.
    public init(path: String, serve: @escaping @Sendable (Connection) -> Void) throws {
        self.path = path
        unlink(path)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard descriptor >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw CocoaError(.fileWriteInvalidFileName)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw CocoaError(.fileWriteUnknown)
        }
        listener = descriptor
        let accepted = self.accepted
        Thread {
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else {
                    if errno == EINTR { continue }
                    return
                }
                accepted.value.withLock { $0 += 1 }
                Thread {
                    let connection = Connection(descriptor: client)
                    serve(connection)
                    // Held open until the client goes.
                    while !connection.read().isEmpty {}
                    close(client)
                }.start()
            }
        }.start()
    }

    /// How many connections were accepted so far.
    public var connections: Int { accepted.value.withLock { $0 } }

    /// Stops accepting and removes the socket. The corresponding C functions are `shutdown` and `unlink`.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
    }
}
