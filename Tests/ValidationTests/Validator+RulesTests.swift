import Testing

@testable import Validation

@Suite struct ValidatorRulesTests {
    @Test func requiredFailsOnlyAnEmptyValue() {
        #expect(Validator.required().failures(for: "").map(\.reason) == [.required])
        #expect(Validator.required().isValid(" "))
    }

    @Test(arguments: [
        Validator.minimumLength(3), .maximumLength(0), .email(), .number(minimum: 1), .oneOf(["a"]),
    ])
    func otherRulesLetAnEmptyValuePass(rule: Validator) throws {
        #expect(rule.isValid(""))
        #expect(try Validator.matches(pattern: "x+").isValid(""))
    }

    @Test func minimumLengthCountsCharacters() {
        let rule = Validator.minimumLength(3)
        #expect(rule.failures(for: "ab").map(\.reason) == [.tooShort(minimumCharacters: 3)])
        #expect(rule.isValid("abc"))
        #expect(rule.isValid("👩‍👩‍👧x🇫🇷"))  // three characters, many code units
    }

    @Test func maximumLengthCountsCharacters() {
        let rule = Validator.maximumLength(3)
        #expect(rule.isValid("abc"))
        #expect(rule.isValid("👩‍👩‍👧x🇫🇷"))
        #expect(rule.failures(for: "abcd").map(\.reason) == [.tooLong(maximumCharacters: 3)])
    }

    @Test func emailRejectsANonAddress() {
        #expect(Validator.email().failures(for: "ada").map(\.message) == ["must be an email address"])
        #expect(Validator.email().isValid("ada@example.org"))
    }

    @Test(arguments: ["0", "42", "-7", "2.5", ".5", "1e3", "1E-2", "-0.0"])
    func numberAcceptsADecimal(_ text: String) {
        #expect(Validator.number().isValid(text))
    }

    @Test(arguments: ["abc", "1.", "-", "+1", " 1", "1 ", "0x10", "nan", "inf", "1e", "1e400", "1,5"])
    func numberRejectsANonDecimal(_ text: String) {
        #expect(Validator.number().failures(for: text).map(\.reason) == [.notANumber])
    }

    @Test func numberRangeIsInclusive() {
        let rule = Validator.number(minimum: 0, maximum: 10)
        #expect(rule.isValid("0"))
        #expect(rule.isValid("10"))
        #expect(rule.failures(for: "-1").map(\.message) == ["must be at least 0"])
        #expect(rule.failures(for: "10.5").map(\.message) == ["must be at most 10"])
    }

    @Test func oneOfAcceptsOnlyAnExactOption() {
        let rule = Validator.oneOf(["red", "green"])
        #expect(rule.isValid("red"))
        #expect(rule.failures(for: "Red").map(\.message) == ["must be one of: red, green"])
    }

    @Test func matchesReportsEachOutcome() throws {
        let zip = try Validator.matches(pattern: "[0-9]{5}")
        #expect(zip.isValid("12345"))
        #expect(zip.failures(for: "1234").map(\.reason) == [.patternMismatch(pattern: "[0-9]{5}")])
        #expect(
            zip.failures(for: String(repeating: "1", count: 1_001)).map(\.reason)
                == [.tooLongForPattern(pattern: "[0-9]{5}")])
    }

    @Test func matchesFailsAValueStoppedByTheDeadline() throws {
        let rule = Validator.matches(try PatternMatcher("(b|b)+", slowPatterns: SlowPatternMemory()))
        let failures = rule.failures(for: String(repeating: "b", count: 40) + "!", deadline: .now + .milliseconds(1))
        #expect(failures.map(\.reason) == [.patternTimedOut(pattern: "(b|b)+")])
    }

    @Test func matchesWithAnInvalidPatternThrows() {
        #expect(throws: PatternMatcher.InvalidPattern.self) { try Validator.matches(pattern: "[") }
    }
}
