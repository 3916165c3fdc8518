import DesktopDaemon
import Foundation
import Synchronization

/// The live lines every open page is handed (each page's stream is a
/// ``LineQueue``): the daemon's lines as it writes them, and the page
/// server's own (`{"daemon":...}`, whether a daemon is watched). The lines
/// that describe the state a new page starts from (the daemon's `hello`,
/// each `device`, the latest `daemon`) are kept and handed to each page first.
///
/// It calls `firstOpened` when the first page opens and `lastClosed` when
/// the last one goes, so the server watches the daemon only while a page
/// draws what it sends: with no page open, the daemon computes nothing for it.
public final class PageFeed: Sendable {
    private struct State {
        var streams: [ObjectIdentifier: LineQueue] = [:]
        var hello: String?
        var devices: [String: String] = [:]
        var daemon: String?
        var trying: String?
    }

    private let state = Mutex(State())
    private let firstOpened: @Sendable () -> Void
    private let lastClosed: @Sendable () -> Void
    /// Lines a page may fall behind by before its oldest are dropped.
    static let capacity = 4096

    /// A feed with no page yet.
    public init(firstOpened: @escaping @Sendable () -> Void = {}, lastClosed: @escaping @Sendable () -> Void = {}) {
        self.firstOpened = firstOpened
        self.lastClosed = lastClosed
    }

    /// How many pages are open.
    public var openCount: Int { state.withLock { $0.streams.count } }

    /// A new page's stream: the kept lines first, then every line published.
    public func open() -> LineQueue {
        let queue = LineQueue(capacity: Self.capacity)
        let first = state.withLock { state -> Bool in
            for line in [state.daemon, state.hello, state.trying].compactMap({ $0 })
                + state.devices.keys.sorted().map({ state.devices[$0]! })
            {
                queue.push(line)
            }
            state.streams[ObjectIdentifier(queue)] = queue
            return state.streams.count == 1
        }
        if first { firstOpened() }
        return queue
    }

    /// The page of `queue` went.
    public func close(_ queue: LineQueue) {
        queue.close()
        let last = state.withLock { state -> Bool in
            guard state.streams.removeValue(forKey: ObjectIdentifier(queue)) != nil else { return false }
            return state.streams.isEmpty
        }
        if last { lastClosed() }
    }

    /// Hands `line` to every open page, keeping it when it describes the state a page starts from.
    public func publish(_ line: String) {
        let streams = state.withLock { state -> [LineQueue] in
            if line.hasPrefix("{\"hello\":") {
                state.hello = line
                state.devices = [:]
            } else if line.hasPrefix("{\"device\":{\"id\":") {
                let id = line.dropFirst(16).prefix { $0 != "," }
                state.devices[String(id)] = line
            } else if line.hasPrefix("{\"daemon\":") {
                state.daemon = line
                if line.contains("\"connected\":false") { state.trying = nil }
            } else if line.hasPrefix("{\"trying\":") {
                state.trying = line
            }
            return Array(state.streams.values)
        }
        for queue in streams { queue.push(line) }
    }

    /// Ends every page's stream.
    public func closeAll() {
        for queue in state.withLock({ Array($0.streams.values) }) { queue.close() }
    }
}
