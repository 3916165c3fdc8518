import InputChecks

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
/// - Complexity: memory is O(total length of the sequences): their shared
///   prefixes are stored once, in a trie. ``feed(_:at:)`` is O(n) and
///   ``advance(to:)`` O(1), where n is the length of the longest sequence
///   (an attempt is never longer; a swipe that breaks the attempt follows the
///   trie's suffix links to the longest run that still begins a sequence).
public struct SwipeSequenceMatcher: Hashable, Sendable {
    /// The most directions a sequence read from a file may have: 32. The
    /// matcher itself takes any length; every reader (the engine and daemon
    /// configurations, `--sequences` files) refuses longer sequences with
    /// ``lengthProblem(count:)``.
    public static let maximumLength = 32
    /// The most sequences a file may define: 100.
    public static let maximumCount = 100

    /// What a reader says about a sequence of `count` directions, more than
    /// ``maximumLength``: `has 40 directions, over the limit of 32`.
    public static func lengthProblem(count: Int) -> String {
        "has \(count) directions, over the limit of \(maximumLength)"
    }

    /// What a reader says about `count` sequences, more than ``maximumCount``.
    public static func countProblem(count: Int) -> String {
        "has \(count) sequences, over the limit of \(maximumCount)"
    }

    /// A sequence of directions and the name it fires under.
    ///
    /// Decoded from `{"name": "konami", "directions": ["up", "up", "down"]}`
    /// with at most ``SwipeSequenceMatcher/maximumLength`` directions.
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

        private enum CodingKeys: String, CodingKey, CaseIterable { case name, directions }

        /// The keys a sequence holds: `name` and `directions`.
        private static let keys = ClosedWords.keys(CodingKeys.self)

        /// Reads a sequence, refusing unknown keys, and more than
        /// ``SwipeSequenceMatcher/maximumLength`` directions before reading them.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.object(keyedBy: CodingKeys.self, otherwise: "must be an object with \"name\" and \"directions\"")
            if let unknown = decoder.unknownKeys(allowed: Self.keys).first { throw unknown }
            guard let name = try c.decodeText(forKey: .name) else {
                throw InvalidValue(codingPath: c.codingPath + [CodingKeys.name], message: "is required")
            }
            guard
                let directions = try c.decodeList(
                    SwipeDirection.self, forKey: .directions, of: "directions", limit: SwipeSequenceMatcher.maximumLength,
                    tooMany: SwipeSequenceMatcher.lengthProblem)
            else {
                throw InvalidValue(codingPath: c.codingPath + [CodingKeys.directions], message: "is required")
            }
            self.init(name: name, directions: directions)
        }

        /// The sequences listed at `key`, at most ``SwipeSequenceMatcher/maximumCount``
        /// (more are refused before any is read), or nil when absent or null:
        /// the one reader of a list of sequences (the engine's configuration,
        /// the daemon's `sequences`, `--sequences` files). With `problems`,
        /// a sequence that cannot be read is recorded there and the rest are read.
        public static func decodeList<Key: CodingKey>(
            from c: KeyedDecodingContainer<Key>, forKey key: Key, problems: inout DecodingProblems
        ) throws -> [NamedSequence]? {
            try c.decodeList(
                NamedSequence.self, forKey: key, of: "sequences", limit: SwipeSequenceMatcher.maximumCount,
                tooMany: SwipeSequenceMatcher.countProblem, problems: &problems)
        }

        /// The sequences at `key`, as ``decodeList(from:forKey:problems:)``
        /// reads them, the first problem thrown.
        public static func decodeList<Key: CodingKey>(from c: KeyedDecodingContainer<Key>, forKey key: Key) throws -> [NamedSequence]? {
            try c.decodeList(
                NamedSequence.self, forKey: key, of: "sequences", limit: SwipeSequenceMatcher.maximumCount,
                tooMany: SwipeSequenceMatcher.countProblem)
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
                "swipe sequence \(Excerpt.quoted(name)) has no directions; give it at least one."
            case .duplicateName(let name):
                "more than one swipe sequence is called \(Excerpt.quoted(name)); rename all but one."
            case .sameDirections(let first, let second):
                "swipe sequences \(Excerpt.quoted(first)) and \(Excerpt.quoted(second)) have the same directions; remove one."
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

    /// Every prefix of every sequence, each once.
    private let trie: Trie

    /// The attempt in progress: a prefix of at least one sequence, or empty.
    private var attempt: [Swipe] = []
    /// The trie node of the attempt's directions.
    private var node = Trie.root
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
        trie = Trie(sequences.map(\.directions))
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
        if let next = trie.child(of: node, direction) {
            attempt.append(swipe)
            node = next
        } else if let waiting = completedMatch() {
            // The swipe does not continue any sequence that extends the one
            // waiting, so that one fires and the swipe starts afresh.
            matches.append(waiting)
            attempt = []
            node = Trie.root
            restart(with: swipe, at: now)
        } else {
            restart(with: swipe, at: now)
        }
        if let match = completedMatch(), !trie.isExtendable(node) {
            matches.append(match)
            attempt = []
            node = Trie.root
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
        node = Trie.root
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
        node = Trie.root
        return match.map { [$0] } ?? []
    }

    /// The match the attempt in progress makes when it is a whole sequence.
    private func completedMatch() -> Match? {
        guard let first = attempt.first, let last = attempt.last,
            let index = trie.sequence(at: node)
        else { return nil }
        return Match(
            name: sequences[index].name, directions: sequences[index].directions,
            start: first.time, end: last.time)
    }

    /// Continues with the longest run of the latest swipes, ending with
    /// `swipe` (which does not continue the attempt), that begins some
    /// sequence and fits in the timeout at `now`; or with nothing.
    ///
    /// The runs are the attempt's suffixes that are prefixes of a sequence,
    /// longest first (the trie's suffix links), each followed by `swipe`.
    private mutating func restart(with swipe: Swipe, at now: Duration) {
        var candidate = attempt.isEmpty ? nil : trie.suffixLink(of: node)
        if attempt.isEmpty { candidate = Trie.root }
        while let suffix = candidate {
            if let next = trie.child(of: suffix, swipe.direction) {
                let kept = trie.depth(of: suffix)
                let firstTime = kept == 0 ? swipe.time : attempt[attempt.count - kept].time
                if now - firstTime < timeout {
                    attempt = Array(attempt.suffix(kept)) + [swipe]
                    node = next
                    return
                }
            }
            candidate = suffix == Trie.root ? nil : trie.suffixLink(of: suffix)
        }
        attempt = []
        node = Trie.root
    }
}

extension SwipeSequenceMatcher {
    /// The sequences' directions with shared prefixes stored once: node 0 is
    /// the empty prefix, each other node one direction longer than its parent.
    ///
    /// - Complexity: built in O(total length × 8); memory O(total length).
    struct Trie: Hashable, Sendable {
        static let root = 0

        /// For each node, its child in each compass direction (-1 for none), 8 per node.
        private var children: [Int32] = []
        /// For each node, the index of the sequence it completes, or -1.
        private var completes: [Int32] = []
        /// For each node, whether some longer sequence extends it.
        private var extendable: [Bool] = []
        /// For each node, how many directions lead to it.
        private var depths: [Int32] = []
        /// For each node, the node of its longest proper suffix that is also
        /// a prefix of some sequence (the root for none).
        private var links: [Int32] = []

        init(_ sequences: [[SwipeDirection]]) {
            addNode(depth: 0)
            for (index, directions) in sequences.enumerated() {
                var node = Self.root
                for direction in directions {
                    let slot = node * 8 + direction.compassIndex
                    if children[slot] < 0 {
                        extendable[node] = true
                        children[slot] = Int32(depths.count)
                        addNode(depth: depths[node] + 1)
                    } else {
                        extendable[node] = true
                    }
                    node = Int(children[slot])
                }
                if completes[node] < 0 { completes[node] = Int32(index) }
            }
            // Suffix links, breadth first: a child's link is its parent's link's
            // child in the same direction, or that node's link's, ..., or the root.
            var queue: [Int] = [Self.root]
            var head = 0
            while head < queue.count {
                let node = queue[head]
                head += 1
                for direction in 0..<8 {
                    let child = children[node * 8 + direction]
                    guard child >= 0 else { continue }
                    var link = node == Self.root ? -1 : Int(links[node])
                    while link >= 0, children[link * 8 + direction] < 0 {
                        link = link == Self.root ? -1 : Int(links[link])
                    }
                    links[Int(child)] = link >= 0 ? children[link * 8 + direction] : Int32(Self.root)
                    queue.append(Int(child))
                }
            }
        }

        private mutating func addNode(depth: Int32) {
            children += [Int32](repeating: -1, count: 8)
            completes.append(-1)
            extendable.append(false)
            depths.append(depth)
            links.append(Int32(Self.root))
        }

        /// The node one `direction` further than `node`, if some sequence goes there.
        func child(of node: Int, _ direction: SwipeDirection) -> Int? {
            let child = children[node * 8 + direction.compassIndex]
            return child >= 0 ? Int(child) : nil
        }

        /// The index of the sequence `node` completes, if any.
        func sequence(at node: Int) -> Int? {
            completes[node] >= 0 ? Int(completes[node]) : nil
        }

        /// Whether a longer sequence extends `node`.
        func isExtendable(_ node: Int) -> Bool { extendable[node] }

        /// How many directions lead to `node`.
        func depth(of node: Int) -> Int { Int(depths[node]) }

        /// The node of the longest proper suffix of `node` that begins some sequence.
        func suffixLink(of node: Int) -> Int { Int(links[node]) }
    }
}
