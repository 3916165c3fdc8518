import Foundation
import TestSupport
import Testing

@testable import Validation

/// A value that makes a nested quantifier such as `(a|a)+` backtrack for far longer than 20 ms.
private let exponentialAttack = String(repeating: "a", count: 40) + "!"

@Suite struct PatternMatcherTests {
    @Test(arguments: [
        ("[0-9]+", "2024", PatternMatcher.Outcome.matched),
        ("[0-9]+", "2024a", .notMatched),
        ("[0-9]+", "x2024", .notMatched),
        ("a|ab", "ab", .matched),
        ("a|b", "ab", .notMatched),
        ("abc", "abc\n", .notMatched),
        ("", "", .matched),
        ("(a)\\1", "aa", .matched),
        ("(?i)abc", "ABC", .matched),
    ])
    func patternMustMatchTheWholeValue(pattern: String, value: String, expected: PatternMatcher.Outcome) throws {
        #expect(try PatternMatcher(pattern).matches(value) == expected)
    }

    @Test func commentRunningToTheEndStillAnchors() throws {
        let matcher = try PatternMatcher("(?x) a b  # letters, then a comment to the end")
        #expect(matcher.matches("ab") == .matched)
        #expect(matcher.matches("abc") == .notMatched)
    }

    @Test func openQuoteRunningToTheEndStillAnchors() throws {
        let matcher = try PatternMatcher("\\Qa)|(b")
        #expect(matcher.matches("a)|(b") == .matched)
        #expect(matcher.matches("a") == .notMatched)
    }

    @Test func invalidPatternThrowsWithICUsReason() {
        #expect {
            try PatternMatcher("(ab")
        } throws: { error in
            let description = String(describing: error)
            return description.hasPrefix("invalid regular expression: ")
                && description.contains("U_REGEX_MISMATCHED_PAREN")
        }
    }

    @Test func valueOverTheLimitFailsWithoutMatching() throws {
        let matcher = try PatternMatcher(".*")
        #expect(matcher.matches(String(repeating: "x", count: 1_000)) == .matched)
        #expect(matcher.matches(String(repeating: "x", count: 1_001)) == .tooLong)
    }

    @Test func valueLengthCountsUTF16CodeUnits() throws {
        let matcher = try PatternMatcher(".*")
        // Each emoji is two UTF-16 code units.
        #expect(matcher.matches(String(repeating: "😀", count: 500)) == .matched)
        #expect(matcher.matches(String(repeating: "😀", count: 501)) == .tooLong)
    }

    @Test func slowPatternStopsAtItsOwnLimitAndIsRemembered() throws {
        let memory = SlowPatternMemory()
        let matcher = try PatternMatcher("(a|a)+", slowPatterns: memory)
        #expect(matcher.matches(exponentialAttack) == .timedOut)
        #expect(memory.contains("(a|a)+"))
    }

    @Test func rememberedPatternFailsLaterValuesWithoutRunning() throws {
        let memory = SlowPatternMemory()
        _ = try PatternMatcher("(a|a)+", slowPatterns: memory).matches(exponentialAttack)
        // A new matcher for the same text: "a" would match if the engine ran.
        let later = try PatternMatcher("(a|a)+", slowPatterns: memory)
        #expect(later.matches("a") == .timedOut)
    }

    @Test func stopByCallersDeadlineIsNotRemembered() throws {
        let memory = SlowPatternMemory()
        let matcher = try PatternMatcher("(a|a)+", slowPatterns: memory)
        #expect(matcher.matches(exponentialAttack, deadline: .now + .milliseconds(2)) == .timedOut)
        #expect(!memory.contains("(a|a)+"))
        #expect(matcher.matches("a") == .matched)
    }

    @Test func passedDeadlineFailsWithoutRunning() throws {
        let matcher = try PatternMatcher("a")
        #expect(matcher.matches("a", deadline: .now - .milliseconds(1)) == .timedOut)
    }

    @Test func manyThreadsShareOneMatcher() async throws {
        let matcher = try PatternMatcher("[a-z]+@[a-z]+")
        let outcomes = await withTaskGroup(of: [PatternMatcher.Outcome].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<200).map { matcher.matches($0.isMultiple(of: 2) ? "ada@example" : "ada@") } }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(outcomes.count == 1_600)
        #expect(outcomes.filter { $0 == .matched }.count == 800)
        #expect(outcomes.filter { $0 == .notMatched }.count == 800)
    }
}

/// Slow patterns that a screen of the pattern text would let through; the
/// engine's own limit must end them.
@Suite struct PatternMatcherRegressionTests {
    /// `\e` is ICU's escape for U+001B, so `\e{` starts an interval whose
    /// count `(a|a)+` is not: ICU rejects the pattern outright, which ends it
    /// well within the limit. A text screen that reads `\e{...}` as an opaque
    /// escape would have passed it on.
    @Test func escapeBraceNestedQuantifierIsRejectedByICU() {
        #expect {
            try PatternMatcher("\\e{(a|a)+}")
        } throws: { error in
            String(describing: error).contains("U_REGEX_BAD_INTERVAL")
        }
    }

    /// The same nested quantifier behind an escape that ICU does accept.
    @Test func escapeThenNestedQuantifierEndsWithinTheLimit() throws {
        let matcher = try PatternMatcher("\\e?(a|a)+", slowPatterns: SlowPatternMemory())
        let outcome = matcher.matches(String(repeating: "a", count: 24) + "!")
        #expect(outcome == .timedOut || outcome == .notMatched)
    }

    @Test func chainedStarsEndWithinTheLimit() throws {
        let matcher = try PatternMatcher("\\w*\\w*\\w*z", slowPatterns: SlowPatternMemory())
        let outcome = matcher.matches(String(repeating: "w", count: 1_000))
        #expect(outcome == .timedOut || outcome == .notMatched)
    }
}

/// Every entry of the shared ReDoS corpus, once each. The times of the same
/// calls are `gestures bench-patterns`'s to measure, not a test's.
@Suite struct PatternMatcherCorpusTests {
    @Test(
        .enabled(
            if: SharedData.redosCorpus != nil,
            "needs ../shared/data/redos/corpus.json beside the repository, or GESTURES_SHARED_DATA"))
    func everyCompilingCorpusPatternReturnsAnOutcome() throws {
        let url = try #require(SharedData.redosCorpus)
        let corpus = try JSONDecoder().decode(ReDoSCorpus.self, from: Data(contentsOf: url))
        #expect(!corpus.entries.isEmpty)
        let memory = SlowPatternMemory()
        var compiled = 0
        var outcomes: [PatternMatcher.Outcome: Int] = [:]
        for entry in corpus.entries {
            guard let matcher = try? PatternMatcher(entry.pattern, slowPatterns: memory) else { continue }
            compiled += 1
            let attack = entry.attack()
            #expect(attack.utf16.count <= PatternMatcher.maximumValueLength)
            let outcome = matcher.matches(attack)
            outcomes[outcome, default: 0] += 1
        }
        #expect(outcomes.values.reduce(0, +) == compiled)
        #expect(outcomes[.tooLong] == nil)
        print("corpus: \(compiled) of \(corpus.entries.count) patterns compile; outcomes \(outcomes)")
    }
}
