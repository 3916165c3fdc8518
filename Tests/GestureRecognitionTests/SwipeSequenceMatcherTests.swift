import Testing

@testable import GestureRecognition

private func ms(_ milliseconds: Int) -> Duration { .milliseconds(milliseconds) }

private let gap = ms(800)
private let timeout = ms(3000)

/// A matcher with the given sequences and the limits above.
private func matcher(_ sequences: [(String, [SwipeDirection])]) -> SwipeSequenceMatcher {
    let named = sequences.map { SwipeSequenceMatcher.NamedSequence(name: $0.0, directions: $0.1) }
    guard let matcher = SwipeSequenceMatcher(named, maximumGap: gap, timeout: timeout) else {
        Issue.record("invalid sequences: \(SwipeSequenceMatcher.problems(in: named, maximumGap: gap, timeout: timeout))")
        return SwipeSequenceMatcher([], maximumGap: gap, timeout: timeout)!
    }
    return matcher
}

private let upUp: (String, [SwipeDirection]) = ("up-up", [.up, .up])
private let konami: (String, [SwipeDirection]) = ("konami", [.up, .up, .down, .down])
private let back: (String, [SwipeDirection]) = ("back", [.left])

@Suite
struct SwipeSequenceMatcherTests {
    // MARK: Firing

    @Test(arguments: SwipeDirection.allCases)
    func exactSequenceFiresOnItsLastSwipe(direction: SwipeDirection) {
        let directions = [direction, direction.opposite, direction]
        var m = matcher([("zigzag", directions)])
        #expect(m.feed(directions[0], at: ms(0)).isEmpty)
        #expect(m.feed(directions[1], at: ms(300)).isEmpty)
        let matches = m.feed(directions[2], at: ms(600))
        #expect(matches == [.init(name: "zigzag", directions: directions, start: ms(0), end: ms(600))])
        #expect(m.progress.isEmpty)
        #expect(m.expiry == nil)
    }

    @Test func prefixWaitsForTheGapThenFires() {
        var m = matcher([upUp, konami])
        #expect(m.feed(.up, at: ms(1000)).isEmpty)
        #expect(m.feed(.up, at: ms(1500)).isEmpty)
        #expect(m.progress == [.up, .up])
        #expect(m.expiry == ms(1500) + gap)
        #expect(m.advance(to: ms(1500) + gap - ms(1)).isEmpty)
        let matches = m.advance(to: ms(1500) + gap)
        #expect(matches == [.init(name: "up-up", directions: [.up, .up], start: ms(1000), end: ms(1500))])
        #expect(m.progress.isEmpty)
        #expect(m.advance(to: ms(10_000)).isEmpty)
    }

    @Test func longerSequenceWinsWhenContinued() {
        var m = matcher([upUp, konami])
        var fired: [SwipeSequenceMatcher.Match] = []
        for (index, direction) in konami.1.enumerated() {
            fired += m.feed(direction, at: ms(500 * index))
        }
        fired += m.advance(to: ms(60_000))
        #expect(fired.map(\.name) == ["konami"])
        #expect(fired.first?.start == ms(0))
        #expect(fired.first?.end == ms(1500))
    }

    @Test(arguments: SwipeDirection.allCases)
    func eachLevelOfNestedPrefixesFiresWhenNotContinued(direction: SwipeDirection) {
        let sequences = (1...3).map { ("\($0)x", Array(repeating: direction, count: $0)) }
        for count in 1...3 {
            var m = matcher(sequences)
            var fired: [String] = []
            for index in 0..<count {
                fired += m.feed(direction, at: ms(400 * index)).map(\.name)
            }
            fired += m.advance(to: ms(60_000)).map(\.name)
            #expect(fired == ["\(count)x"], "after \(count) swipes")
        }
    }

    @Test func waitingPrefixFiresWhenTheNextSwipeDoesNotContinueIt() {
        var m = matcher([upUp, konami])
        _ = m.feed(.up, at: ms(0))
        _ = m.feed(.up, at: ms(300))
        let matches = m.feed(.right, at: ms(600))
        #expect(matches.map(\.name) == ["up-up"])
        #expect(matches.first?.end == ms(300))
        #expect(m.progress.isEmpty)
    }

    @Test func nonContinuingSwipeFiresTheWaitingPrefixAndThenItsOwnSequence() {
        var m = matcher([upUp, konami, back])
        _ = m.feed(.up, at: ms(0))
        _ = m.feed(.up, at: ms(300))
        let matches = m.feed(.left, at: ms(600))
        #expect(matches.map(\.name) == ["up-up", "back"])
        #expect(matches.last?.start == ms(600))
    }

    @Test func swipeAfterTheGapFiresTheWaitingPrefixAndStartsANewSequence() {
        var m = matcher([upUp, konami])
        _ = m.feed(.up, at: ms(0))
        _ = m.feed(.up, at: ms(300))
        let late = ms(300) + gap + ms(1)
        #expect(m.feed(.up, at: late).map(\.name) == ["up-up"])
        // The late swipe is the first of a new attempt that can still complete.
        #expect(m.progress == [.up])
        #expect(m.feed(.up, at: late + ms(300)).isEmpty)
        #expect(m.feed(.down, at: late + ms(600)).isEmpty)
        let matches = m.feed(.down, at: late + ms(900))
        #expect(matches == [.init(name: "konami", directions: konami.1, start: late, end: late + ms(900))])
    }

    @Test func swipeAfterTheGapFiresTheWaitingPrefixAndCompletesAOneSwipeSequence() {
        var m = matcher([upUp, konami, back])
        _ = m.feed(.up, at: ms(0))
        _ = m.feed(.up, at: ms(300))
        #expect(m.feed(.left, at: ms(5000)).map(\.name) == ["up-up", "back"])
    }

    // MARK: Limits

    @Test func swipeExactlyOneGapLaterIsTooLate() {
        var m = matcher([konami])
        _ = m.feed(.up, at: ms(0))
        _ = m.feed(.up, at: gap)
        #expect(m.progress == [.up], "a new attempt starts with the late swipe")
        #expect(m.feed(.up, at: gap + gap - ms(1)).isEmpty)
        #expect(m.progress == [.up, .up])
    }

    @Test func gapExceededDropsTheUnfinishedAttempt() {
        var m = matcher([konami])
        _ = m.feed(.up, at: ms(0))
        _ = m.feed(.up, at: ms(500))
        _ = m.feed(.down, at: ms(1000))
        #expect(m.advance(to: ms(1000) + gap).isEmpty)
        #expect(m.progress.isEmpty)
        #expect(m.feed(.down, at: ms(2000)).isEmpty)
        #expect(m.progress.isEmpty)
    }

    @Test func sequenceSlowerThanTheTimeoutDoesNotFire() {
        var m = matcher([konami])
        let step = ms(700)  // under the gap, but four swipes span 2100 ms
        var fired: [SwipeSequenceMatcher.Match] = []
        var slow = SwipeSequenceMatcher(
            [.init(name: "konami", directions: konami.1)], maximumGap: gap, timeout: ms(2000))!
        for (index, direction) in konami.1.enumerated() {
            fired += m.feed(direction, at: step * index)
            #expect(slow.feed(direction, at: step * index).isEmpty, "swipe \(index)")
        }
        #expect(slow.advance(to: ms(60_000)).isEmpty)
        // The same swipes fit in the 3 s timeout of the other matcher.
        #expect(fired.map(\.name) == ["konami"])
    }

    @Test func timeoutEndsTheWaitBeforeTheGapDoes() {
        let sequences: [SwipeSequenceMatcher.NamedSequence] = [
            .init(name: "up-up", directions: [.up, .up]),
            .init(name: "konami", directions: konami.1),
        ]
        var m = SwipeSequenceMatcher(sequences, maximumGap: gap, timeout: ms(1000))!
        _ = m.feed(.up, at: ms(0))
        _ = m.feed(.up, at: ms(700))
        #expect(m.expiry == ms(1000))
        #expect(m.advance(to: ms(999)).isEmpty)
        #expect(m.advance(to: ms(1000)).map(\.name) == ["up-up"])
    }

    // MARK: Mismatches

    @Test(arguments: SwipeDirection.allCases)
    func mismatchRestartsWithTheMismatchingSwipe(direction: SwipeDirection) {
        let neighbour = SwipeDirection(compassIndex: direction.compassIndex + 1)
        var m = matcher([
            ("long", [direction, direction, direction.opposite]),
            ("other", [neighbour, direction]),
        ])
        #expect(m.feed(direction, at: ms(0)).isEmpty)
        #expect(m.feed(direction, at: ms(200)).isEmpty)
        #expect(m.feed(neighbour, at: ms(400)).isEmpty)
        #expect(m.progress == [neighbour])
        let matches = m.feed(direction, at: ms(600))
        #expect(matches == [.init(name: "other", directions: [neighbour, direction], start: ms(400), end: ms(600))])
    }

    @Test func extraLeadingSwipeIsSkipped() {
        var m = matcher([konami])
        var fired: [SwipeSequenceMatcher.Match] = []
        for (index, direction) in ([.up] + konami.1).enumerated() {
            fired += m.feed(direction, at: ms(300 * index))
        }
        #expect(fired == [.init(name: "konami", directions: konami.1, start: ms(300), end: ms(1200))])
    }

    @Test func mismatchWithNoSequenceToStartLeavesNothingInProgress() {
        var m = matcher([konami])
        _ = m.feed(.up, at: ms(0))
        #expect(m.feed(.left, at: ms(100)).isEmpty)
        #expect(m.progress.isEmpty)
        #expect(m.expiry == nil)
    }

    @Test func swipesOfAFiredMatchAreNotReused() {
        var m = matcher([("a", [.up, .down]), ("b", [.down, .left])])
        #expect(m.feed(.up, at: ms(0)).map(\.name) == [])
        #expect(m.feed(.down, at: ms(100)).map(\.name) == ["a"])
        #expect(m.feed(.left, at: ms(200)).isEmpty)
    }

    // MARK: Time and state

    @Test func earlierTimestampCountsAsTheLatestSeen() {
        var m = matcher([upUp, konami])
        _ = m.advance(to: ms(5000))
        _ = m.feed(.up, at: ms(100))
        _ = m.feed(.up, at: ms(5200))
        #expect(m.expiry == ms(5200) + gap)
        let matches = m.advance(to: ms(9000))
        #expect(matches.first?.start == ms(5000))
    }

    @Test func resetForgetsTheAttemptWithoutFiring() {
        var m = matcher([upUp, konami])
        _ = m.feed(.up, at: ms(0))
        _ = m.feed(.up, at: ms(100))
        m.reset()
        #expect(m.progress.isEmpty)
        #expect(m.advance(to: ms(10_000)).isEmpty)
    }

    @Test(arguments: SwipeDirection.allCases)
    func matcherWithoutSequencesNeverFires(direction: SwipeDirection) {
        var m = SwipeSequenceMatcher([])!
        #expect(m.feed(direction, at: ms(0)).isEmpty)
        #expect(m.advance(to: ms(60_000)).isEmpty)
    }

    // MARK: Validation

    @Test func invalidDefinitionsAreReportedAndRefused() {
        typealias Named = SwipeSequenceMatcher.NamedSequence
        let cases: [([Named], Duration, Duration, SwipeSequenceMatcher.Problem)] = [
            ([Named(name: "x", directions: [])], gap, timeout, .emptySequence(name: "x")),
            ([Named(name: "", directions: [.up])], gap, timeout, .emptyName(index: 0)),
            (
                [Named(name: "x", directions: [.up]), Named(name: "x", directions: [.down])], gap, timeout,
                .duplicateName("x")
            ),
            (
                [Named(name: "x", directions: [.up]), Named(name: "y", directions: [.up])], gap, timeout,
                .sameDirections("x", "y")
            ),
            ([Named(name: "x", directions: [.up])], .zero, timeout, .nonPositiveMaximumGap(.zero)),
            ([Named(name: "x", directions: [.up])], gap, ms(-1), .nonPositiveTimeout(ms(-1))),
        ]
        for (sequences, maximumGap, timeout, problem) in cases {
            let problems = SwipeSequenceMatcher.problems(in: sequences, maximumGap: maximumGap, timeout: timeout)
            #expect(problems == [problem])
            #expect(!problem.description.isEmpty)
            #expect(SwipeSequenceMatcher(sequences, maximumGap: maximumGap, timeout: timeout) == nil)
        }
        #expect(SwipeSequenceMatcher.problems(in: [Named(name: "x", directions: [.up])]).isEmpty)
    }

    // MARK: Issue 16, class 5: long sequences

    @Test("a sequence of 20,000 directions is matched, its prefixes stored once")
    func veryLongSequenceMatches() {
        let long = (0..<20_000).map { SwipeDirection.clockwise[($0 * 7 / 3) % 8] }
        var m = matcher([("long", long), ("short", [.up, .down])])
        var fired: [SwipeSequenceMatcher.Match] = []
        for (index, direction) in long.enumerated() { fired += m.feed(direction, at: .microseconds(Int64(index))) }
        #expect(fired.map(\.name) == ["long"])
        #expect(fired.first?.directions.count == 20_000)
    }

    @Test("the trie matches as the prefix sets did, on random sequences and swipes", arguments: 0..<40)
    func trieMatchesTheReference(seed: UInt64) {
        var generator = LinearCongruential(seed: seed)
        let ways = Int(generator.next() % 3) + 2
        func direction() -> SwipeDirection { SwipeDirection.clockwise[Int(generator.next() % UInt64(ways))] }
        var sequences: [(String, [SwipeDirection])] = []
        var seen: Set<[SwipeDirection]> = []
        for index in 0..<Int(generator.next() % 6 + 1) {
            let directions = (0..<Int(generator.next() % 5 + 1)).map { _ in direction() }
            if seen.insert(directions).inserted { sequences.append(("s\(index)", directions)) }
        }
        var m = matcher(sequences)
        var reference = ReferenceMatcher(sequences: sequences, maximumGap: gap, timeout: timeout)
        var time = Duration.zero
        for _ in 0..<400 {
            time += ms(Int(generator.next() % 1200))
            if generator.next() % 4 == 0 {
                #expect(m.advance(to: time) == reference.advance(to: time))
            } else {
                let next = direction()
                #expect(m.feed(next, at: time) == reference.feed(next, at: time), "seed \(seed)")
            }
            #expect(m.progress == reference.attempt.map(\.direction))
        }
    }
}

/// The matcher as it was before the trie: every prefix stored as its own
/// array, each candidate run looked up in that set. Kept here as the
/// reference the trie must agree with.
private struct ReferenceMatcher {
    struct Swipe { var direction: SwipeDirection; var time: Duration }
    let sequences: [(String, [SwipeDirection])]
    let maximumGap: Duration
    let timeout: Duration
    var prefixes: Set<[SwipeDirection]> = []
    var extendable: Set<[SwipeDirection]> = []
    var attempt: [Swipe] = []
    var latest: Duration?

    init(sequences: [(String, [SwipeDirection])], maximumGap: Duration, timeout: Duration) {
        self.sequences = sequences
        self.maximumGap = maximumGap
        self.timeout = timeout
        for (_, directions) in sequences {
            for length in 1...directions.count {
                prefixes.insert(Array(directions.prefix(length)))
                if length < directions.count { extendable.insert(Array(directions.prefix(length))) }
            }
        }
    }

    var progress: [SwipeDirection] { attempt.map(\.direction) }

    mutating func clamped(_ time: Duration) -> Duration {
        let now = latest.map { max($0, time) } ?? time
        latest = now
        return now
    }

    func completed() -> SwipeSequenceMatcher.Match? {
        guard let first = attempt.first, let last = attempt.last,
            let sequence = sequences.first(where: { $0.1 == progress })
        else { return nil }
        return .init(name: sequence.0, directions: sequence.1, start: first.time, end: last.time)
    }

    mutating func expire(at now: Duration) -> [SwipeSequenceMatcher.Match] {
        guard let first = attempt.first, let last = attempt.last,
            now >= min(last.time + maximumGap, first.time + timeout)
        else { return [] }
        let match = completed()
        attempt = []
        return match.map { [$0] } ?? []
    }

    func restarted(from swipes: [Swipe], at now: Duration) -> [Swipe] {
        for offset in (swipes.count == 1 ? 0 : 1)..<swipes.count {
            let suffix = swipes[offset...]
            guard now - suffix.first!.time < timeout else { continue }
            if prefixes.contains(suffix.map(\.direction)) { return Array(suffix) }
        }
        return []
    }

    mutating func feed(_ direction: SwipeDirection, at time: Duration) -> [SwipeSequenceMatcher.Match] {
        let now = clamped(time)
        var matches = expire(at: now)
        let swipe = Swipe(direction: direction, time: now)
        if prefixes.contains(progress + [direction]) {
            attempt.append(swipe)
        } else if let waiting = completed() {
            matches.append(waiting)
            attempt = restarted(from: [swipe], at: now)
        } else {
            attempt = restarted(from: attempt + [swipe], at: now)
        }
        if let match = completed(), !extendable.contains(progress) {
            matches.append(match)
            attempt = []
        }
        return matches
    }

    mutating func advance(to time: Duration) -> [SwipeSequenceMatcher.Match] {
        expire(at: clamped(time))
    }
}
