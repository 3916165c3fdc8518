@testable import CommandLineKit
import Testing

@Suite("Suggestion: the nearest known word to a mistyped one")
struct SuggestionTests {
    static let options = ["--format", "--frames", "--library", "--recognizer", "--help"]

    @Test("a near miss is corrected", arguments: [
        ("--formt", "--format"),      // a letter left out
        ("--foramt", "--format"),     // two letters swapped
        ("--libary", "--library"),
        ("--FORMAT", "--format"),     // case
        ("--rec", "--recognizer"),    // the start of exactly one
        ("--recogniser", "--recognizer"),
    ])
    func nearMisses(typed: String, expected: String) {
        #expect(Suggestion.nearest(to: typed, in: Self.options) == expected)
    }

    @Test("a word far from every candidate, or the start of several, gets no suggestion", arguments: ["--bogus", "--fr", "--x", "zzzzzzzz"])
    func noSuggestion(typed: String) {
        #expect(Suggestion.nearest(to: typed, in: Self.options) == nil)
    }

    @Test("edit distance counts insertions, deletions, substitutions and swaps once each")
    func distances() {
        func distance(_ a: String, _ b: String) -> Int { Suggestion.editDistance(Array(a), Array(b)) }
        #expect(distance("", "abc") == 3)
        #expect(distance("abc", "abc") == 0)
        #expect(distance("abc", "abd") == 1)
        #expect(distance("abc", "acb") == 1)
        #expect(distance("kitten", "sitting") == 3)
    }
}
