import Foundation

/// A bounded queue of lines between one producer thread and one consumer
/// thread that waits for them: what a watcher of the daemon (a socket
/// client, a page's live stream) is fed through, so the engine's thread
/// never waits for a slow reader. When the reader falls behind by
/// ``capacity`` lines, the oldest are dropped and counted.
///
///     let queue = LineQueue(capacity: 4)
///     queue.push("{\"frame\":...}")
///     queue.pop(timeout: .seconds(1))   // .line("{\"frame\":...}")
public final class LineQueue: @unchecked Sendable {
    /// What ``pop(timeout:)`` gives.
    public enum Next: Equatable, Sendable {
        /// The oldest line waiting.
        case line(String)
        /// Nothing came within the timeout.
        case timedOut
        /// The queue was closed and every line before the close was taken.
        case closed
    }

    /// The most lines held; older ones are dropped when more come.
    public let capacity: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var lines: [String] = []
    private var head = 0
    private var isClosed = false
    private var droppedLines = 0

    /// An empty queue holding at most `capacity` lines (at least one).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Adds `line`; drops the oldest when ``capacity`` lines wait. Never waits.
    public func push(_ line: String) {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { return }
        if lines.count - head >= capacity {
            head += 1
            droppedLines += 1
        }
        lines.append(line)
        condition.signal()
    }

    /// The oldest line, waiting up to `timeout` for one.
    public func pop(timeout: Duration) -> Next {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18)
        while head == lines.count && !isClosed {
            if !condition.wait(until: deadline) { break }
        }
        guard head < lines.count else { return isClosed ? .closed : .timedOut }
        let line = lines[head]
        head += 1
        if head == lines.count {
            lines.removeAll(keepingCapacity: lines.capacity <= 4 * capacity)
            head = 0
        } else if head > capacity {
            lines.removeFirst(head)
            head = 0
        }
        return .line(line)
    }

    /// Ends the queue: ``pop(timeout:)`` gives what waits, then `.closed`; later pushes are dropped.
    public func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// How many lines were dropped because the reader fell behind.
    public var dropped: Int {
        condition.lock()
        defer { condition.unlock() }
        return droppedLines
    }
}
