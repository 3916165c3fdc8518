import Synchronization
import Validation

/// What one configuration's application patterns gave against the names
/// of focused windows, kept so that a focus is matched once, not once per
/// gesture nor once per binding that repeats a pattern: keyed by (pattern,
/// subject), an application id, an X11 instance or a title.
///
/// Every outcome is kept, a pattern stopped by the decision's budget
/// (``DaemonConfiguration/Limits/focusMatchingTime``) too: the same window
/// gets the same answer on every gesture, and never costs the budget twice.
/// Shared by the copies of a configuration; a reloaded one starts empty.
/// Safe to use from many threads at once.
///
/// - Complexity: O(1) on average a lookup; at most ``capacity`` outcomes
///   are kept (past it the memory starts again), each of at most
///   ``DaemonConfiguration/Limits/maximumPatternLength`` and
///   `PatternMatcher.maximumValueLength` characters.
public final class FocusMatches: Sendable {
    /// The most outcomes kept: 2,048.
    public static let capacity = 2_048

    private struct Key: Hashable {
        let pattern: String
        let subject: String
    }
    private let outcomes = Mutex<[Key: PatternMatcher.Outcome]>([:])

    /// An empty memory.
    public init() {}

    /// How `matcher` matches `subject`: the outcome kept, else the matcher's
    /// own (run until `deadline` at the latest), kept for next time.
    public func outcome(of matcher: PatternMatcher, against subject: String, deadline: ContinuousClock.Instant) -> PatternMatcher.Outcome {
        // A value too long to match is refused by the matcher at once, and not worth the memory.
        guard subject.utf16.count <= PatternMatcher.maximumValueLength else { return matcher.matches(subject, deadline: deadline) }
        let key = Key(pattern: matcher.pattern, subject: subject)
        if let known = outcomes.withLock({ $0[key] }) { return known }
        let outcome = matcher.matches(subject, deadline: deadline)
        outcomes.withLock { outcomes in
            if outcomes.count >= Self.capacity { outcomes.removeAll(keepingCapacity: true) }
            outcomes[key] = outcome
        }
        return outcome
    }

    /// How many outcomes are kept.
    public var count: Int { outcomes.withLock { $0.count } }
}
