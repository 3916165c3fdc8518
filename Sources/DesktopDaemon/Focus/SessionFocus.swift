import DesktopConfiguration
import Foundation
import Synchronization

/// The live daemon's focus source: the session's (``FocusSession``),
/// connected on a thread of its own only when a configuration needs it (a
/// binding with `apps`, `notApps` or `title`), so the daemon starts and
/// recognises gestures whether or not the source answers. Until it has
/// connected, and after it failed, no window is focused; a configuration
/// reloaded that needs it again connects again.
///
///     let focus = SessionFocus(session: .choose(environment), log: .standardError)
///     focus.prepare(for: configuration)   // connects in the background when a binding names applications
public final class SessionFocus: FocusSource, Sendable {
    /// The session's choice.
    public let session: FocusSession
    private let log: DaemonLog
    private struct State {
        var live: LiveFocus?
        var connecting = false
        var stopped = false
    }
    private let state = Mutex(State())

    /// A source for `session`, logging its connection and its end to `log`.
    public init(session: FocusSession, log: DaemonLog) {
        self.session = session
        self.log = log
    }

    public var name: String { state.withLock { $0.live?.name } ?? session.kind?.rawValue ?? "none" }

    public func focusedWindow(at time: Duration) -> FocusedWindow? {
        state.withLock { $0.live }?.focused
    }

    /// Connects in the background when `configuration` names applications
    /// and no connection is made or being made; otherwise nothing.
    public func prepare(for configuration: DaemonConfiguration) {
        guard configuration.namesApplications else { return }
        let starts = state.withLock { state -> Bool in
            guard !state.stopped, !state.connecting, state.live.map({ $0.failure != nil }) ?? true else { return false }
            state.connecting = true
            return true
        }
        guard starts else { return }
        let thread = Thread { [self] in connect() }
        thread.name = "gestures focus (connecting)"
        thread.start()
    }

    /// One attempt: each wait on the server has a ``ServerDeadline``, so it ends.
    private func connect() {
        let live: LiveFocus
        do { live = try session.connect() } catch {
            state.withLock { $0.connecting = false }
            log.write("warning: bindings with apps or title never apply: \(error.description)")
            return
        }
        let kept = state.withLock { state -> Bool in
            state.connecting = false
            guard !state.stopped else { return false }
            state.live = live
            return true
        }
        guard kept else { return }
        log.write("focus: \(live.name) (\(session.reason)), focused now: \(live.focused?.description ?? "nothing")")
        let log = self.log
        // Told nil once more when the server goes away: then it says so, once.
        live.start { _ in
            if let failure = live.failure {
                log.write("warning: the focus source \(live.name) stopped (\(failure)); bindings with apps or title no longer apply")
            }
        }
    }

    /// Stops following; an attempt still under way is dropped when it ends.
    public func stop() {
        let live = state.withLock { state -> LiveFocus? in
            state.stopped = true
            defer { state.live = nil }
            return state.live
        }
        live?.stop()
    }
}
