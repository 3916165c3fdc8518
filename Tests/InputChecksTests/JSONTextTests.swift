import Foundation
import Testing

@testable import InputChecks

/// JSON is checked before Foundation decodes it, so every problem is said in
/// our words with where it is (issue 16, "messages in our own words").
@Suite struct JSONTextTests {
    static let valid: [String] = [
        "0", "-0", "1.5", "-2e10", "1E+2", "3e-5", #""""#, #""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#,
        "true", "false", "null", "[]", "{}", " [1, {\"a\": [null]}] ", "\u{FEFF}{\"a\": 1}", "\"é😀\"",
        "[" + String(repeating: "[", count: 63) + String(repeating: "]", count: 64),
        "1" + String(repeating: "0", count: 300),
    ]

    @Test(arguments: valid)
    func validJSONPasses(text: String) throws {
        try JSONText.checkSyntax(Data(text.utf8))
        // What passes, Foundation reads.
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil || text.hasPrefix("\u{FEFF}"))
    }

    static let invalid: [(text: String, line: Int, column: Int, words: String)] = [
        ("", 1, 1, "empty"),
        ("   \n  ", 2, 3, "empty"),
        ("00", 1, 1, "'00' is not a number"),
        ("{\"a\": 01}", 1, 7, "'01' is not a number"),
        ("1e400", 1, 1, "the number '1e400' is out of range"),
        ("[-1e400]", 1, 2, "out of range"),
        ("1e-400", 1, 1, "out of range"),
        ("1" + String(repeating: "0", count: 400), 1, 1, "out of range"),
        ("1.", 1, 1, "is not a number"),
        ("-", 1, 1, "is not a number"),
        ("NaN", 1, 1, "expected a value, found 'N'"),
        ("[1, 2,]", 1, 7, "expected a value, found ']'"),
        ("{\"a\" 1}", 1, 6, "expected ':' after a key"),
        ("{a: 1}", 1, 2, "expected a key in double quotes"),
        ("[1 2]", 1, 4, "expected ',' or ']', found '2'"),
        ("{\"a\": 1", 1, 8, "the text ends inside an object"),
        ("\"abc", 1, 1, "a string is not closed"),
        ("\"a\nb\"", 1, 3, "raw control character ('\\n')"),
        ("\"\\x\"", 1, 2, "cannot follow '\\'"),
        ("\"\\u12\"", 1, 2, "four hexadecimal digits"),
        ("\"\\udc00\"", 1, 2, "lone low surrogate"),
        ("\"\\ud800x\"", 1, 2, "without its low half"),
        ("1 2", 1, 3, "expected the end of the text after the value, found '2'"),
        ("{}\n\n  ]", 3, 3, "found ']'"),
        ("[\u{2028}]", 1, 2, "found '\\u{2028}'"),
        (String(repeating: "[", count: 65), 1, 65, "nested deeper than the limit of 64 levels"),
        ("{\"a\":" + String(repeating: "{\"b\":", count: 100_000), 1, 1 + 5 * 64, "nested deeper than the limit of 64 levels"),
    ]

    @Test(arguments: invalid.indices)
    func invalidJSONSaysWhereAndWhat(index: Int) {
        let (text, line, column, words) = Self.invalid[index]
        do {
            try JSONText.checkSyntax(Data(text.utf8))
            Issue.record("\(text.prefix(40)) passed")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.column == column, "\(error)")
            #expect(error.message.contains(words), "\(error)")
            #expect(error.description.count <= 200 && !error.description.contains("\n"))
        }
    }

    @Test func bytesThatAreNotUTF8AreRefused() {
        for bytes: [UInt8] in [
            [0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22], [0xFF],
        ] {
            #expect(throws: JSONText.SyntaxError.self) { try JSONText.checkSyntax(Data(bytes)) }
        }
    }

    struct Sample: Decodable {
        var count: Int
        var ratio: Double
        var name: String
        var tags: [String]
        var flag: Bool?
    }

    @Test(
        "decoding errors are said in our words, never with Swift's type names",
        arguments: [
            (#"{"count": 1, "ratio": 2, "name": "a"}"#, "tags: is required"),
            (#"{"count": "x", "ratio": 2, "name": "a", "tags": []}"#, "count: must be an integer"),
            (#"{"count": 1, "ratio": [2], "name": "a", "tags": []}"#, "ratio: must be a number"),
            (#"{"count": 1, "ratio": 2, "name": 3, "tags": []}"#, "name: must be a string"),
            (#"{"count": 1, "ratio": 2, "name": "a", "tags": {}}"#, "tags: must be a list"),
            (#"{"count": 1, "ratio": 2, "name": "a", "tags": [1]}"#, "tags[0]: must be a string"),
            (#"{"count": 1, "ratio": 2, "name": "a", "tags": [], "flag": 1}"#, "flag: must be true or false"),
            (#"{"count": null, "ratio": 2, "name": "a", "tags": []}"#, "count: must be an integer, not null"),
            (#"[1]"#, "must be an object"),
        ])
    func decodingErrorsInOurWords(json: String, expected: String) {
        do {
            _ = try JSONText.decode(Sample.self, from: Data(json.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.description == expected || error.description.hasPrefix(expected), "\(error)")
            for leak in ["Int", "Double", "String", "Bool", "Array", "Dictionary", "Debug", "Expected to decode", "CodingKeys"] {
                #expect(!error.description.contains(leak), "\(error)")
            }
        }
    }

    @Test func keyPathsShortenAndEscapeKeys() {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) { self.stringValue = stringValue }
            init(intValue: Int) { stringValue = "\(intValue)"; self.intValue = intValue }
        }
        let path = JSONText.keyPath([
            Key(stringValue: "a\nb"), Key(intValue: 3), Key(stringValue: String(repeating: "k", count: 1_000_000)),
        ])
        #expect(path.hasPrefix("a\\nb[3].kkk"))
        #expect(path.count < 60)
    }
}
