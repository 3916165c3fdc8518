import InputChecks
import Testing

/// Every message that echoes input quotes a short, escaped excerpt.
@Suite struct ExcerptTests {
    @Test func shortTextIsQuotedWhole() {
        #expect(Excerpt.quoted("le]ft") == "'le]ft'")
        #expect(Excerpt.quoted("") == "''")
        #expect(Excerpt.quoted("é😀") == "'é😀'")
    }

    @Test func longTextIsCutWithAnEllipsis() {
        let excerpt = Excerpt.quoted(String(repeating: "x", count: 1_000_000))
        #expect(excerpt == "'" + String(repeating: "x", count: Excerpt.maximumScalars) + "...'")
        // A single character made of a million scalars is cut too.
        let zalgo = "a" + String(repeating: "\u{0301}", count: 1_000_000)
        #expect(Excerpt.quoted(zalgo).unicodeScalars.count <= Excerpt.maximumScalars + 5)
    }

    @Test(arguments: [
        "\n", "\r", "\u{0C}", "\u{0B}", "\u{00}", "\u{1B}", "\u{7F}", "\u{85}", "\u{2028}", "\u{2029}", "\u{202E}", "\u{2066}", "\u{FEFF}",
    ])
    func lineBreaksAndControlsAreEscaped(character: String) {
        let excerpt = Excerpt.quoted("a\(character)b")
        #expect(!excerpt.unicodeScalars.contains(where: { $0 == character.unicodeScalars.first! }))
        #expect(excerpt.hasPrefix("'a\\") && excerpt.hasSuffix("b'"))
        #expect(excerpt.split(whereSeparator: \.isNewline).count == 1)
    }

    @Test func escapesCountTowardsTheLimit() {
        let excerpt = Excerpt.escaped(String(repeating: "\u{2028}", count: 100))
        #expect(excerpt.count <= Excerpt.maximumScalars + 3)
        #expect(excerpt.hasSuffix("..."))
    }
}
