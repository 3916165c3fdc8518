/// Recognises named sequences of swipes, such as up, up, down, down, from
/// completed swipes and their timestamps.
///
/// Time is a `Duration` since an origin the caller chooses (a monotonic clock
/// at start-up, the first event of a recording, ...); the matcher never reads a
/// clock, so a replayed recording gives the same matches as the live input.
/// Timestamps should not decrease: an earlier one is taken as the latest time
/// seen so far.
///
/// The rules:
/// - Consecutive swipes of a sequence must come less than `maximumGap` apart,
///   and its last swipe less than `timeout` after its first.
/// - A sequence fires as soon as its last swipe arrives, unless it is a prefix
///   of a longer one. Then it waits: it fires once `maximumGap` passes without a
///   continuation (seen by ``advance(to:)`` or by the next swipe) or `timeout`
///   since its first swipe passes, or when the next swipe continues none of the
///   longer sequences. A swipe that continues a longer sequence abandons the
///   shorter one: the user has committed to the longer one.
/// - A swipe that continues no sequence ends the attempt in progress. The
///   matcher then resumes from the longest run of the latest swipes, ending
///   with this one, that begins some sequence, so the mismatching swipe may
///   start a new sequence. Swipes that belong to a match that has fired are
///   never reused.
/// - One attempt is followed at a time; a sequence that would only match in
///   the middle of another attempt does not fire.
///
///     var matcher = SwipeSequenceMatcher([
///         .init(name: "back", directions: [.left]),
///         .init(name: "up-up", directions: [.up, .up]),
///         .init(name: "konami", directions: [.up, .up, .down, .down]),
///     ], maximumGap: .milliseconds(800), timeout: .seconds(4))!
///     matcher.feed(.left, at: .milliseconds(0))     // [back]
///     matcher.feed(.up, at: .milliseconds(1000))    // []
///     matcher.feed(.up, at: .milliseconds(1400))    // [] (up-up waits for a continuation)
///     matcher.advance(to: .milliseconds(2200))      // [up-up] (800 ms passed)
///
/// - Complexity: ``feed(_:at:)`` is O(n²) and ``advance(to:)`` O(n), where n
///   is the length of the longest sequence (an attempt is never longer; each
///   candidate run is looked up in a set of prefixes).
public struct SwipeSequenceMatcher: Hashable, Sendable {
    /// A sequence of directions and the name it fires under.
    public struct NamedSequence: Hashable, Sendable, Codable {
        /// The name a ``Match`` reports.
        public var name: String
        /// The swipes, in order.
        public var directions: [SwipeDirection]

        /// A sequence `directions` named `name`.
        public init(name: String, directions: [SwipeDirection]) {
            self.name = name
            self.directions = directions
        }
    }

    /// A sequence that fired.
    public struct Match: Hashable, Sendable, Codable {
        /// The name of the sequence.
        public var name: String
        /// Its directions.
        public var directions: [SwipeDirection]
        /// The timestamp of its first swipe.
        public var start: Duration
        /// The timestamp of its last swipe (a waiting prefix fires later than this).
        public var end: Duration

        /// A match of `name` from `start` to `end`.
        public init(name: String, directions: [SwipeDirection], start: Duration, end: Duration) {
            self.name = name
            self.directions = directions
            self.start = start
            self.end = end
        }
    }

    /// Why a set of sequences and limits cannot make a matcher.
    public enum Problem: Hashable, Sendable, CustomStringConvertible {
        /// The sequence at `index` has an empty name.
        case emptyName(index: Int)
        /// The sequence `name` has no directions.
        case emptySequence(name: String)
        /// More than one sequence is called `name`.
        case duplicateName(String)
        /// Two sequences have the same directions, so a match would be ambiguous.
        case sameDirections(String, String)
        /// The maximum gap is zero or negative.
        case nonPositiveMaximumGap(Duration)
        /// The timeout is zero or negative.
        case nonPositiveTimeout(Duration)

        public var description: String {
            switch self {
            case .emptyName(let index):
                "swipe sequence \(index + 1) has an empty name; give it a name."
            case .emptySequence(let name):
                "swipe sequence '\(name)' has no directions; give it at least one."
            case .duplicateName(let name):
                "more than one swipe sequence is called '\(name)'; rename all but one."
            case .sameDirections(let first, let second):
                "swipe sequences '\(first)' and '\(second)' have the same directions; remove one."
            case .nonPositiveMaximumGap(let gap):
                "the maximum gap between swipes is \(gap); it must be positive."
            case .nonPositiveTimeout(let timeout):
                "the swipe sequence timeout is \(timeout); it must be positive."
            }
        }
    }

    /// A swipe of the attempt in progress.
    private struct Swipe: Hashable, Sendable {
        var direction: SwipeDirection
        var time: Duration
    }

    /// The sequences, in the order given.
    public let sequences: [NamedSequence]
    /// Consecutive swipes of a sequence must come less than this apart.
    public let maximumGap: Duration
    /// A sequence's last swipe must come less than this after its first.
    public let timeout: Duration

    /// Every non-empty prefix of every sequence, whole sequences included.
    private let prefixes: Set<[SwipeDirection]>
    /// Prefixes that some longer sequence extends.
    private let extendable: Set<[SwipeDirection]>
    /// The index in `sequences` of each sequence's directions.
    private let sequenceIndex: [[SwipeDirection]: Int]

    /// The attempt in progress: a prefix of at least one sequence, or empty.
    private var attempt: [Swipe] = []
    /// The latest timestamp seen, so that time never goes backwards.
    private var latestTime: Duration?

    /// What is wrong with `sequences`, `maximumGap` and `timeout`, or nothing
    /// when they make a matcher.
    ///
    ///     SwipeSequenceMatcher.problems(in: [.init(name: "x", directions: [])])
    ///     // [.emptySequence(name: "x")]
    public static func problems(
        in sequences: [NamedSequence],
        maximumGap: Duration = defaultMaximumGap,
        timeout: Duration = defaultTimeout
    ) -> [Problem] {
        var problems: [Problem] = []
        var names: Set<String> = []
        var reportedNames: Set<String> = []
        var owners: [[SwipeDirection]: String] = [:]
        for (index, sequence) in sequences.enumerated() {
            if sequence.name.isEmpty { problems.append(.emptyName(index: index)) }
            if sequence.directions.isEmpty { problems.append(.emptySequence(name: sequence.name)) }
            if !names.insert(sequence.name).inserted, reportedNames.insert(sequence.name).inserted {
                problems.append(.duplicateName(sequence.name))
            }
            if !sequence.directions.isEmpty {
                if let owner = owners[sequence.directions] {
                    problems.append(.sameDirections(owner, sequence.name))
                } else {
                    owners[sequence.directions] = sequence.name
                }
            }
        }
        if maximumGap <= .zero { problems.append(.nonPositiveMaximumGap(maximumGap)) }
        if timeout <= .zero { problems.append(.nonPositiveTimeout(timeout)) }
        return problems
    }

    /// The default maximum gap between swipes, 800 ms.
    public static let defaultMaximumGap: Duration = .milliseconds(800)
    /// The default timeout of a whole sequence, 4 s.
    public static let defaultTimeout: Duration = .seconds(4)

    /// A matcher for `sequences`, or `nil` when ``problems(in:maximumGap:timeout:)``
    /// finds any (empty or duplicate names, empty or identical sequences,
    /// non-positive limits). No sequences at all is allowed: nothing fires.
    public init?(
        _ sequences: [NamedSequence],
        maximumGap: Duration = defaultMaximumGap,
        timeout: Duration = defaultTimeout
    ) {
        guard Self.problems(in: sequences, maximumGap: maximumGap, timeout: timeout).isEmpty else {
            return nil
        }
        self.sequences = sequences
        self.maximumGap = maximumGap
        self.timeout = timeout
        var prefixes: Set<[SwipeDirection]> = []
        var extendable: Set<[SwipeDirection]> = []
        var sequenceIndex: [[SwipeDirection]: Int] = [:]
        for (index, sequence) in sequences.enumerated() {
            sequenceIndex[sequence.directions] = index
            for length in 1...sequence.directions.count {
                let prefix = Array(sequence.directions.prefix(length))
                prefixes.insert(prefix)
                if length < sequence.directions.count { extendable.insert(prefix) }
            }
        }
        self.prefixes = prefixes
        self.extendable = extendable
        self.sequenceIndex = sequenceIndex
    }

    /// The directions of the attempt in progress: a prefix of at least one
    /// sequence (a whole sequence when it waits for a continuation), or empty.
    public var progress: [SwipeDirection] { attempt.map(\.direction) }

    /// The time from which the attempt in progress can no longer continue, or
    /// `nil` when there is none: `advance(to:)` with this time or later fires a
    /// waiting sequence or drops an unfinished one. Schedule a timer for it.
    public var expiry: Duration? {
        guard let first = attempt.first, let last = attempt.last else { return nil }
        return min(last.time + maximumGap, first.time + timeout)
    }

    /// Takes a completed swipe in `direction` at `time` and returns the
    /// sequences that fire, in the order they fire: at most a waiting prefix
    /// that this swipe ends (by coming too late or by not continuing it), then
    /// a sequence that this swipe completes.
    public mutating func feed(_ direction: SwipeDirection, at time: Duration) -> [Match] {
        let now = clamped(time)
        var matches = expire(at: now)
        let swipe = Swipe(direction: direction, time: now)
        // The attempt, if any, can still continue at `now`.
        if prefixes.contains(progress + [direction]) {
            attempt.append(swipe)
        } else if let waiting = completedMatch() {
            // The swipe does not continue any sequence that extends the one
            // waiting, so that one fires and the swipe starts afresh.
            matches.append(waiting)
            attempt = restarted(from: [swipe], at: now)
        } else {
            attempt = restarted(from: attempt + [swipe], at: now)
        }
        if let match = completedMatch(), !extendable.contains(progress) {
            matches.append(match)
            attempt = []
        }
        return matches
    }

    /// Lets time pass to `time` without a swipe, and returns the sequence that
    /// fires because its wait for a continuation is over, if any.
    ///
    /// An unfinished attempt whose time is up is dropped silently.
    public mutating func advance(to time: Duration) -> [Match] {
        expire(at: clamped(time))
    }

    /// Forgets the attempt in progress without firing it.
    public mutating func reset() {
        attempt = []
    }

    /// `time`, or the latest time seen when `time` is earlier; records it.
    private mutating func clamped(_ time: Duration) -> Duration {
        let now = latestTime.map { max($0, time) } ?? time
        latestTime = now
        return now
    }

    /// Ends the attempt in progress if it can no longer continue at `now`,
    /// firing it when it is a whole sequence.
    private mutating func expire(at now: Duration) -> [Match] {
        guard let expiry, now >= expiry else { return [] }
        let match = completedMatch()
        attempt = []
        return match.map { [$0] } ?? []
    }

    /// The match the attempt in progress makes when it is a whole sequence.
    private func completedMatch() -> Match? {
        guard let first = attempt.first, let last = attempt.last,
              let index = sequenceIndex[progress] else { return nil }
        return Match(
            name: sequences[index].name, directions: sequences[index].directions,
            start: first.time, end: last.time)
    }

    /// The longest suffix of `swipes` that begins some sequence and fits in
    /// the timeout at `now`, or empty. `swipes` itself is known not to begin
    /// one unless it is a single swipe.
    private func restarted(from swipes: [Swipe], at now: Duration) -> [Swipe] {
        let start = swipes.count == 1 ? 0 : 1
        for offset in start..<swipes.count {
            let suffix = swipes[offset...]
            guard now - suffix.first!.time < timeout else { continue }
            if prefixes.contains(suffix.map(\.direction)) { return Array(suffix) }
        }
        return []
    }
}
