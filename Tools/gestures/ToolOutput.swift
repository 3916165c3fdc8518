import Foundation
import GestureRecognition

/// Writes `message` and a newline to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// `value` rounded to 4 decimals without trailing zeros, as every score is
/// written (`1`, not `1.0`; the daemon's verdicts use the same formatter).
func rounded(_ value: Double) -> String {
    StrokeVerdict.decimal(value, digits: 4)
}

/// `count` and the noun, singular for one: `1 template`, `3 templates`,
/// `2 matches` with `plural: "matches"`.
func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
