import Foundation
import StructuredDocuments
import Testing

@Suite struct YAMLNodeTests {
    private func parse(_ text: String) throws(YAMLNode.ParseError) -> YAMLNode {
        try YAMLNode.parse(Data(text.utf8))
    }

    @Test func nodesCarryTheirLines() throws {
        let root = try parse("# comment\nversion: 1\ndevices:\n  - name: pad\n    codes: [1, 2]\n")
        #expect(root.line == 2)
        #expect(root["version"] == .scalar("1", line: 2, plain: true))
        let devices = try #require(root["devices"])
        #expect(devices.line == 4)
        guard case .sequence(let items, _) = devices else { Issue.record("not a sequence: \(devices)"); return }
        #expect(items.count == 1)
        #expect(items[0]["codes"] == .sequence([.scalar("1", line: 5, plain: true), .scalar("2", line: 5, plain: true)], line: 5))
    }

    @Test func quotedScalarsAreNotPlain() throws {
        #expect(try parse("a: \"1\"\n")["a"] == .scalar("1", line: 1, plain: false))
    }

    @Test func aRepeatedKeyReadsAsTheLastValue() throws {
        let root = try parse("a: 1\na: 2\n")
        #expect(root["a"] == .scalar("2", line: 2, plain: true))
        guard case .mapping(let pairs, _) = root else { Issue.record("not a mapping"); return }
        #expect(pairs.map(\.key) == ["a", "a"])
    }

    @Test func aliasesAreRefused() {
        #expect(throws: YAMLNode.ParseError(.malformed("aliases are not supported"), line: 2)) {
            try parse("a: &x 1\nb: *x\n")
        }
    }

    @Test func nestingDeeperThanTheLimitIsRefused() throws {
        let depth = YAMLNode.maximumDepth
        _ = try parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        #expect(throws: YAMLNode.ParseError(.malformed("nested deeper than \(depth) levels"), line: 1)) { try parse(tooDeep) }
    }

    @Test func nonScalarKeysAreRefused() {
        #expect(throws: YAMLNode.ParseError(.malformed("mapping keys must be scalars"), line: 1)) { try parse("? [a]\n: 1\n") }
    }

    @Test func emptyTextIsEmpty() {
        #expect(throws: YAMLNode.ParseError(.empty)) { try parse("") }
        #expect(throws: YAMLNode.ParseError(.empty)) { try parse("# only a comment\n") }
    }

    @Test func errorsReadAsOneLine() {
        #expect(
            YAMLNode.ParseError(.malformed("did not find expected ','"), line: 3).description
                == "line 3: malformed YAML: did not find expected ','")
        #expect(
            YAMLNode.ParseError(.malformed("did not find expected key"), line: 3, column: 5, excerpt: "'    b: 2'", fix: "indent it")
                .description
                == "line 3, column 5: malformed YAML: did not find expected key, in '    b: 2'; likely fix: indent it")
        #expect(YAMLNode.ParseError(.empty).description == "the file is empty")
    }
}
