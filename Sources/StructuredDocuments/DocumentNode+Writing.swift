import InputChecks

extension DocumentNode {
    /// The node as JSON on one line: keys in the node's order, numbers as
    /// they were written, strings escaped (`JSONText.quoted`).
    ///
    ///     DocumentNode.object([.init(key: "fingers", value: .number(3, text: "3"))]).jsonText   // {"fingers":3}
    public var jsonText: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(_, let text): text
        case .string(let text): JSONText.quoted(text)
        case .array(let items): "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members): "{" + members.map { JSONText.quoted($0.key) + ":" + $0.value.jsonText }.joined(separator: ",") + "}"
        }
    }

    /// The node as JSON over several lines, indented by two spaces a level, with a final newline.
    public var prettyJSONText: String { pretty(indent: "") + "\n" }

    private func pretty(indent: String) -> String {
        let inner = indent + "  "
        switch self {
        case .array(let items) where !items.isEmpty && items.contains(where: \.isContainer):
            return "[\n" + items.map { inner + $0.pretty(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case .object(let members) where !members.isEmpty:
            return "{\n" + members.map { inner + JSONText.quoted($0.key) + ": " + $0.value.pretty(indent: inner) }.joined(separator: ",\n")
                + "\n" + indent + "}"
        default:
            return jsonText
        }
    }

    private var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }

    /// One item of a block sequence in YAML: `- key: value` lines, the dash
    /// at `indent` spaces, nested mappings in block style, lists of scalars
    /// and small mappings of scalars in flow style; each line ends in a newline.
    /// A string is written plain only where it reads back as the same string.
    ///
    ///     DocumentNode.object([.init(key: "gesture", value: .string("tap"))]).yamlSequenceItem(indent: 2)   // "  - gesture: tap\n"
    public func yamlSequenceItem(indent: Int) -> String {
        let pad = String(repeating: " ", count: indent)
        guard case .object(let members) = self, !members.isEmpty else { return pad + "- " + yamlFlow + "\n" }
        var lines: [String] = []
        for (index, member) in members.enumerated() {
            let lead = index == 0 ? pad + "- " : pad + "  "
            lines += member.yamlLines(lead: lead, indent: indent + 2)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The node in YAML's flow style, on one line.
    public var yamlFlow: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(_, let text): text
        case .string(let text): Self.yamlScalar(text)
        case .array(let items): "[" + items.map(\.yamlFlow).joined(separator: ", ") + "]"
        case .object(let members): "{" + members.map { Self.yamlScalar($0.key) + ": " + $0.value.yamlFlow }.joined(separator: ", ") + "}"
        }
    }

    /// A string as a YAML scalar: plain when that reads back as the same
    /// string (not a number, boolean or null, no indicator or `: `, ` #`),
    /// else double-quoted with JSON's escapes (which YAML reads alike).
    public static func yamlScalar(_ text: String) -> String {
        let reserved: Set<String> = ["", "~", "null", "true", "false", "yes", "no", "on", "off", "y", "n"]
        let first = text.unicodeScalars.first
        let safe =
            !reserved.contains(text.lowercased()) && Double(text) == nil
            && first.map { CharacterSetLike.plainStart($0) } == true
            && text.unicodeScalars.allSatisfy(CharacterSetLike.plainInner)
            && !text.contains(": ") && !text.contains(" #") && !text.hasSuffix(" ") && !text.hasSuffix(":")
        return safe ? text : JSONText.quoted(text)
    }
}

extension DocumentNode.Member {
    /// `key: value` (and the nested lines of a block mapping), the first line led by `lead`.
    fileprivate func yamlLines(lead: String, indent: Int) -> [String] {
        let key = DocumentNode.yamlScalar(self.key)
        switch value {
        case .object(let members) where members.contains(where: { $0.value.isNested }) || members.count > 4:
            let pad = String(repeating: " ", count: indent + 2)
            return [lead + key + ":"] + members.flatMap { $0.yamlLines(lead: pad, indent: indent + 2) }
        case .array(let items) where items.contains(where: \.isNested):
            return [lead + key + ":"] + items.map { $0.yamlSequenceItem(indent: indent + 2).dropLast().description }
        default:
            return [lead + key + ": " + value.yamlFlow]
        }
    }
}

extension DocumentNode {
    /// Whether the node holds a mapping or a list of containers (written in block style).
    fileprivate var isNested: Bool {
        switch self {
        case .object(let members): !members.isEmpty
        case .array(let items): items.contains { if case .object = $0 { true } else if case .array = $0 { true } else { false } }
        default: false
        }
    }
}

/// Which characters a plain YAML scalar of ours may hold: a conservative
/// set (letters, digits and `_ - . / + @ ,` within, no indicator first).
private enum CharacterSetLike {
    static func plainStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "/" || scalar == "."
    }

    static func plainInner(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || " _-./+@$".unicodeScalars.contains(scalar)
    }
}
