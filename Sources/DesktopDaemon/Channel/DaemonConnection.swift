import Foundation
import Synchronization

/// A connection to a running daemon's socket (``DaemonChannel``): what
/// `gestures ui` watches the daemon through. Each line the daemon writes
/// (a ``ChannelMessage``) is handed to `line` on the connection's own
/// thread, then `ended` once the daemon goes away or ``close()`` is called.
///
///     let connection = try DaemonConnection(path: path, line: { print($0) }, ended: { print("gone: \($0)") })
///     try connection.send(#"{"request":"reload"}"#)
public final class DaemonConnection: Sendable {
    /// Why the daemon cannot be reached: one sentence.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What went wrong, and where.
        public var description: String
    }

    /// The socket's path.
    public let path: String
    private let socket: UnixSocket
    private let closed = Atomic<Bool>(false)
    /// The longest line read from the daemon; a longer one ends the connection.
    public static let maximumLineBytes = 1 << 20

    /// Connects to the daemon at `path` and starts reading its lines.
    public init(
        path: String, line: @escaping @Sendable (String) -> Void, ended: @escaping @Sendable (String) -> Void
    ) throws(Failure) {
        self.path = path
        do { socket = try UnixSocket(connectingTo: path) } catch {
            throw Failure(description: "no daemon answers on \(path) (\(error.description)); start it with `gestures run`")
        }
        let socket = self.socket
        let thread = Thread { [self] in
            var pending: [UInt8] = []
            var reason = "the daemon closed the connection"
            reading: while true {
                let bytes: [UInt8]
                do { bytes = try socket.readAvailable() } catch {
                    if closed.load(ordering: .acquiring) { reason = "closed" }
                    break reading
                }
                pending += bytes
                var start = 0
                while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    line(String(decoding: pending[start..<newline], as: UTF8.self))
                    start = newline + 1
                }
                pending.removeFirst(start)
                if pending.count > Self.maximumLineBytes {
                    reason = "the daemon sent a line longer than \(Self.maximumLineBytes) bytes"
                    break reading
                }
            }
            socket.close()
            ended(reason)
        }
        thread.name = "gestures daemon connection"
        thread.start()
    }

    /// Writes one request line (a JSON object, without its newline).
    public func send(_ request: String) throws(Failure) {
        do { try socket.write(Array((request + "\n").utf8)) } catch {
            throw Failure(description: "cannot write to the daemon on \(path): \(error.description)")
        }
    }

    /// Ends the connection; `ended` is called once the reading thread stops.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        shutdown(socket.descriptor, Int32(SHUT_RDWR))
    }
}
