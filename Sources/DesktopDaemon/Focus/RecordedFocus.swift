import Foundation
import GestureTraces
import InputChecks
import StructuredDocuments

/// A focus source that replays timed focus changes: the test source of
/// `gestures run --replay TRACE --focus FILE`, so that a replay of
/// application bindings is reproducible.
///
/// The file has one JSON object a line, in time order, in the form
/// `gestures focus --format json` prints (only `time_ms` and `app` are required):
///
///     {"time_ms":0,"app":"firefox","title":"Mozilla Firefox"}
///     {"time_ms":1500,"app":"foot","title":"~"}
///     {"time_ms":3000,"app":null}
///
/// A change holds from its time until the next; before the first, and after
/// `"app": null`, nothing has the focus. Times are on each recording's own
/// clock (milliseconds from its start).
public struct RecordedFocus: FocusSource {
    /// One change: from `time` on, `window` has the focus (nil: none).
    public struct Change: Hashable, Sendable {
        /// When, on the recording's clock.
        public var time: Duration
        /// The window focused from then on, or nil.
        public var window: FocusedWindow?

        /// A change at `time` to `window`.
        public init(time: Duration, window: FocusedWindow?) {
            self.time = time
            self.window = window
        }
    }

    /// `recorded`.
    public var name: String { "recorded" }
    /// The changes, in time order.
    public let changes: [Change]

    /// The most changes a file may hold: 100,000.
    public static let maximumChanges = 100_000
    /// The largest file read: 16 MiB.
    public static let maximumFileBytes = 16 << 20

    /// A source replaying `changes`, which must be in time order.
    public init(_ changes: [Change]) {
        self.changes = changes
    }

    /// The window of the latest change at or before `time`.
    ///
    /// - Complexity: O(log *n*) for *n* changes.
    public func focusedWindow(at time: Duration) -> FocusedWindow? {
        var low = 0
        var high = changes.count
        while low < high {
            let middle = (low + high) / 2
            if changes[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : changes[low - 1].window
    }

    /// A problem with a focus file: one sentence with the file and line.
    public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The sentence.
        public var description: String
    }

    /// Reads the focus file at `path`.
    public static func load(contentsOf path: String) throws(ReadError) -> RecordedFocus {
        let data: Data
        do { data = try InputFile.read(path, maximumBytes: maximumFileBytes) } catch {
            throw ReadError(description: "cannot read the focus file \(error.description).")
        }
        return try parse(data, file: path)
    }

    /// Reads focus changes from `data` (the text of `file`, for messages).
    public static func parse(_ data: Data, file: String) throws(ReadError) -> RecordedFocus {
        var changes: [Change] = []
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (offset, line) in lines.enumerated() {
            let number = offset + 1
            func fail(_ message: String) -> ReadError { ReadError(description: "\(file): line \(number): \(message).") }
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) { continue }
            guard changes.count < maximumChanges else { throw fail("more than \(maximumChanges) focus changes") }
            let node: DocumentNode
            do { node = try DocumentNode.parse(json: Data(line)) } catch { throw fail("not a JSON object: \(error.message)") }
            guard case .object(let members) = node else { throw fail("not a JSON object but \(node.kindDescription)") }
            let known = ["time_ms", "app", "instance", "title", "source"]
            for member in members where !known.contains(member.key) {
                throw fail(
                    "unknown key \(Excerpt.quoted(member.key))\(Suggestion.hint(for: member.key, in: known)) (keys: \(known.joined(separator: ", ")))"
                )
            }
            guard case .number(let milliseconds, _)? = node["time_ms"], milliseconds >= 0, milliseconds <= 1e12 else {
                throw fail("time_ms must be a number of milliseconds from 0 to 10^12")
            }
            let time = Duration.nanoseconds(Int64((milliseconds * 1e6).rounded()))
            if let last = changes.last, time < last.time {
                throw fail("time_ms \(milliseconds) is before the previous line's: keep the changes in time order")
            }
            func text(_ key: String) throws(ReadError) -> String? {
                switch node[key] {
                case nil, .null?: return nil
                case .string(let value)?: return value
                case let other?: throw fail("\(key) must be a string, not \(other.kindDescription)")
                }
            }
            let window: FocusedWindow?
            switch node["app"] {
            case nil: throw fail("app is required: the focused application id, or null for none")
            case .null?: window = nil
            case .string(let app)?:
                window = FocusedWindow(appID: app, instance: try text("instance"), title: try text("title") ?? "", source: "recorded")
            case let other?: throw fail("app must be a string or null, not \(other.kindDescription)")
            }
            changes.append(Change(time: time, window: window))
        }
        return RecordedFocus(changes)
    }
}
