import Testing

@testable import Validation

@Suite struct ValidatorTests {
    private let short = Validator.minimumLength(3)
    private let digits = Validator.number()

    @Test func andReturnsTheFailuresOfBoth() {
        let both = short.and(digits)
        #expect(both.failures(for: "ab").map(\.reason) == [.tooShort(minimumCharacters: 3), .notANumber])
        #expect(both.failures(for: "123").isEmpty)
    }

    @Test func orPassesWhenEitherPasses() {
        let either = Validator.email().or(.number())
        #expect(either.isValid("ada@example.org"))
        #expect(either.isValid("42"))
        #expect(either.failures(for: "ada").map(\.reason) == [.invalidEmail, .notANumber])
    }

    @Test func messageReplacesTheFailuresWithOne() {
        let rule = short.and(digits).message("Enter at least three digits")
        let failures = rule.failures(for: "ab")
        #expect(failures == [Validator.Failure(.tooShort(minimumCharacters: 3), message: "Enter at least three digits")])
        #expect(failures.first?.description == "Enter at least three digits")
        #expect(rule.failures(for: "123").isEmpty)
    }

    @Test func allWithNoValidatorsPassesEverything() {
        #expect(Validator.all([]).isValid("anything"))
    }

    @Test func allKeepsRuleOrder() {
        let rule = Validator.all([.maximumLength(1), .oneOf(["x"])])
        #expect(rule.failures(for: "yy").map(\.reason) == [.tooLong(maximumCharacters: 1), .notAnOption(options: ["x"])])
    }

    @Test func customCheckReceivesTheDeadline() {
        let deadline = ContinuousClock.now + .seconds(1)
        let rule = Validator { _, given in given == deadline ? [] : [Validator.Failure(.required)] }
        #expect(rule.isValid("x", deadline: deadline))
    }

    @Test(arguments: [
        (Validator.Reason.required, "is required"),
        (.tooShort(minimumCharacters: 1), "must be at least 1 character"),
        (.tooShort(minimumCharacters: 3), "must be at least 3 characters"),
        (.tooLong(maximumCharacters: 100), "must be at most 100 characters"),
        (.invalidEmail, "must be an email address"),
        (.notANumber, "must be a number"),
        (.belowMinimum(0), "must be at least 0"),
        (.aboveMaximum(2.5), "must be at most 2.5"),
        (.notAnOption(options: ["a", "b"]), "must be one of: a, b"),
        (.patternMismatch(pattern: "x"), "does not match the required format"),
        (.patternTimedOut(pattern: "x"), "could not be checked against the required format in time"),
        (
            .tooLongForPattern(pattern: "x"),
            "is too long to check against the required format (over 1000 UTF-16 code units)"
        ),
        (
            .patternNotChecked(pattern: "x"),
            "was not checked against the required format: the form's time budget for patterns is spent"
        ),
    ])
    func defaultMessageSaysWhatIsWrong(reason: Validator.Reason, message: String) {
        #expect(Validator.Failure(reason).message == message)
    }
}
