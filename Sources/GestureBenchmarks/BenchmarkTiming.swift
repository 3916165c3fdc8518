/// How the benchmarks time their loops: the fastest of several passes (the
/// one least disturbed by other work on the machine), with the loop's result
/// kept so that the optimiser cannot drop the work.
///
///     let pass = BenchmarkTiming.fastest(passes: 3) { events.reduce(0) { $0 &+ Int($1.value) } }
///     pass.seconds   // 0.0123
public enum BenchmarkTiming {
    /// The time of the fastest pass, and what that pass's work computed.
    public struct Pass: Sendable, Hashable {
        /// The fastest pass, in seconds.
        public var seconds: Double
        /// The value the work returned in the fastest pass (a checksum).
        public var checksum: Int
    }

    /// Runs `body` `passes` times (at least once) and returns the fastest.
    public static func fastest(passes: Int, _ body: () throws -> Int) rethrows -> Pass {
        let clock = ContinuousClock()
        var best = Pass(seconds: .infinity, checksum: 0)
        for _ in 0..<max(passes, 1) {
            var checksum = 0
            let elapsed = try clock.measure { checksum = try body() }
            let seconds = Self.seconds(elapsed)
            if seconds < best.seconds { best = Pass(seconds: seconds, checksum: checksum) }
        }
        return best
    }

    /// `duration` in seconds.
    public static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// `count` items in `seconds`, per second (0 when no time passed).
    public static func rate(_ count: Int, seconds: Double) -> Double {
        seconds > 0 ? Double(count) / seconds : 0
    }
}
