import Foundation
import GestureRecognition
import InputChecks
import TouchInput

/// Where the daemon writes its log: one line per fired action, failure,
/// dropped action, reload or warning, each starting with `gestures: `.
public struct DaemonLog: Sendable {
    private let sink: @Sendable (String) -> Void

    /// A log that hands each line (without the prefix and newline) to `sink`.
    public init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// Writes `line`, on one line and as text only: newlines become spaces
    /// and other control characters (from a file name, a template name or a
    /// command the configuration holds) are escaped (``Excerpt/printable(_:)``),
    /// so nothing written to the log can move the cursor or set a title.
    public func write(_ line: String) { sink(Excerpt.printable(line.replacingOccurrences(of: "\n", with: " "))) }

    /// Standard error, one `write` per line so lines from threads never mix.
    public static let standardError = DaemonLog { line in
        let bytes = Array(("gestures: " + line + "\n").utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }

    /// The log line for a mouse decision of the device `device` (its name
    /// and node, or its trace), or nil for an accepted stroke (its event is
    /// delivered, and a binding it fires logs itself). Live and replayed
    /// mice log the same line but for the bracket:
    /// `mouse rejected, 412 counts: below the threshold: circle scores 0.62 of 0.75 [Logitech USB Optical Mouse, /dev/input/event7, at 1212 ms]`.
    public static func line(for decision: MouseDecision, on device: String) -> String? {
        guard decision.kind != .stroke else { return nil }
        let length = decision.lengthCounts.map { ", \(GestureEvent.decimalText($0)) counts" } ?? ""
        let time = GestureEvent.decimalText(MouseDecision.milliseconds(decision.time))
        return "mouse \(decision.kind.rawValue)\(length): \(decision.reason) [\(device), at \(time) ms]"
    }
}
