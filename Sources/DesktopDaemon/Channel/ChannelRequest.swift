import Foundation

/// One request a client writes on the daemon's socket (``DaemonChannel``),
/// a JSON object on one line: `{"request":"reload"}`.
public enum ChannelRequest: String, Sendable, CaseIterable {
    /// Read the configuration file again now.
    case reload

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
