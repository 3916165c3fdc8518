import Glibc

/// An open file descriptor: a device node, a socket, a pipe or a file.
/// Its calls retry an interrupted call (``retryingInterrupts(_:)``) and
/// throw the ``Errno`` of a failure.
///
///     let descriptor = FileDescriptor(rawValue: fd)
///     try descriptor.writeAll(UnsafeRawBufferPointer(bytes))
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The number the kernel gave it.
    public let rawValue: Int32

    /// The descriptor numbered `rawValue`.
    @inlinable public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Reads up to `buffer.count` bytes into `buffer`: how many, 0 at the
    /// end of the file. The corresponding C function is `read`.
    @inlinable
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingInterrupts { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes up to `bytes.count` bytes of `bytes`: how many were written.
    /// The corresponding C function is `write`.
    @inlinable
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingInterrupts { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
    }

    /// Writes all of `bytes`, in as many writes as it takes. The corresponding C function is `write`.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            offset += try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
    }

    /// Sends up to `bytes.count` bytes of `bytes` on a socket, with
    /// `flags` (`MSG_NOSIGNAL`): how many were sent. The corresponding C function is `send`.
    @inlinable
    public func send(_ bytes: UnsafeRawBufferPointer, flags: Int32) throws(Errno) -> Int {
        try retryingInterrupts { Glibc.send(rawValue, bytes.baseAddress, bytes.count, flags) }
    }

    /// Takes the next connection of a listening socket (no peer address).
    /// The corresponding C function is `accept`.
    public func accept() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingInterrupts { Glibc.accept(rawValue, nil, nil) })
    }

    /// Closes the descriptor. `EINTR` is not retried: Linux has released the
    /// descriptor by then, and closing it again could close another thread's
    /// new one. The corresponding C function is `close`.
    public func close() throws(Errno) {
        if Glibc.close(rawValue) < 0 { throw Errno.current }
    }
}

/// Waits until one of `entries` is ready or `timeoutMilliseconds` pass
/// (-1: no limit): how many are ready, 0 when the time ran out.
/// `timeoutMilliseconds` is asked again after an interruption, so a wait
/// until a deadline can shorten it. The corresponding C function is `poll`.
@inlinable
public func pollDescriptors(_ entries: inout [pollfd], timeoutMilliseconds: () -> Int32) throws(Errno) -> Int {
    let count = nfds_t(entries.count)
    return Int(try retryingInterrupts { Glibc.poll(&entries, count, timeoutMilliseconds()) })
}

/// Waits for the child `pid` to end and reaps it: its wait status. The
/// corresponding C function is `waitpid`.
public func waitForChild(_ pid: pid_t) throws(Errno) -> Int32 {
    var status: Int32 = 0
    _ = try retryingInterrupts { waitpid(pid, &status, 0) }
    return status
}

/// Waits for the child `pid` to end without reaping it, so that its pid
/// (and its process group) cannot be reused yet. The corresponding C
/// function is `waitid` with `WNOWAIT`.
public func waitForChildWithoutReaping(_ pid: pid_t) throws(Errno) {
    var info = siginfo_t()
    _ = try retryingInterrupts { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }
}
