import Foundation
import InputChecks
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A connected stream socket (`AF_UNIX`, or TCP for a remote X display):
/// what the sway, i3, Hyprland and X11 focus connections talk through.
/// Every read waits until a ``ServerDeadline``. The calls are `socket`,
/// `connect`, `poll`, `read`, `write` and `close`.
struct UnixSocket {
    /// The socket's descriptor, through which its calls are made.
    let file: FileDescriptor

    /// The descriptor's number, for a poll set or `shutdown`.
    var descriptor: Int32 { file.rawValue }

    /// Wraps an open descriptor (a test's socket pair).
    init(descriptor: Int32) {
        self.file = FileDescriptor(rawValue: descriptor)
    }

    /// Connects to the socket at `path` (in Linux's abstract namespace with
    /// `abstract`). The corresponding C functions are `socket` and `connect`.
    init(connectingTo path: String, abstract: Bool = false) throws(FocusError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = (abstract ? [0] : []) + Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw FocusError("the socket path \(Excerpt.quoted(path, limit: 120)) is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw FocusError("cannot make a socket: \(String(cString: strerror(errno)))") }
        // An abstract name's length is exact; a path's ends at its NUL.
        let length = abstract ? MemoryLayout<sa_family_t>.size + bytes.count : MemoryLayout<sockaddr_un>.size
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(length)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw FocusError("cannot connect to \(Excerpt.quoted(path, limit: 120)): \(reason)")
        }
        self.file = FileDescriptor(rawValue: descriptor)
    }

    /// Connects over TCP to `host` at `port`, trying each address it has.
    /// The corresponding C functions are `getaddrinfo`, `socket` and `connect`.
    init(connectingToHost host: String, port: Int) throws(FocusError) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let found = getaddrinfo(host, String(port), &hints, &list)
        guard found == 0, let list else {
            throw FocusError("cannot find the host \(Excerpt.quoted(host, limit: 120)): \(String(cString: gai_strerror(found)))")
        }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = list
        var reason = "no address"
        while let address = entry {
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            if descriptor >= 0 {
                if connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
                    self.file = FileDescriptor(rawValue: descriptor)
                    return
                }
                reason = String(cString: strerror(errno))
                Glibc.close(descriptor)
            }
            entry = address.pointee.ai_next
        }
        throw FocusError("cannot connect to \(Excerpt.quoted(host, limit: 120)) port \(port): \(reason)")
    }

    /// Writes all of `bytes`; a peer that went away is an error, never a
    /// SIGPIPE. The corresponding C function is `send` with `MSG_NOSIGNAL`.
    func write(_ bytes: [UInt8]) throws(FocusError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { part in
                Result { () throws(Errno) in try file.send(part, flags: Int32(MSG_NOSIGNAL)) }
            }
            switch sent {
            case .failure(let error): throw FocusError("cannot write to the socket: \(error)")
            case .success(0): throw FocusError("cannot write to the socket: \(Errno.current)")
            case .success(let written): offset += written
            }
        }
    }

    /// Reads exactly `count` bytes, waiting for them until `deadline`;
    /// throws at end of file. Memory grows with what arrives, not with
    /// what `count` claims. The corresponding C functions are `poll` and `read`.
    func read(exactly count: Int, by deadline: ServerDeadline) throws(FocusError) -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count {
            bytes += try readAvailable(limit: min(count - bytes.count, 65_536), by: deadline)
        }
        return bytes
    }

    /// Reads what is there now, up to `limit` bytes (at least one; waits
    /// for it until `deadline`); throws at end of file.
    func readAvailable(limit: Int = 65_536, by deadline: ServerDeadline) throws(FocusError) -> [UInt8] {
        try deadline.waitReadable(descriptor)
        return try readAvailable(limit: limit, peer: deadline.server)
    }

    /// Reads what is there now, up to `limit` bytes, waiting as long as it
    /// takes: for the daemon's own channel, whose peers are silent for hours
    /// (a focus server's reads have a ``ServerDeadline``). Throws at end of file.
    func readAvailable(limit: Int = 65_536, peer: String = "the peer") throws(FocusError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit)
        let read = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(Errno) in try file.read(into: buffer) }
        }
        switch read {
        case .success(0), .failure(.connectionReset): throw FocusError("\(peer) closed the connection")
        case .failure(let error): throw FocusError("cannot read from \(peer): \(error)")
        case .success(let got): return Array(bytes.prefix(got))
        }
    }

    /// Closes the descriptor. The corresponding C function is `close`.
    func close() {
        try? file.close()
    }
}
