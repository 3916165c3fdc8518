import DesktopConfiguration
import DesktopDaemon
import Foundation
import InputChecks
import Synchronization

/// The applications whose windows the session's focus source reported
/// while a page was open, for the bindings form's `apps:` picker: each
/// application once (its id and X11 instance), in the order first focused.
///
/// `gestures ui` follows the focus itself, through the same
/// ``FocusSession`` and ``LiveFocus`` as the daemon: the daemon connects to
/// a focus source only when a binding needs one, and the person picks the
/// application before that binding exists. It connects on a thread of its
/// own (a server that does not answer delays nothing) while a page watches,
/// and lets go when none does.
///
///     let windows = PageWindows(publish: { line in feed.publish(line) })
///     windows.start()   // {"windows":{"source":"x11","reason":...,"seen":[{"app":"XTerm","instance":"xterm"}]}}
public final class PageWindows: Sendable {
    /// One application seen.
    public struct Seen: Hashable, Sendable {
        public var app: String
        public var instance: String?
    }

    /// The most applications kept; later ones are not listed.
    public static let maximumSeen = 64

    private struct State {
        var wanted = false
        var generation = 0
        var focus: LiveFocus?
        var source: String?
        var reason = "the focus source is not followed yet"
        var seen: [Seen] = []
    }

    private let state = Mutex(State())
    private let connect: @Sendable () throws(FocusError) -> LiveFocus
    private let describe: @Sendable () -> (source: String?, reason: String)
    private let publish: @Sendable (String) -> Void

    /// Windows from the session `environment` describes (``FocusSession/choose(_:)``), each change told to `publish` as a line.
    public convenience init(environment: [String: String], publish: @escaping @Sendable (String) -> Void) {
        let session = FocusSession.choose(environment)
        self.init(
            describe: { (session.kind?.rawValue, session.reason) }, connect: { () throws(FocusError) in try session.connect() },
            publish: publish)
    }

    /// Windows from the focus `connect` makes, described by `describe`.
    public init(
        describe: @escaping @Sendable () -> (source: String?, reason: String),
        connect: @escaping @Sendable () throws(FocusError) -> LiveFocus, publish: @escaping @Sendable (String) -> Void
    ) {
        self.describe = describe
        self.connect = connect
        self.publish = publish
    }

    /// The applications seen so far.
    public var seen: [Seen] { state.withLock { $0.seen } }

    /// The line a page is handed: the source, why it (or none) and the applications seen.
    public var line: String {
        state.withLock { state in
            let seen = state.seen.map { seen in
                "{\"app\":\(JSONText.quoted(seen.app)),\"instance\":\(seen.instance.map(JSONText.quoted) ?? "null")}"
            }
            return "{\"windows\":{\"source\":\(state.source.map(JSONText.quoted) ?? "null"),\"reason\":\(JSONText.quoted(state.reason)),"
                + "\"seen\":[\(seen.joined(separator: ","))]}}"
        }
    }

    /// Starts following the focus (on a thread of its own) unless it is followed already.
    public func start() {
        let generation = state.withLock { state -> Int? in
            guard !state.wanted else { return nil }
            state.wanted = true
            state.generation += 1
            return state.generation
        }
        guard let generation else { return }
        let (source, reason) = describe()
        state.withLock {
            $0.source = source
            $0.reason = source == nil ? "no focus source: \(reason)" : "connecting to \(source!) (\(reason))"
        }
        publish(line)
        guard source != nil else { return }
        let worker = Thread { [self] in
            let focus: LiveFocus
            do { focus = try connect() } catch {
                state.withLock { $0.reason = "\(error)" }
                publish(line)
                return
            }
            let kept = state.withLock { state -> Bool in
                guard state.wanted, state.generation == generation else { return false }
                state.focus = focus
                state.reason = "following \(focus.name)"
                return true
            }
            guard kept else { return }
            take(focus.focused)
            publish(line)
            focus.start { [weak self] window in
                guard let self else { return }
                if take(window) { publish(line) }
                if window == nil, let failure = focus.failure {
                    state.withLock { $0.reason = "the focus source went away: \(failure.description)" }
                    publish(line)
                }
            }
        }
        worker.name = "gestures ui windows"
        worker.start()
    }

    /// Stops following (the applications seen are kept for the next page).
    public func stop() {
        let focus = state.withLock { state -> LiveFocus? in
            state.wanted = false
            defer { state.focus = nil }
            return state.focus
        }
        focus?.stop()
    }

    /// Notes `window`'s application; returns whether it was new.
    @discardableResult
    private func take(_ window: FocusedWindow?) -> Bool {
        guard let window, !window.appID.isEmpty else { return false }
        let seen = Seen(app: window.appID, instance: window.instance)
        return state.withLock { state in
            guard !state.seen.contains(seen), state.seen.count < Self.maximumSeen else { return false }
            state.seen.append(seen)
            return true
        }
    }
}
