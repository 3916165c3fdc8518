import Foundation
import Testing

@testable import Validation

/// The description of the error `json` is rejected with, or nil when it decodes.
private func rejection(_ json: String) -> String? {
    rejection(Data(json.utf8))
}

private func rejection(_ data: Data) -> String? {
    do {
        _ = try FormSchema.decode(from: data)
        return nil
    } catch {
        return error.description
    }
}

/// `{"fields": [...]}` with the given field objects.
private func schemaJSON(_ fields: [[String: Any]]) throws -> Data {
    try JSONSerialization.data(withJSONObject: ["fields": fields])
}

@Suite struct FormSchemaDecodingTests {
    @Test func decodesEveryFieldKey() throws {
        let schema = try FormSchema.decode(
            from: Data(
                """
                {"fields": [{"id": "email", "label": "Email", "type": "email", "required": true,
                             "minLength": 3, "maxLength": 100, "pattern": ".+@example\\\\.org"},
                            {"id": "n", "type": "number", "min": 0, "max": 10},
                            {"id": "s", "type": "select", "options": ["a", "b"]},
                            {"id": "c", "type": "checkbox"}]}
                """.utf8))
        let email = schema.fields[0]
        #expect(email.id == "email" && email.label == "Email" && email.type == .email && email.isRequired)
        #expect(email.minimumLength == 3 && email.maximumLength == 100 && email.pattern == ".+@example\\.org")
        #expect(schema.fields[1].minimum == 0 && schema.fields[1].maximum == 10)
        #expect(schema.fields[2].options == ["a", "b"])
        #expect(schema.fields[3].type == .checkbox && !schema.fields[3].isRequired)
    }

    @Test func rejectsJSONOverOneMegabyteBeforeParsing() {
        // Not JSON at all: the size check must come first.
        let data = Data(repeating: UInt8(ascii: "x"), count: FormSchema.Limits.maximumJSONBytes + 1)
        #expect(rejection(data) == "the JSON is 1000001 bytes, over the limit of 1000000 bytes")
    }

    @Test func rejectsMalformedJSON() throws {
        let message = try #require(rejection(#"{"fields": [ "#))
        #expect(message.hasPrefix("malformed JSON: "))
    }

    @Test(arguments: [
        ("[]", "expected an object"),
        ("{}", "fields: is required but missing"),
        (#"{"fields": {}}"#, "fields: expected an array"),
        (#"{"fields": [], "title": "x"}"#, "title: unknown key"),
        (#"{"fields": [3]}"#, "fields[0]: expected an object"),
        (#"{"fields": [{"type": "text"}]}"#, "fields[0].id: is required but missing"),
        (#"{"fields": [{"id": "", "type": "text"}]}"#, "fields[0].id: must not be empty"),
        (#"{"fields": [{"id": 7, "type": "text"}]}"#, "fields[0].id: expected a string"),
        (#"{"fields": [{"id": "a"}]}"#, "fields[0].type: is required but missing"),
        (
            #"{"fields": [{"id": "a", "type": "date"}]}"#,
            "fields[0].type: unknown field type 'date'; expected one of text, email, number, select, checkbox"
        ),
        (#"{"fields": [{"id": "a", "type": "text", "required": "yes"}]}"#, "fields[0].required: expected true or false"),
        (#"{"fields": [{"id": "a", "type": "text", "placeholder": "x"}]}"#, "fields[0].placeholder: unknown key"),
        (#"{"fields": [{"id": "a", "type": "text", "min": 1}]}"#, "fields[0].min: does not apply to a text field"),
        (
            #"{"fields": [{"id": "a", "type": "number", "pattern": "x"}]}"#,
            "fields[0].pattern: does not apply to a number field"
        ),
        (
            #"{"fields": [{"id": "a", "type": "text", "minLength": -1}]}"#,
            "fields[0].minLength: expected a whole number from 0"
        ),
        (
            #"{"fields": [{"id": "a", "type": "text", "maxLength": 2.5}]}"#,
            "fields[0].maxLength: expected a whole number from 0"
        ),
        (#"{"fields": [{"id": "a", "type": "number", "max": "9"}]}"#, "fields[0].max: expected a number"),
        (#"{"fields": [{"id": "a", "type": "select"}]}"#, "fields[0].options: a select field needs at least one option"),
        (
            #"{"fields": [{"id": "a", "type": "select", "options": []}]}"#,
            "fields[0].options: a select field needs at least one option"
        ),
        (#"{"fields": [{"id": "a", "type": "select", "options": ["x", 2]}]}"#, "fields[0].options[1]: expected a string"),
        (#"{"fields": [{"id": "a", "type": "text", "pattern": 5}]}"#, "fields[0].pattern: expected a string"),
    ])
    func rejectsAMalformedSchemaSayingWhere(json: String, message: String) {
        #expect(rejection(json) == message)
    }

    @Test func rejectsMoreThan200Fields() throws {
        let fields = (0..<201).map { ["id": "f\($0)", "type": "text"] }
        #expect(rejection(try schemaJSON(fields)) == "fields: 201 fields, over the limit of 200")
        #expect(rejection(try schemaJSON(Array(fields.prefix(200)))) == nil)
    }

    @Test func rejectsMoreThan50PatternFields() throws {
        var fields: [[String: Any]] = [["id": "plain", "type": "text"]]
        fields += (0..<51).map { ["id": "p\($0)", "type": "text", "pattern": "[a-z]*"] }
        #expect(rejection(try schemaJSON(fields)) == "fields[51].pattern: more than 50 fields have a pattern")
        #expect(rejection(try schemaJSON(Array(fields.prefix(51)))) == nil)
    }

    @Test func rejectsMoreThan500OptionsInTotal() throws {
        let fields = (0..<3).map { index in
            ["id": "s\(index)", "type": "select", "options": (0..<200).map { "o\($0)" }] as [String: Any]
        }
        #expect(rejection(try schemaJSON(fields)) == "fields[2].options: 600 options in total so far, over the limit of 500")
        let atLimit = [fields[0], fields[1], ["id": "s2", "type": "select", "options": (0..<100).map { "o\($0)" }]]
        #expect(rejection(try schemaJSON(atLimit)) == nil)
    }

    @Test func rejectsDuplicateIDs() {
        let json = #"{"fields": [{"id": "a", "type": "text"}, {"id": "b", "type": "text"}, {"id": "a", "type": "email"}]}"#
        #expect(rejection(json) == "fields[2].id: duplicate id 'a', first used by fields[0]")
    }

    @Test func rejectsMinimumLengthOverMaximumLength() {
        let json = #"{"fields": [{"id": "a", "type": "text", "minLength": 5, "maxLength": 3}]}"#
        #expect(rejection(json) == "fields[0].minLength: impossible limits: minLength 5 is greater than maxLength 3")
    }

    @Test func rejectsMinimumOverMaximum() {
        let json = #"{"fields": [{"id": "a", "type": "number", "min": 10, "max": 2.5}]}"#
        #expect(rejection(json) == "fields[0].min: impossible limits: min 10 is greater than max 2.5")
    }

    @Test func rejectsAnInvalidRegularExpressionWithICUsReason() {
        let json = #"{"fields": [{"id": "a", "type": "text"}, {"id": "b", "type": "text", "pattern": "(ab"}]}"#
        let message = rejection(json)
        #expect(
            message?.hasPrefix(
                "fields[1].pattern: invalid regular expression: a '(' or ')' without its partner, at the end of the pattern (ICU's U_REGEX_MISMATCHED_PAREN at offset 3)"
            ) == true)
    }

    @Test func acceptsEqualLimits() {
        let json =
            #"{"fields": [{"id": "a", "type": "text", "minLength": 3, "maxLength": 3}, {"id": "n", "type": "number", "min": 1, "max": 1}]}"#
        #expect(rejection(json) == nil)
    }
}
