/// Arithmetic on event times (``InputEvent/microseconds``) that never traps.
///
/// A recording may hold any 64-bit time, in any order: a frame near
/// `Int64.max` followed by one near `Int64.min` is valid input. Every
/// difference, sum and conversion of event times goes through here, and
/// saturates at the ends of `Int64` instead of overflowing: the time from
/// `Int64.min` to `Int64.max` is `Int64.max` microseconds (about 292,000
/// years), which is as good as infinite for gestures.
///
///     EventTime.microseconds(from: .max, to: .min)   // -9223372036854775808 (Int64.min)
///     EventTime.duration(from: 1_000, to: 4_000)     // .milliseconds(3)
public enum EventTime {
    /// `end - start` in microseconds, saturated to `Int64`'s range.
    public static func microseconds(from start: Int64, to end: Int64) -> Int64 {
        let (difference, overflow) = end.subtractingReportingOverflow(start)
        guard overflow else { return difference }
        return end > start ? .max : .min
    }

    /// `time + offset` in microseconds, saturated to `Int64`'s range.
    public static func adding(_ offset: Int64, to time: Int64) -> Int64 {
        let (sum, overflow) = time.addingReportingOverflow(offset)
        guard overflow else { return sum }
        return offset > 0 ? .max : .min
    }

    /// The time from `start` to `end` (negative when `end` is earlier),
    /// saturated as ``microseconds(from:to:)`` is.
    public static func duration(from start: Int64, to end: Int64) -> Duration {
        .microseconds(microseconds(from: start, to: end))
    }

    /// The time from `start` to `end` in seconds, for printing.
    public static func seconds(from start: Int64, to end: Int64) -> Double {
        Double(microseconds(from: start, to: end)) / 1e6
    }

    /// The longest time any two event times can be apart, in milliseconds:
    /// `Int64.max` microseconds (about 292,000 years). A time window given
    /// in milliseconds (`render --from`, `--to`) is at most this.
    public static let maximumMilliseconds = Double(Int64.max) / 1000

    /// `milliseconds` as a duration, saturated to ±``maximumMilliseconds``
    /// (NaN is 0): `Duration.milliseconds(_:)` traps past `Int64`'s range.
    public static func duration(milliseconds: Double) -> Duration {
        guard !milliseconds.isNaN else { return .zero }
        let clamped = min(max(milliseconds, -maximumMilliseconds), maximumMilliseconds)
        // Whole microseconds (a finer part of a millisecond is no time for a window).
        let microseconds = (clamped * 1000).rounded()
        return .microseconds(microseconds >= 0x1p63 ? .max : microseconds < -0x1p63 ? .min : Int64(microseconds))
    }

    /// `duration` in whole microseconds, rounded up (so that advancing to
    /// the result reaches it), saturated to `Int64`'s range.
    public static func microseconds(roundingUp duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let whole = attoseconds / 1_000_000_000_000
        let part = whole + (attoseconds > whole * 1_000_000_000_000 ? 1 : 0)
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        guard !overflow else { return seconds > 0 ? .max : .min }
        return adding(part, to: scaled)
    }
}
