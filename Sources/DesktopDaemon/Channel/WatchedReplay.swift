import Foundation
import Synchronization

extension GestureDaemon {
    /// The lines this daemon's watchers are handed while it replays the
    /// trace at `path` (each device, every frame, every event's explanation,
    /// as its socket sends them), in order: what the page's replay draws on
    /// its timeline. Make the daemon with `runsActions: false` so that
    /// nothing fired runs. At most `limit` lines are kept.
    ///
    ///     let daemon = GestureDaemon(configuration: configuration, log: log, runsActions: false)
    ///     let lines = try daemon.watchedReplay(of: "swipe.jsonl")   // {"device":...}, {"frame":...}, {"explanation":...}
    ///
    /// - Throws: ``ReplaySource/Failure`` when the trace cannot be read (one sentence).
    public func watchedReplay(of path: String, limit: Int = 400_000) throws -> [String] {
        let lines = Mutex<[String]>([])
        let subscription = watchers.subscribe { line in
            lines.withLock { if $0.count < limit { $0.append(line) } }
        }
        defer { watchers.unsubscribe(subscription) }
        try run(ReplaySource(.files([path])))
        return lines.withLock { $0 }
    }
}
