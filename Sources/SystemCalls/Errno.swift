import Glibc

/// An error number a system call failed with (the C library's `errno`),
/// as a value that is thrown: `catch let error where error == .wouldBlock`.
///
///     do { _ = try descriptor.read(into: buffer) } catch { print(error) }
///     // No such device
public struct Errno: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number (`EAGAIN`...).
    public let rawValue: Int32

    /// The error numbered `rawValue`.
    @inlinable public init(rawValue: Int32) { self.rawValue = rawValue }

    /// What the calling thread's last failed system call left in `errno`.
    @inlinable public static var current: Errno { Errno(rawValue: errno) }

    /// The C library's sentence for it (`No such device`). The corresponding C function is `strerror`.
    public var description: String { String(cString: strerror(rawValue)) }

    /// `EINTR`: a signal arrived during the call; ``retryingInterrupts(_:)`` makes it again.
    public static let interrupted = Errno(rawValue: EINTR)
    /// `EAGAIN`: a non-blocking descriptor has nothing now.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `ECONNRESET`: the peer closed a socket with data unread.
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    /// `ECONNABORTED`: a connection went away before `accept` took it.
    public static let connectionAborted = Errno(rawValue: ECONNABORTED)
    /// `EIO`: an input or output error, or a write that wrote less than it was given.
    public static let ioError = Errno(rawValue: EIO)
}

/// Makes a system call, again as long as a signal interrupts it (`EINTR`),
/// and gives its non-negative result, or throws the error number it failed
/// with. This is the one place the package retries an interrupted call;
/// `call` is made once more each time, so a call whose arguments depend on
/// the time (a `poll` timeout until a deadline) computes them again.
///
///     let ready = try retryingInterrupts { poll(&entries, 1, timeout) }
///
/// Not for `close`, which Linux never makes again (the descriptor is gone
/// even when it reports `EINTR`): see ``FileDescriptor/close()``.
@inlinable
public func retryingInterrupts<Result: SignedInteger>(_ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let error = errno
        if error != EINTR { throw Errno(rawValue: error) }
    }
}
