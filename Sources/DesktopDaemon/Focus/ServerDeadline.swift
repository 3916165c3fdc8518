import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// When a focus source stops waiting for its server: every wait on a
/// server (a reply, the rest of a message it began, a connection's setup)
/// has one, ``answerTime`` from when it began, and ends in one sentence
/// naming the server, whatever the server does (a compositor that accepts
/// and never answers, half a frame).
///
///     let deadline = ServerDeadline(server: "sway at SWAYSOCK=/run/user/1000/sway-ipc.sock")
///     try socket.read(exactly: 14, by: deadline)
///     // throws: sway at SWAYSOCK=/run/user/1000/sway-ipc.sock did not answer within 5 s; ...
struct ServerDeadline {
    /// How long a server may take to answer: 5 s (a compositor answers in milliseconds).
    static let answerTime: Duration = .seconds(5)

    /// The server waited on, as the sentence names it.
    let server: String
    /// When the wait ends.
    let instant: ContinuousClock.Instant

    /// A deadline ``answerTime`` (or `time`) from now.
    init(server: String, in time: Duration = answerTime) {
        self.server = server
        instant = .now + time
    }

    /// What is left, in whole milliseconds for `poll` (0 once passed, never negative).
    var remainingMilliseconds: Int32 {
        let left = instant - .now
        guard left > .zero else { return 0 }
        let milliseconds = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: milliseconds)
    }

    /// Whether the wait is over.
    var hasPassed: Bool { ContinuousClock.now >= instant }

    /// The sentence once it has passed.
    var expired: FocusError {
        FocusError(
            "\(server) did not answer within \(Self.answerTime.components.seconds) s; it may be stuck, or not the server it claims to be")
    }

    /// Waits until `descriptor` is readable, or throws ``expired``. The corresponding C function is `poll`.
    func waitReadable(_ descriptor: Int32) throws(FocusError) {
        var entries = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready: Int
            do {
                ready = try pollDescriptors(&entries) { remainingMilliseconds }
            } catch {
                throw FocusError("cannot wait for \(server): \(error)")
            }
            if ready > 0 { return }
            if hasPassed { throw expired }
        }
    }
}
