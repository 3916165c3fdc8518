import CYAML
import Foundation

/// A YAML document as a tree of scalars, sequences and mappings, built from
/// libyaml's event parser. Anchors and aliases are refused (they are not
/// used by `libinput record` and allow exponential documents).
enum YAMLNode {
    /// A scalar's text; `plain` when it was written without quotes (only
    /// plain scalars can be numbers, booleans or null).
    case scalar(String, line: Int, plain: Bool)
    case sequence([YAMLNode], line: Int)
    case mapping([(key: String, value: YAMLNode)], line: Int)

    static let maximumDepth = 64

    var line: Int {
        switch self {
        case .scalar(_, let line, _), .sequence(_, let line), .mapping(_, let line): return line
        }
    }

    /// The value for `key` in a mapping.
    subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs, _) = self else { return nil }
        return pairs.last(where: { $0.key == key })?.value
    }

    /// Parses the first document of `data`.
    ///
    /// The corresponding C functions are `yaml_parser_initialize`,
    /// `yaml_parser_set_input_string` and `yaml_parser_parse`.
    static func parse(_ data: Data) throws(TraceError) -> YAMLNode {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw TraceError(.malformedYAML("libyaml could not start"))
        }
        defer { yaml_parser_delete(&parser) }
        let bytes = [UInt8](data)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(TraceError) -> YAMLNode in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            // Containers being built: their start line, whether a mapping, and items.
            var stack: [(isMapping: Bool, line: Int, items: [YAMLNode], keys: [String])] = []
            var root: YAMLNode?
            while root == nil {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
                    throw TraceError(.malformedYAML(problem), line: Int(parser.problem_mark.line) + 1)
                }
                defer { yaml_event_delete(&event) }
                let line = Int(event.start_mark.line) + 1
                var finished: YAMLNode?
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    if root == nil { throw TraceError(.emptyFile) }
                case YAML_ALIAS_EVENT:
                    throw TraceError(.malformedYAML("aliases are not supported"), line: line)
                case YAML_SCALAR_EVENT:
                    let scalar = event.data.scalar
                    let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                    finished = .scalar(text, line: line, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE)
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    guard stack.count < maximumDepth else {
                        throw TraceError(.malformedYAML("nested deeper than \(maximumDepth) levels"), line: line)
                    }
                    stack.append((event.type == YAML_MAPPING_START_EVENT, line, [], []))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    let container = stack.removeLast()
                    if container.isMapping {
                        finished = .mapping(Array(zip(container.keys, container.items).map { (key: $0.0, value: $0.1) }), line: container.line)
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
                    guard case .scalar(let key, _, _) = node else {
                        throw TraceError(.malformedYAML("mapping keys must be scalars"), line: line)
                    }
                    stack[top].keys.append(key)
                } else {
                    stack[top].items.append(node)
                }
            }
            return root!
        }
    }
}
