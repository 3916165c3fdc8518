import Testing

@testable import Validation

@Suite struct ICUDiagnosisTests {
    @Test(arguments: [
        ("(ab", "U_REGEX_MISMATCHED_PAREN"),
        ("a{2,1}", "U_REGEX_MAX_LT_MIN"),
        ("[z-a]", "U_REGEX_INVALID_RANGE"),
        ("\\e{(a|a)+}", "U_REGEX_BAD_INTERVAL"),
    ])
    func namesICUsErrorAndOffset(pattern: String, name: String) {
        let reason = ICUDiagnosis.reason(for: pattern)
        #expect(reason.hasPrefix(name))
        #expect(reason.contains("offset"))
    }
}
