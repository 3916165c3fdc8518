import Foundation

/// A regular expression from an untrusted source, run under hard limits
/// inside the engine that runs it.
///
/// `PatternMatcher` is the only code in the package that runs a regular
/// expression. It compiles with `NSRegularExpression` (ICU syntax), so the
/// pattern that is accepted is exactly the pattern that runs, and it never
/// screens the pattern text: the limits live in the engine's own progress
/// callback.
///
/// A pattern must match the whole value, like the HTML `pattern` attribute:
///
/// ```swift
/// let digits = try PatternMatcher("[0-9]+")
/// digits.matches("2024")    // .matched
/// digits.matches("2024a")   // .notMatched
/// ```
///
/// Limits, all checked by the engine run itself:
/// - a value longer than ``maximumValueLength`` UTF-16 code units fails as
///   ``Outcome/tooLong`` without being matched;
/// - one match stops after ``timeLimit`` (20 ms) or at the caller's deadline,
///   whichever comes first, and fails as ``Outcome/timedOut``;
/// - a pattern stopped by its own 20 ms limit is remembered (bounded memory,
///   shared by every matcher in the process) and fails later values at once.
///
/// - Complexity: one match is bounded by ``timeLimit`` of wall-clock time.
public struct PatternMatcher: Sendable {
    /// The longest value, in UTF-16 code units, that is matched at all: 1,000.
    public static let maximumValueLength = 1_000

    /// The longest one match may run: 20 ms.
    public static let timeLimit: Duration = .milliseconds(20)

    /// The pattern as written by its author, before anchoring.
    public let pattern: String

    /// The pattern wrapped so that it can only match the whole value.
    private let anchored: NSRegularExpression

    /// Where slow patterns are remembered; `SlowPatternMemory.shared` outside tests.
    private let slowPatterns: SlowPatternMemory

    /// Compiles `pattern` with ICU syntax; throws ``InvalidPattern`` saying why
    /// when ICU rejects it.
    public init(_ pattern: String) throws(InvalidPattern) {
        try self.init(pattern, slowPatterns: .shared)
    }

    /// Compiles `pattern`, remembering slow patterns in `slowPatterns` (a seam for tests).
    init(_ pattern: String, slowPatterns: SlowPatternMemory) throws(InvalidPattern) {
        self.pattern = pattern
        self.slowPatterns = slowPatterns
        self.anchored = try Self.compileAnchored(pattern)
    }

    /// Matches `value` as a whole against the pattern, stopping after
    /// ``timeLimit`` or at `deadline`, whichever comes first.
    ///
    /// ```swift
    /// try PatternMatcher("(a|a)+").matches(String(repeating: "a", count: 40) + "!")
    /// // .timedOut, after about 20 ms
    /// ```
    ///
    /// - Complexity: at most ``timeLimit`` of wall-clock time, plus one check of
    ///   the slow-pattern memory.
    public func matches(_ value: String, deadline: ContinuousClock.Instant? = nil) -> Outcome {
        let length = value.utf16.count
        guard length <= Self.maximumValueLength else { return .tooLong }
        let start = ContinuousClock.now
        if let deadline, deadline <= start { return .timedOut }
        if slowPatterns.contains(pattern) { return .timedOut }

        let ownDeadline = start + Self.timeLimit
        let stopAt = deadline.map { min($0, ownDeadline) } ?? ownDeadline
        var matched = false
        var stopped = false
        anchored.enumerateMatches(
            in: value,
            options: [.reportProgress, .anchored],
            range: NSRange(location: 0, length: length)
        ) { result, _, stop in
            if result != nil {
                // Anchored at both ends, so any match is a whole-value match.
                matched = true
                stop.pointee = true
            } else if ContinuousClock.now >= stopAt {
                stopped = true
                stop.pointee = true
            }
        }
        if matched { return .matched }
        guard stopped else { return .notMatched }
        if stopAt == ownDeadline { slowPatterns.remember(pattern) }
        return .timedOut
    }
}

extension PatternMatcher {
    /// What one ``PatternMatcher/matches(_:deadline:)`` call found.
    public enum Outcome: Sendable, Hashable, CustomStringConvertible {
        /// The whole value matches the pattern.
        case matched
        /// The engine finished and the value does not match.
        case notMatched
        /// The engine was stopped by the 20 ms limit or the caller's deadline,
        /// or the pattern is remembered as slow; the value fails.
        case timedOut
        /// The value is longer than ``PatternMatcher/maximumValueLength`` and
        /// was not matched; the value fails.
        case tooLong

        /// A few words for logs and messages: `matched`, `timed out`, ...
        public var description: String {
            switch self {
            case .matched: "matched"
            case .notMatched: "not matched"
            case .timedOut: "timed out"
            case .tooLong: "too long"
            }
        }
    }
}

extension PatternMatcher {
    /// Compiles `pattern` alone, then wrapped as `\A(?:pattern)\z`.
    ///
    /// Anchoring by wrapping, not by comparing the match range with the value:
    /// ICU returns the first match in priority order, so `a|ab` finds `a` in
    /// `ab` and a range check would wrongly reject a value the pattern can
    /// match whole. `\z` (not `$`) keeps a trailing newline from being ignored.
    ///
    /// The pattern is first compiled on its own, so its own parentheses are
    /// balanced and it cannot close the wrapper's group early. When the suffix
    /// is swallowed (an open `\Q` quote, or an `(?x)` comment running to the
    /// end), the wrapper's group stays open and ICU rejects the wrapped text;
    /// two more suffixes, `\n)` ending a comment and `\E)` ending a quote, are
    /// then tried. A wrapped form is accepted only when ICU compiles it and it
    /// has the same number of capture groups as the pattern alone.
    ///
    /// The empty pattern, which Foundation refuses to compile on its own,
    /// wraps to `\A(?:)\z` and matches only the empty value, as in HTML.
    static func compileAnchored(_ pattern: String) throws(InvalidPattern) -> NSRegularExpression {
        var groups = 0
        if !pattern.isEmpty {
            do {
                groups = try NSRegularExpression(pattern: pattern).numberOfCaptureGroups
            } catch {
                throw InvalidPattern(rejectedByICU: pattern)
            }
        }
        for suffix in [")\\z", "\n)\\z", "\\E)\\z"] {
            guard let wrapped = try? NSRegularExpression(pattern: "\\A(?:" + pattern + suffix),
                wrapped.numberOfCaptureGroups == groups
            else { continue }
            return wrapped
        }
        throw InvalidPattern(
            pattern: pattern,
            reason: "it cannot be anchored to the whole value (an open \\Q quote or comment runs to its end)"
        )
    }
}
