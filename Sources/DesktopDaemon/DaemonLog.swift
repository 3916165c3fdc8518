import Foundation

/// Where the daemon writes its log: one line per fired action, failure,
/// dropped action, reload or warning, each starting with `gestures: `.
public struct DaemonLog: Sendable {
    private let sink: @Sendable (String) -> Void

    /// A log that hands each line (without the prefix and newline) to `sink`.
    public init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// Writes `line`.
    public func write(_ line: String) { sink(line) }

    /// Standard error, one `write` per line so lines from threads never mix.
    public static let standardError = DaemonLog { line in
        let bytes = Array(("gestures: " + line.replacingOccurrences(of: "\n", with: " ") + "\n").utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }
}
