import Foundation
import Testing

@testable import InputChecks

@Suite("Suggestion: the nearest known word to a mistyped one")
struct SuggestionTests {
    static let options = ["--format", "--frames", "--library", "--recognizer", "--help"]

    @Test(
        "a near miss is corrected",
        arguments: [
            ("--formt", "--format"),  // a letter left out
            ("--foramt", "--format"),  // two letters swapped
            ("--libary", "--library"),
            ("--FORMAT", "--format"),  // case
            ("--rec", "--recognizer"),  // the start of exactly one
            ("--recogniser", "--recognizer"),
        ])
    func nearMisses(typed: String, expected: String) {
        #expect(Suggestion.nearest(to: typed, in: Self.options) == expected)
    }

    @Test(
        "a word far from every candidate, or the start of several, gets no suggestion", arguments: ["--bogus", "--fr", "--x", "zzzzzzzz"])
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

    @Test(
        "a swap of neighbours is one edit, so it is corrected even in short words",
        arguments: [
            ("rihgt", "right"), ("lfet", "left"), ("siwpe", "swipe"),
        ])
    func transpositions(typed: String, expected: String) {
        #expect(Suggestion.nearest(to: typed, in: ["up", "down", "left", "right", "swipe"]) == expected)
    }

    @Test("an alias names the word it stands for, whatever its distance")
    func aliases() {
        #expect(Suggestion.nearest(to: "Super", in: ["leftmeta", "right"], aliases: ["super": "leftmeta"]) == "leftmeta")
        #expect(Suggestion.nearest(to: "soup", in: ["leftmeta", "right"], aliases: ["super": "leftmeta"]) == nil)
    }

    @Test("a word longer than any mistake gets no suggestion, and costs nothing")
    func longWords() {
        #expect(Suggestion.nearest(to: String(repeating: "a", count: 100_000), in: ["a"]) == nil)
    }
}

@Suite("ClosedWords: one message for a word that is not one of a few")
struct ClosedWordsTests {
    @Test("the message names the word, the suggestion and what is expected")
    func messages() {
        let buttons = ClosedWords("button", ["right", "middle", "left"])
        #expect(buttons.problem("rihgt") == "unknown button 'rihgt'; did you mean 'right'? expected one of right, middle, left")
        #expect(buttons.problem("side") == "unknown button 'side'; expected one of right, middle, left")
        #expect(ClosedWords("choice", ["pass", "withhold"]).problem("x") == "unknown choice 'x'; expected pass or withhold")
        let keys = ClosedWords("key", ["version", "bindings"], expectation: "see the README")
        #expect(keys.problem("bindngs", quoting: false) == "unknown key; did you mean 'bindings'? see the README")
    }

    private enum Shape: String, CaseIterable, ClosedWord {
        case circle, square
        static let closedWords = ClosedWords("shape", Shape.self)
    }

    @Test("a ClosedWord type decodes its words and refuses others with the message and the path")
    func decoding() throws {
        struct Holder: Decodable { var shape: Shape }
        #expect(try JSONDecoder().decode(Holder.self, from: Data(#"{"shape": "square"}"#.utf8)).shape == .square)
        do {
            _ = try JSONDecoder().decode(Holder.self, from: Data(#"{"shape": "cirle"}"#.utf8))
            Issue.record("accepted")
        } catch {
            #expect(
                JSONText.describe(decodingError: error) == "shape: unknown shape 'cirle'; did you mean 'circle'? expected circle or square")
        }
        do {
            _ = try JSONDecoder().decode(Holder.self, from: Data(#"{"shape": 3}"#.utf8))
            Issue.record("accepted")
        } catch {
            #expect(JSONText.describe(decodingError: error) == "shape: must be a string")
        }
    }

    @Test("every \"did you mean\" is the one phrase: quoted and escaped like an excerpt, and kept whole")
    func oneDidYouMeanPhrase() {
        #expect(Suggestion.phrase("--format") == "; did you mean '--format'?")
        #expect(Suggestion.phrase("two\nlines") == "; did you mean 'two\\nlines'?")
        let long = String(repeating: "k", count: 70)
        #expect(Suggestion.phrase(long) == "; did you mean '\(long)'?", "a suggestion cut short suggests another word")
        #expect(Suggestion.hint(for: "rihgt", in: ["left", "right"]) == Suggestion.phrase("right"))
        #expect(Suggestion.hint(for: "bogus", in: ["left", "right"]).isEmpty)
        let words = ClosedWords("direction", ["left", "right"])
        #expect(words.problem("rihgt") == "unknown direction 'rihgt'" + Suggestion.phrase("right") + " expected left or right")
    }
}
