import Foundation
import StructuredDocuments
import Testing

@Suite struct DocumentNodeTests {
    private func yaml(_ text: String) throws(DocumentNode.ParseError) -> DocumentNode {
        try DocumentNode.parse(yaml: Data(text.utf8))
    }

    @Test(
        "plain YAML scalars take JSON's types; quoted ones stay strings",
        arguments: [
            ("3", DocumentNode.number(3, text: "3")),
            ("-0.5", .number(-0.5, text: "-0.5")),
            ("1e3", .number(1000, text: "1e3")),
            ("true", .bool(true)),
            ("False", .bool(false)),
            ("~", .null),
            ("null", .null),
            ("\"3\"", .string("3")),
            ("'true'", .string("true")),
            ("0x1f", .string("0x1f")),
            (".inf", .string(".inf")),
            ("up", .string("up")),
        ])
    func plainScalarsAreTyped(text: String, expected: DocumentNode) throws {
        #expect(try yaml("value: \(text)")["value"] == expected)
    }

    @Test func yamlMappingsKeepTheDocumentsOrder() throws {
        let node = try yaml("b: 1\na: [x, {c: ~}]\n")
        #expect(
            node
                == .object([
                    .init(key: "b", value: .number(1, text: "1")),
                    .init(key: "a", value: .array([.string("x"), .object([.init(key: "c", value: .null)])])),
                ]))
    }

    @Test func jsonObjectsAreSortedByKey() throws {
        let node = try DocumentNode.parse(json: Data(#"{"b": [1.5, null, "x"], "a": true}"#.utf8))
        #expect(
            node
                == .object([
                    .init(key: "a", value: .bool(true)),
                    .init(key: "b", value: .array([.number(1.5, text: "1.5"), .null, .string("x")])),
                ]))
    }

    @Test("a duplicate YAML key is an error at the duplicate's line, naming the first")
    func duplicateKeysAreRefused() {
        #expect(
            throws: DocumentNode.ParseError(
                "malformed YAML: the key 'a' appears twice in one mapping (first on line 2); likely fix: keep one of them", line: 4)
        ) {
            try yaml("top:\n  a: 1\n  b: 2\n  a:\n    c: 3\n")["top"]
        }
        // In a list item, a repeated key often begins the next item without its '- '.
        #expect(
            throws: DocumentNode.ParseError(
                "malformed YAML: the key 'gesture' appears twice in one mapping (first on line 2); "
                    + "likely fix: keep one of them, or start a new list item with '- ' if it begins another one", line: 4)
        ) {
            try yaml("bindings:\n  - gesture: swipe\n    fingers: 3\n    gesture: tap\n")
        }
    }

    @Test func emptyYAMLSaysSo() {
        #expect(throws: DocumentNode.ParseError("the file is empty")) { try yaml("") }
    }

    @Test func malformedYAMLGivesTheLine() throws {
        let error = try #require(throws: DocumentNode.ParseError.self) { try yaml("a: [1, 2\nb: 3\n") }
        #expect(error.message.hasPrefix("malformed YAML: "))
        #expect(error.line != nil)
        #expect(error.description.hasPrefix("line \(error.line!), column \(error.column!): malformed YAML: "))
    }

    @Test func malformedJSONSaysItIsJSON() throws {
        let error = try #require(throws: DocumentNode.ParseError.self) { try DocumentNode.parse(json: Data(#"{"a": "#.utf8)) }
        #expect(error.message.hasPrefix("malformed JSON: "))
        #expect(error.line == 1 && error.column == 7)
        #expect(error.description.hasPrefix("line 1, column 7: malformed JSON: "))
    }

    @Test func subscriptFindsKeysInObjectsOnly() throws {
        let node = try yaml("a: {b: 1}\n")
        #expect(node["a"]?["b"] == .number(1, text: "1"))
        #expect(node["missing"] == nil)
        #expect(node["a"]?["b"]?["c"] == nil)
    }

    @Test func kindsAreDescribedForMessages() {
        #expect(DocumentNode.array([]).kindDescription == "a list")
        #expect(DocumentNode.object([]).kindDescription == "an object")
        #expect(DocumentNode.string("").kindDescription == "a string")
    }
}
