internal import CYAML
import Foundation

/// A YAML document as a tree of scalars, sequences and mappings, each with
/// the line it starts on, built from libyaml's event parser.
///
/// Scalars stay text (``DocumentNode`` gives them JSON's types). Anchors and
/// aliases are refused (they are not used by `libinput record` or the
/// configuration, and allow exponential documents), and nesting is limited
/// to ``maximumDepth`` levels.
///
///     let node = try YAMLNode.parse(Data("version: 1\ndevices: [a, b]\n".utf8))
///     node["version"]            // .scalar("1", line: 1, plain: true)
///     node["devices"]?.line      // 2
public enum YAMLNode: Hashable, Sendable {
    /// A scalar's text; `plain` when it was written without quotes (only
    /// plain scalars can be numbers, booleans or null).
    case scalar(String, line: Int, plain: Bool)
    /// A list.
    case sequence([YAMLNode], line: Int)
    /// A mapping, its pairs in the document's order (keys may repeat).
    case mapping([Pair], line: Int)

    /// One key (keys must be scalars) and its value in a ``mapping(_:line:)``.
    public typealias Pair = MappingEntry<YAMLNode>

    /// Why YAML text could not be parsed, and where: the line and column,
    /// the line as written, and the likely fix when the text shows one
    /// (indentation, tabs, an unclosed quote or bracket; see
    /// ``YAMLSyntaxDiagnosis``).
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong.
        public enum Kind: Hashable, Sendable {
            /// The text holds no document.
            case empty
            /// The text is not well-formed YAML, or uses what this reader refuses.
            case malformed(String)
        }

        /// What is wrong.
        public var kind: Kind
        /// The 1-based line, when known.
        public var line: Int?
        /// The 1-based column (in characters), when known.
        public var column: Int?
        /// The line as written, shortened and escaped (tabs show as `\t`), when known.
        public var excerpt: String?
        /// The likely fix, as a phrase: `indent it by 4 spaces, like 'gesture' on line 3`.
        public var fix: String?

        /// An error of `kind`, at `line` and `column` when known.
        public init(_ kind: Kind, line: Int? = nil, column: Int? = nil, excerpt: String? = nil, fix: String? = nil) {
            self.kind = kind
            self.line = line
            self.column = column
            self.excerpt = excerpt
            self.fix = fix
        }

        /// What is wrong without the place: `mapping values are not allowed
        /// in this context, in '     fingers: 3'; likely fix: indent it by 4
        /// spaces, like 'gesture' on line 3`.
        public var detail: String { detail(withColumn: false) }

        /// ``detail``, with `at column 9` after the problem when `withColumn`
        /// (for a reader whose own message gives only the line).
        public func detail(withColumn: Bool) -> String {
            switch kind {
            case .empty: return "the file is empty"
            case .malformed(let problem):
                var text = problem
                if withColumn, let column { text += " at column \(column)" }
                if let excerpt { text += ", in " + excerpt }
                if let fix { text += "; likely fix: " + fix }
                return text
            }
        }

        /// `line 3, column 5: malformed YAML: ...`, or `the file is empty`.
        public var description: String {
            guard case .malformed = kind else { return detail }
            let message = "malformed YAML: " + detail
            guard let line else { return message }
            return (column.map { "line \(line), column \($0)" } ?? "line \(line)") + ": " + message
        }
    }

    /// The deepest nesting of sequences and mappings that is read.
    public static let maximumDepth = 64

    /// The 1-based line the node starts on.
    public var line: Int {
        switch self {
        case .scalar(_, let line, _), .sequence(_, let line), .mapping(_, let line): return line
        }
    }

    /// The value for `key` in a mapping (the last one when the key repeats);
    /// nil for other kinds and missing keys.
    public subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs, _) = self else { return nil }
        return pairs.last(where: { $0.key == key })?.value
    }

    /// Parses the first document of `data`.
    ///
    /// The corresponding C functions are `yaml_parser_initialize`,
    /// `yaml_parser_set_input_string` and `yaml_parser_parse`.
    ///
    /// - Complexity: linear in the size of `data`.
    public static func parse(_ data: Data) throws(ParseError) -> YAMLNode {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw ParseError(.malformed("libyaml could not start"))
        }
        defer { yaml_parser_delete(&parser) }
        let bytes = [UInt8](data)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(ParseError) -> YAMLNode in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            // Containers being built: their start line, whether a mapping, and items.
            var stack: [(isMapping: Bool, line: Int, items: [YAMLNode], keys: [(text: String, line: Int)])] = []
            var root: YAMLNode?
            while root == nil {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
                    let context = parser.context.map { String(cString: $0) }
                    throw YAMLSyntaxDiagnosis(
                        text: buffer, problem: problem,
                        line: Int(parser.problem_mark.line) + 1, column: Int(parser.problem_mark.column) + 1,
                        context: context, contextLine: Int(parser.context_mark.line) + 1,
                        contextColumn: Int(parser.context_mark.column) + 1
                    ).error
                }
                defer { yaml_event_delete(&event) }
                let line = Int(event.start_mark.line) + 1
                var finished: YAMLNode?
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    if root == nil { throw ParseError(.empty) }
                case YAML_ALIAS_EVENT:
                    throw ParseError(.malformed("aliases are not supported"), line: line)
                case YAML_SCALAR_EVENT:
                    let scalar = event.data.scalar
                    let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                    finished = .scalar(text, line: line, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE)
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    guard stack.count < maximumDepth else {
                        throw ParseError(.malformed("nested deeper than \(maximumDepth) levels"), line: line)
                    }
                    stack.append((event.type == YAML_MAPPING_START_EVENT, line, [], []))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    let container = stack.removeLast()
                    if container.isMapping {
                        let pairs = zip(container.keys, container.items).map { Pair(key: $0.0.text, value: $0.1, line: $0.0.line) }
                        finished = .mapping(pairs, line: container.line)
                    } else {
                        finished = .sequence(container.items, line: container.line)
                    }
                default:
                    break
                }
                guard let node = finished else { continue }
                guard !stack.isEmpty else { root = node; break }
                let top = stack.count - 1
                if stack[top].isMapping && stack[top].keys.count == stack[top].items.count {
                    guard case .scalar(let key, let keyLine, _) = node else {
                        throw ParseError(.malformed("mapping keys must be scalars"), line: line)
                    }
                    stack[top].keys.append((key, keyLine))
                } else {
                    stack[top].items.append(node)
                }
            }
            return root!
        }
    }
}
