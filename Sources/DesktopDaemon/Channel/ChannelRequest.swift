import Foundation
import Synchronization

/// One request a client writes on the daemon's socket (``DaemonChannel``),
/// a JSON object on one line: `{"request":"reload"}`.
public enum ChannelRequest: String, Sendable, CaseIterable {
    /// Read the configuration file again now.
    case reload
    /// Try gestures: match and explain them, run nothing they fire, until
    /// `stop-trying` or until this connection closes.
    case `try`
    /// Run what fires again.
    case stopTrying = "stop-trying"
    /// Send every frame's events as read (`events` lines), until
    /// `stop-recording` or until this connection closes.
    case record
    /// Stop sending the events.
    case stopRecording = "stop-recording"

    private struct Line: Decodable {
        var request: String
    }

    /// The request a line holds, or nil when it holds none the daemon knows
    /// (not JSON, no `request` key, or another word): such a line is ignored.
    public init?(line: String) {
        guard line.utf8.count <= 4096, let data = line.data(using: .utf8),
            let decoded = try? JSONDecoder().decode(Line.self, from: data), let request = ChannelRequest(rawValue: decoded.request)
        else { return nil }
        self = request
    }

    /// The request as the line a client writes.
    public var line: String { "{\"request\":\"\(rawValue)\"}" }
}

/// What the daemon does with its clients' requests (``DaemonChannel``'s
/// `request` and `closed`): a reload is asked of `reload`; trying lasts while
/// any client that asked for it is connected and has not stopped, so a page
/// that goes away never leaves the daemon running nothing; recording likewise.
public final class ChannelRequests: Sendable {
    private let daemon: GestureDaemon
    private let reload: @Sendable () -> Void
    private let trying = Mutex<Set<Int32>>([])
    private let recording = Mutex<Set<Int32>>([])

    /// Requests to `daemon`, with `reload` reading the configuration again.
    public init(daemon: GestureDaemon, reload: @escaping @Sendable () -> Void) {
        self.daemon = daemon
        self.reload = reload
    }

    /// Takes one line a client wrote; a line that is no request is logged and ignored.
    public func take(_ line: String, from client: Int32) {
        switch ChannelRequest(line: line) {
        case .reload: reload()
        case .try: update { $0.insert(client) }
        case .stopTrying: update { $0.remove(client) }
        case .record: updateRecording { $0.insert(client) }
        case .stopRecording: updateRecording { $0.remove(client) }
        case nil:
            daemon.log.write(
                "ignored a request on the daemon's socket that is not one of \(ChannelRequest.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
    }

    /// A client went: what it asked for ends.
    public func closed(_ client: Int32) {
        update { $0.remove(client) }
        updateRecording { $0.remove(client) }
    }

    private func updateRecording(_ change: (inout Set<Int32>) -> Void) {
        let on = recording.withLock { set -> Bool in
            change(&set)
            return !set.isEmpty
        }
        daemon.setRecording(on)
    }

    private func update(_ change: (inout Set<Int32>) -> Void) {
        let on = trying.withLock { set -> Bool in
            change(&set)
            return !set.isEmpty
        }
        daemon.setTrying(on)
    }
}
