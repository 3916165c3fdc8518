import Testing

@testable import Validation

@Suite struct FormSchemaSchemaErrorTests {
    @Test func descriptionSaysWhereThenWhat() {
        let error = FormSchema.SchemaError("fields[3].pattern", .invalidPattern("U_REGEX_BAD_INTERVAL at offset 2"))
        #expect(error.description == "fields[3].pattern: invalid regular expression: U_REGEX_BAD_INTERVAL at offset 2")
    }

    @Test func documentWideErrorHasNoPath() {
        #expect(
            FormSchema.SchemaError("", .malformedJSON("unexpected end of file")).description
                == "malformed JSON: unexpected end of file")
    }
}
