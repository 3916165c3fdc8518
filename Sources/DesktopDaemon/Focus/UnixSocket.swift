import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A connected `AF_UNIX` stream socket: what the sway, i3 and Hyprland
/// focus connections talk through. The calls are `socket`, `connect`,
/// `read`, `write` and `close`.
struct UnixSocket {
    /// The descriptor.
    let descriptor: Int32

    /// Wraps an open descriptor (a test's socket pair).
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Connects to the socket at `path`. The corresponding C functions are `socket` and `connect`.
    init(connectingTo path: String) throws(FocusError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw FocusError("the socket path \(path) is longer than \(capacity - 1) bytes") }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw FocusError("cannot make a socket: \(String(cString: strerror(errno)))") }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw FocusError("cannot connect to \(path): \(reason)")
        }
        self.descriptor = descriptor
    }

    /// Writes all of `bytes`; a peer that went away is an error, never a
    /// SIGPIPE. The corresponding C function is `send` with `MSG_NOSIGNAL`.
    func write(_ bytes: [UInt8]) throws(FocusError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw FocusError("cannot write to the socket: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Reads exactly `count` bytes, waiting for them; throws at end of file.
    /// The corresponding C function is `read`.
    func read(exactly count: Int) throws(FocusError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let got = bytes[offset...].withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got < 0, errno == EINTR { continue }
            if got == 0 || (got < 0 && errno == ECONNRESET) { throw FocusError("the server closed the connection") }
            guard got > 0 else { throw FocusError("cannot read from the socket: \(String(cString: strerror(errno)))") }
            offset += got
        }
        return bytes
    }

    /// Reads what is there now, up to `limit` bytes (at least one; waits
    /// for it); throws at end of file.
    func readAvailable(limit: Int = 65_536) throws(FocusError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit)
        while true {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got < 0, errno == EINTR { continue }
            if got == 0 || (got < 0 && errno == ECONNRESET) { throw FocusError("the server closed the connection") }
            guard got > 0 else { throw FocusError("cannot read from the socket: \(String(cString: strerror(errno)))") }
            return Array(bytes.prefix(got))
        }
    }

    /// Closes the descriptor. The corresponding C function is `close`.
    func close() {
        Glibc.close(descriptor)
    }
}
