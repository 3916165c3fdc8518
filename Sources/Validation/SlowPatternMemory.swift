import Synchronization

/// Patterns that were stopped by their own 20 ms limit, remembered so that
/// later values fail at once without running.
///
/// Keyed by the pattern text, so a matcher compiled later for the same pattern
/// (a ``FormSchema`` compiles per call) still finds it. Memory is bounded by
/// both the number of patterns and their total size; past either bound the
/// least recently used pattern is forgotten first. Safe to use from many
/// threads at once.
///
/// - Complexity: `contains` and `remember` are O(1) on average; forgetting
///   is O(*n*) in ``capacity`` and happens only when a bound is passed.
final class SlowPatternMemory: Sendable {
    /// The memory shared by every ``PatternMatcher`` made with the public initializer.
    static let shared = SlowPatternMemory()

    /// The most patterns remembered: 1,024.
    let capacity: Int
    /// The most UTF-8 bytes of pattern text remembered: 1 MiB.
    let capacityBytes: Int

    private struct State {
        var lastUse: [String: UInt64] = [:]
        var clock: UInt64 = 0
        var bytes = 0
    }

    private let state = Mutex(State())

    init(capacity: Int = 1_024, capacityBytes: Int = 1 << 20) {
        precondition(capacity > 0 && capacityBytes > 0, "SlowPatternMemory needs room for one pattern")
        self.capacity = capacity
        self.capacityBytes = capacityBytes
    }

    /// Whether `pattern` is remembered as slow; marks it as recently used.
    func contains(_ pattern: String) -> Bool {
        state.withLock { state in
            guard state.lastUse[pattern] != nil else { return false }
            state.clock += 1
            state.lastUse[pattern] = state.clock
            return true
        }
    }

    /// Remembers `pattern` as slow, forgetting the least recently used
    /// patterns while a bound is passed. A pattern larger than
    /// ``capacityBytes`` on its own is not remembered.
    func remember(_ pattern: String) {
        let size = pattern.utf8.count
        guard size <= capacityBytes else { return }
        state.withLock { state in
            state.clock += 1
            if state.lastUse.updateValue(state.clock, forKey: pattern) == nil {
                state.bytes += size
            }
            while state.lastUse.count > capacity || state.bytes > capacityBytes {
                guard let oldest = state.lastUse.min(by: { $0.value < $1.value })?.key else { break }
                state.lastUse[oldest] = nil
                state.bytes -= oldest.utf8.count
            }
        }
    }

    /// How many patterns are remembered.
    var count: Int { state.withLock { $0.lastUse.count } }
}
