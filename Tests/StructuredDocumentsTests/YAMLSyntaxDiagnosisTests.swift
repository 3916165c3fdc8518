import Foundation
import StructuredDocuments
import Testing

/// Each kind of YAML syntax mistake is said with its line, column, the line
/// as written and the likely fix.
@Suite struct YAMLSyntaxDiagnosisTests {
    private func error(_ text: String) throws -> YAMLNode.ParseError {
        try #require(throws: YAMLNode.ParseError.self) { try YAMLNode.parse(Data(text.utf8)) }
    }

    static let binding = "version: 1\nbindings:\n  - gesture: swipe\n"

    @Test(
        "a mistake is placed at its line and column, shows the line, and says the likely fix",
        arguments: [
            // One space too many: libyaml says "mapping values are not allowed in this context".
            (binding + "     fingers: 3\n", 4, 13, "'     fingers: 3'", "indent it by 4 spaces, like 'gesture' on line 3"),
            // One space too few inside a list item: "did not find expected '-' indicator".
            (binding + "    fingers: 3\n   action: x\n", 5, 4, "'   action: x'", "indent it by 4 spaces, like 'fingers' on line 4"),
            // At the column of the list's '-' without one.
            (
                binding + "    fingers: 3\n  action: x\n", 5, 3, "'  action: x'",
                "start it with '- ' if it begins a new item of the list on line 3, or indent it by 4 spaces, like 'fingers' on line 4"
            ),
            // A new item at no column a '-' stands at.
            (
                "version: 1\nbindings:\n    - gesture: swipe\n  - gesture: tap\n", 4, 3, "'  - gesture: tap'",
                "indent it by 4 spaces, like the '-' on line 3"
            ),
            // An indented top-level key.
            ("version: 1\n  bindings: []\n", 2, 11, "'  bindings: []'", "remove its indentation, like 'version' on line 1"),
            // Tabs, at the start of the line and after spaces.
            (binding + "\tfingers: 3\n", 4, 1, "'\\tfingers: 3'", "replace the tab with spaces (YAML indents with spaces only)"),
            (
                "version: 1\nbindings:\n\t- gesture: swipe\n", 3, 1, "'\\t- gesture: swipe'",
                "replace the tab with spaces (YAML indents with spaces only)"
            ),
            // ': ' inside a plain value.
            (
                binding + "    title: a: b\n", 4, 13, "'    title: a: b'",
                "put the value in quotes (a ': ' inside a plain value starts a mapping)"
            ),
            // No space after a key's colon: placed at the key, not the line after.
            (binding + "    fingers:3\n    direction: left\n", 4, 5, "'    fingers:3'", "put a space after the ':' in 'fingers:3'"),
            // Unclosed quotes and brackets: where they opened.
            (binding + "    action: {command: \"x}\n", 5, 1, nil, "close the quote opened on line 4, column 23"),
            (binding + "    apps: [a, b\n    action: x\n", 5, 11, "'    action: x'", "close the '[' opened on line 4, column 11 with ']'"),
        ] as [(String, Int, Int, String?, String)])
    func mistakesSayWhereAndTheFix(text: String, line: Int, column: Int, excerpt: String?, fix: String) throws {
        let error = try error(text)
        #expect(error.line == line)
        #expect(error.column == column)
        #expect(error.excerpt == excerpt)
        #expect(error.fix == fix)
        #expect(error.description.hasPrefix("line \(line), column \(column): malformed YAML: "))
        #expect(error.description.hasSuffix("; likely fix: " + fix))
        #expect(!error.description.contains("\n"))
    }

    @Test func consistentIndentationSuggestsNoIndentationFix() throws {
        // A deeper line under a key that opens a block is not an indentation mistake.
        let error = try error("a:\n  b: 1\n  c: [\n")
        #expect(error.fix?.contains("indent") != true)
    }
}
