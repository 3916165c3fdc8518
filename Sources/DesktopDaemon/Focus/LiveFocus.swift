import Foundation
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// A live focus source: one ``FocusConnection`` followed on its own thread,
/// which sleeps in `poll` until the server writes (no timer, no polling
/// loop), and the latest focused window, for the daemon to read when a
/// gesture's fingers land.
///
///     let focus = try LiveFocus(connection: I3FocusConnection(path: sway, name: "sway"))
///     focus.start { window in print(window?.appID ?? "none") }
///     ...
///     focus.stop()
public final class LiveFocus: FocusSource, Sendable {
    public let name: String
    /// How long a change to no window waits for the next change before it
    /// is reported: 50 ms. Window managers clear the active window between
    /// two windows (openbox on every switch); the wait keeps that from
    /// being a change, and from deciding a gesture whose fingers land then.
    public static let noneSettling: Duration = .milliseconds(50)
    private struct State {
        var focused: FocusedWindow?
        var failure: FocusError?
    }
    private let state = Mutex(State())
    /// The connection, until the thread takes it.
    private let connection: Mutex<(any FocusConnection)?>
    /// The pipe that wakes the thread to stop: read end, write end.
    private let wake: (read: Int32, write: Int32)
    /// Whether the thread runs.
    private let running = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    /// A source following `connection`: its current focus is read now.
    public init(connection: sending some FocusConnection) throws(FocusError) {
        var connection = connection
        name = connection.name
        let focused = try connection.currentFocus()
        state.withLock { $0.focused = focused }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw FocusError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wake = (ends[0], ends[1])
        self.connection = Mutex(connection)
    }

    deinit {
        Glibc.close(wake.read)
        Glibc.close(wake.write)
    }

    public func focusedWindow(at time: Duration) -> FocusedWindow? {
        state.withLock { $0.focused }
    }

    /// The window focused now, as last reported.
    public var focused: FocusedWindow? { state.withLock { $0.focused } }

    /// Why the source stopped following, when the server went away.
    public var failure: FocusError? { state.withLock { $0.failure } }

    /// Follows the connection on a thread of its own, telling `changed`
    /// each change (on that thread) until ``stop()`` or the server goes away
    /// (then ``failure`` says why and `changed` gets nil once).
    public func start(_ changed: @escaping @Sendable (FocusedWindow?) -> Void = { _ in }) {
        guard
            let taken = connection.withLock({ value -> (any FocusConnection)? in
                defer { value = nil }
                return value
            })
        else { return }
        // Handed over: from here on only the thread uses the connection.
        nonisolated(unsafe) var connection = taken
        let wakeRead = wake.read
        let worker = Thread { [self] in
            defer {
                connection.close()
                finished.signal()
            }
            var fds = [
                pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            // A change to no window waits `noneSettling` for the next one before it is reported:
            // window managers clear the active window between two (openbox does on every switch).
            var noneSince: ContinuousClock.Instant?
            func take(_ change: FocusedWindow??) {
                guard let change else { return }
                if change == nil {
                    if noneSince == nil { noneSince = .now }
                } else {
                    noneSince = nil
                    report(change, changed)
                }
            }
            while true {
                // What arrived before the wait (xcb may have read it while waiting for a reply).
                do throws(FocusError) { take(try connection.readBuffered()) } catch {
                    fail(error, changed)
                    return
                }
                // Asked again after a signal, so the wait for the next window still ends on time.
                func timeout() -> Int32 {
                    guard let noneSince else { return -1 }
                    let left = Self.noneSettling - (ContinuousClock.now - noneSince)
                    return max(0, Int32(left.components.attoseconds / 1_000_000_000_000_000 + left.components.seconds * 1000))
                }
                let ready = (try? pollDescriptors(&fds, timeoutMilliseconds: timeout)) ?? -1
                if ready == 0 {
                    // The window manager settled on no window.
                    noneSince = nil
                    if focused != nil { report(nil, changed) }
                    continue
                }
                guard ready > 0, fds[1].revents == 0 else { return }
                guard fds[0].revents != 0 else { continue }
                do throws(FocusError) { take(try connection.readChange()) } catch {
                    fail(error, changed)
                    return
                }
            }
        }
        worker.name = "gestures focus (\(name))"
        running.withLock { $0 = true }
        worker.start()
    }

    /// Stops following and waits for the thread.
    public func stop() {
        guard
            running.withLock({ value in
                defer { value = false }
                return value
            })
        else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(wake.write, &byte, 1)
        finished.wait()
    }

    private func report(_ window: FocusedWindow?, _ changed: @Sendable (FocusedWindow?) -> Void) {
        state.withLock { $0.focused = window }
        changed(window)
    }

    private func fail(_ error: FocusError, _ changed: @Sendable (FocusedWindow?) -> Void) {
        state.withLock {
            $0.failure = error
            $0.focused = nil
        }
        changed(nil)
    }
}
