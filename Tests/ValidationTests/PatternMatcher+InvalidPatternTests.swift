import Testing

@testable import Validation

/// A rejected pattern says what ICU found in words, what its offset points
/// at, and for a glob the regular expression that was meant.
@Suite struct PatternMatcherInvalidPatternTests {
    private func reason(_ pattern: String) throws -> String {
        let error = try #require(throws: PatternMatcher.InvalidPattern.self) { try PatternMatcher(pattern) }
        #expect(error.description == "invalid regular expression: " + error.reason)
        return error.reason
    }

    @Test(
        "a glob's '*' or '?' with nothing to repeat is named, and the regular expression meant is suggested",
        arguments: [
            ("*term", "'*' has nothing before it to repeat, just after character 1 '*'", "write '.*term' ('.*' is any text)"),
            ("?ab", "'?' has nothing before it to repeat, just after character 1 '?'", "write '.ab' ('.' is any one character)"),
            ("fire|*fox", "'*' has nothing before it to repeat, just after character 6 '*'", "write 'fire|.*fox' ('.*' is any text)"),
            ("(*x)", "'*' has nothing before it to repeat, just after character 2 '*'", "write '(.*x)' ('.*' is any text)"),
        ])
    func globsGetTheRegularExpressionMeant(pattern: String, problem: String, suggestion: String) throws {
        let reason = try reason(pattern)
        #expect(reason.hasPrefix(problem + " (ICU's U_REGEX_RULE_SYNTAX at offset "), "\(reason)")
        #expect(reason.hasSuffix("; these patterns are regular expressions, not globs: " + suggestion), "\(reason)")
    }

    @Test(
        "other errors are said in words, with what the offset points at and ICU's name",
        arguments: [
            ("(ab", "a '(' or ')' without its partner, at the end of the pattern (ICU's U_REGEX_MISMATCHED_PAREN at offset 3)"),
            ("[z-a]", "a range in a [...] set that runs backwards, just after character 4 'a' (ICU's U_REGEX_INVALID_RANGE at offset 4)"),
            ("[ab", "a '[' set that is not closed with ']', at the end of the pattern (ICU's U_REGEX_MISSING_CLOSE_BRACKET at offset 3)"),
            ("a+|+", "'+' has nothing before it to repeat, at the end of the pattern (ICU's U_REGEX_RULE_SYNTAX at offset 4)"),
        ])
    func errorsSayWhatAndWhere(pattern: String, expected: String) throws {
        #expect(try reason(pattern) == expected)
    }

    @Test func aQuantifierAfterAnEscapeIsNoGlob() {
        // `\(*` repeats a literal '(': ICU accepts it, and nothing is suggested.
        #expect((try? PatternMatcher("\\(*x")) != nil)
        #expect(PatternMatcher.InvalidPattern.globMeant(by: "\\(*x") == nil)
    }
}
