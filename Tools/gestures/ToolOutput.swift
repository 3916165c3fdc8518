import Foundation

/// Writes `message` and a newline to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// `value` rounded to 4 decimals, for output.
func rounded(_ value: Double) -> Double {
    (value * 10_000).rounded() / 10_000
}

/// `count` and the noun, singular for one: `1 template`, `3 templates`,
/// `2 matches` with `plural: "matches"`.
func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
