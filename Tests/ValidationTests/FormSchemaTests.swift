import Foundation
import Testing

@testable import Validation

@Suite struct FormSchemaTests {
    private static let signUp = """
        {"fields": [
          {"id": "email", "label": "Email", "type": "email", "required": true, "minLength": 3, "maxLength": 100},
          {"id": "nick", "type": "text", "maxLength": 8, "pattern": "[a-z]+"},
          {"id": "age", "type": "number", "min": 0, "max": 130},
          {"id": "plan", "type": "select", "options": ["free", "pro"]},
          {"id": "terms", "type": "checkbox", "required": true}
        ]}
        """

    private func schema() throws -> FormSchema {
        try FormSchema.decode(from: Data(Self.signUp.utf8))
    }

    @Test func validValuesHaveNoErrors() throws {
        let values = ["email": "ada@example.org", "nick": "ada", "age": "36", "plan": "pro", "terms": "on"]
        #expect(try schema().errors(in: values).isEmpty)
    }

    @Test func eachFieldReportsItsFailures() throws {
        let values = ["email": "ada", "nick": "Ada_99", "age": "200", "plan": "gold", "terms": "off"]
        let errors = try schema().errors(in: values)
        #expect(errors["email"]?.map(\.message) == ["must be an email address"])
        #expect(errors["nick"]?.map(\.reason) == [.patternMismatch(pattern: "[a-z]+")])
        #expect(errors["age"]?.map(\.message) == ["must be at most 130"])
        #expect(errors["plan"]?.map(\.message) == ["must be one of: free, pro"])
        #expect(errors["terms"]?.map(\.message) == ["must be checked"])
    }

    @Test func missingValuesAreCheckedAsEmpty() throws {
        let errors = try schema().errors(in: [:])
        #expect(errors.keys.sorted() == ["email", "terms"])
        #expect(errors["email"]?.map(\.message) == ["is required"])
        #expect(errors["terms"]?.map(\.message) == ["must be checked"])
    }

    @Test func valuesForUnknownIDsAreIgnored() throws {
        let values = ["email": "ada@example.org", "terms": "true", "extra": "anything"]
        #expect(try schema().errors(in: values).isEmpty)
    }

    @Test func checkboxRejectsAValueThatIsNotABoxState() throws {
        let errors = try schema().errors(in: ["email": "ada@example.org", "terms": "yes"])
        #expect(errors["terms"]?.first?.reason == .notAnOption(options: ["on", "true", "off", "false"]))
    }

    @Test func labelDefaultsToTheID() throws {
        #expect(try schema().fields[1].label == "nick")
        #expect(try schema().fields[0].label == "Email")
    }

    /// Fifty distinct slow patterns (distinct, so the slow-pattern memory
    /// cannot short-cut them): the first few spend the 100 ms budget, and the
    /// rest fail without their pattern being compiled.
    @Test func spentBudgetFailsTheRemainingPatternFieldsWithoutCompiling() throws {
        let tag = UUID().uuidString.prefix(8)
        let fields = (0..<50).map { index in
            ["id": "f\(index)", "type": "text", "pattern": "(?:x\(tag)\(index))?(a|a)+z"]
        }
        let json = try JSONSerialization.data(withJSONObject: ["fields": fields])
        let schema = try FormSchema.decode(from: json)
        let attack = String(repeating: "a", count: 40) + "!"
        let values = Dictionary(uniqueKeysWithValues: (0..<50).map { ("f\($0)", attack) })

        var compiled: [String] = []
        let errors = schema.errors(in: values, budget: FormSchema.Limits.patternBudget) { pattern throws(PatternMatcher.InvalidPattern) in
            compiled.append(pattern)
            return try PatternMatcher(pattern)
        }

        #expect(errors.count == 50)
        #expect(compiled.count >= 1 && compiled.count < 50)
        for (index, field) in schema.fields.enumerated() {
            let reasons = errors[field.id]?.map(\.reason) ?? []
            if index < compiled.count {
                #expect(reasons == [.patternTimedOut(pattern: field.pattern!)])
            } else {
                #expect(reasons == [.patternNotChecked(pattern: field.pattern!)])
            }
        }
        #expect(compiled == schema.fields.prefix(compiled.count).map { $0.pattern! })
    }

    @Test func patternIsNotCompiledForAnEmptyValue() throws {
        let schema = try FormSchema.decode(from: Data(#"{"fields": [{"id": "a", "type": "text", "pattern": "x"}]}"#.utf8))
        var compiles = 0
        let errors = schema.errors(in: ["a": ""], budget: .milliseconds(100)) { pattern throws(PatternMatcher.InvalidPattern) in
            compiles += 1
            return try PatternMatcher(pattern)
        }
        #expect(errors.isEmpty)
        #expect(compiles == 0)
    }

    @Test func zeroBudgetChecksNoPattern() throws {
        let schema = try FormSchema.decode(from: Data(#"{"fields": [{"id": "a", "type": "text", "pattern": "x", "maxLength": 1}]}"#.utf8))
        var compiles = 0
        let errors = schema.errors(in: ["a": "xx"], budget: .zero) { pattern throws(PatternMatcher.InvalidPattern) in
            compiles += 1
            return try PatternMatcher(pattern)
        }
        #expect(errors["a"]?.map(\.reason) == [.tooLong(maximumCharacters: 1), .patternNotChecked(pattern: "x")])
        #expect(compiles == 0)
    }
}
