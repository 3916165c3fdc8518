import Testing

@testable import Validation

@Suite struct ICUDiagnosisTests {
    @Test(arguments: [
        ("(ab", "U_REGEX_MISMATCHED_PAREN", 3),
        ("a{2,1}", "U_REGEX_MAX_LT_MIN", 6),
        ("[z-a]", "U_REGEX_INVALID_RANGE", 4),
        ("\\e{(a|a)+}", "U_REGEX_BAD_INTERVAL", 5),
        ("*term", "U_REGEX_RULE_SYNTAX", 1),
    ])
    func namesICUsErrorAndOffset(pattern: String, name: String, offset: Int) throws {
        let rejection = try #require(ICUDiagnosis.rejection(for: pattern))
        #expect(rejection.name == name)
        #expect(rejection.offset == offset)
    }

    @Test func anAcceptedPatternHasNoRejection() {
        #expect(ICUDiagnosis.rejection(for: "a.*b") == nil)
    }
}
