import Foundation
import InputChecks

/// A JSON or YAML document as a tree of JSON's kinds, for configuration files
/// that may be written in either.
///
/// YAML goes through libyaml (the same parser as the `libinput record`
/// importer) and only plain scalars are typed: `3` is a number, `true` a
/// boolean, `~` or `null` null, while `"3"` stays a string. Numbers are
/// decimal only (no hexadecimal, `.inf` or `.nan`). Anchors and aliases are
/// refused, nesting is limited to 64 levels and duplicate keys are an error.
///
///     let node = try DocumentNode.parse(yaml: Data("version: 1\nname: \"3\"".utf8))
///     node["version"]   // .number(1, text: "1")
///     node["name"]      // .string("3")
public enum DocumentNode: Hashable, Sendable {
    /// `null`, `~` or an empty plain YAML scalar.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A finite decimal number, with the text it was written as.
    case number(Double, text: String)
    /// A string (in YAML, any quoted scalar, and plain scalars that are not
    /// null, a boolean or a number).
    case string(String)
    /// A list.
    case array([DocumentNode])
    /// A mapping, in the document's order for YAML and sorted by key for JSON.
    case object([Member])

    /// One key and its value in an ``object(_:)``.
    public typealias Member = MappingEntry<DocumentNode>

    /// Why a document could not be parsed, in one phrase with the line and
    /// column when known.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong.
        public var message: String
        /// The 1-based line, when the parser gives one.
        public var line: Int?
        /// The 1-based column, when the parser gives one.
        public var column: Int?

        /// A parse error saying `message`, at `line` and `column` when known.
        public init(_ message: String, line: Int? = nil, column: Int? = nil) {
            self.message = message
            self.line = line
            self.column = column
        }

        /// `line 3, column 12: malformed YAML: ...`, or the message alone.
        public var description: String {
            guard let line else { return message }
            return (column.map { "line \(line), column \($0)" } ?? "line \(line)") + ": " + message
        }
    }

    /// The value for `key` in an object; nil for other kinds and missing keys.
    public subscript(key: String) -> DocumentNode? {
        guard case .object(let members) = self else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    /// The kind of this node in a few words, for messages: `a string`, `a list`, ...
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// Parses JSON text, its syntax and nesting (at most 64 levels) checked
    /// first so that a problem is reported with its line and column.
    ///
    /// - Complexity: linear in the size of `data`.
    public static func parse(json data: Data) throws(ParseError) -> DocumentNode {
        do { try JSONText.checkSyntax(data) } catch {
            throw ParseError("malformed JSON: \(error.message)", line: error.line, column: error.column)
        }
        do {
            return try JSONDecoder().decode(JSONShape.self, from: data).node
        } catch {
            throw ParseError("malformed JSON: \(JSONText.describe(decodingError: error))")
        }
    }

    /// Parses the first document of YAML text.
    ///
    /// - Complexity: linear in the size of `data`.
    public static func parse(yaml data: Data) throws(ParseError) -> DocumentNode {
        let root: YAMLNode
        do { root = try YAMLNode.parse(data) } catch {
            switch error.kind {
            case .malformed: throw ParseError("malformed YAML: " + error.detail, line: error.line, column: error.column)
            case .empty: throw ParseError("the file is empty")
            }
        }
        return try convert(root, inList: false)
    }

    /// The node as JSON's kinds; `inList` when it is an item of a sequence
    /// (where a repeated key often means a missing `- `).
    private static func convert(_ node: YAMLNode, inList: Bool) throws(ParseError) -> DocumentNode {
        switch node {
        case .scalar(let text, _, let plain):
            return plain ? typedPlainScalar(text) : .string(text)
        case .sequence(let items, _):
            var result: [DocumentNode] = []
            result.reserveCapacity(items.count)
            for item in items { result.append(try convert(item, inList: true)) }
            return .array(result)
        case .mapping(let pairs, let line):
            var seen: [String: Int] = [:]
            var members: [Member] = []
            members.reserveCapacity(pairs.count)
            for pair in pairs {
                let keyLine = pair.line ?? line
                if let first = seen[pair.key] {
                    let newItem = inList ? ", or start a new list item with '- ' if it begins another one" : ""
                    throw ParseError(
                        "malformed YAML: the key \(Excerpt.quoted(pair.key)) appears twice in one mapping (first on line \(first)); "
                            + "likely fix: keep one of them\(newItem)", line: keyLine)
                }
                seen[pair.key] = keyLine
                members.append(Member(key: pair.key, value: try convert(pair.value, inList: false)))
            }
            return .object(members)
        }
    }

    /// The YAML 1.2 core schema's types for a plain scalar, numbers limited
    /// to decimal notation.
    static func typedPlainScalar(_ text: String) -> DocumentNode {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        let allowed = Set("0123456789+-.eE")
        if let first = text.first, first.isNumber || first == "-" || first == "+" || first == ".",
            text.allSatisfy({ allowed.contains($0) }), let value = Double(text), value.isFinite
        {
            return .number(value, text: text)
        }
        return .string(text)
    }

}

/// JSON decoded into a ``DocumentNode``.
private struct JSONShape: Decodable {
    var node: DocumentNode

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            var members: [DocumentNode.Member] = []
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members.append(.init(key: key.stringValue, value: try object.decode(JSONShape.self, forKey: key).node))
            }
            node = .object(members)
        } else if var list = try? decoder.unkeyedContainer() {
            var items: [DocumentNode] = []
            while !list.isAtEnd { items.append(try list.decode(JSONShape.self).node) }
            node = .array(items)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                node = .null
            } else if let flag = try? single.decode(Bool.self) {
                node = .bool(flag)
            } else if let number = try? single.decode(Double.self) {
                let text = number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
                node = .number(number, text: text)
            } else {
                node = .string(try single.decode(String.self))
            }
        }
    }
}
