// A small, table-driven argument parser: each subcommand declares its options
// once, and the same table drives parsing, validation and `--help`.

/// One option a subcommand accepts.
struct OptionSpec: Sendable {
    /// The long name, with dashes: `--library`.
    var name: String
    /// The placeholder for the value (`PATH`), or nil for a boolean flag.
    var value: String?
    /// One line of help.
    var help: String
    /// Whether the option may be given more than once.
    var repeatable: Bool = false

    static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, value: nil, help: help)
    }
    static func option(_ name: String, _ value: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, value: value, help: help, repeatable: repeatable)
    }
}

/// A usage error: printed as one sentence with a pointer to `--help`.
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A failure while running a command: printed as one sentence, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Parsed arguments of one subcommand.
struct Arguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []
    var helpRequested = false

    init(_ argv: [String], options: [OptionSpec]) throws {
        let specs = Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0) })
        var index = 0
        var onlyPositionals = false
        while index < argv.count {
            let word = argv[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            if word == "-h" || word == "--help" { helpRequested = true; continue }
            var name = word
            var inlineValue: String?
            if let eq = word.firstIndex(of: "=") {
                name = String(word[..<eq])
                inlineValue = String(word[word.index(after: eq)...])
            }
            guard let spec = specs[name] else {
                throw UsageError("unknown option '\(name)'")
            }
            if spec.value == nil {
                if inlineValue != nil { throw UsageError("option '\(name)' takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < argv.count else { throw UsageError("option '\(name)' needs a value (\(spec.value!))") }
                value = argv[index]
                index += 1
            }
            if values[name] != nil && !spec.repeatable {
                throw UsageError("option '\(name)' is given more than once")
            }
            values[name, default: []].append(value)
        }
    }

    func flag(_ name: String) -> Bool { flags.contains(name) }
    func value(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of `name` converted with `convert`, or `defaultValue` when absent.
    func value<T>(_ name: String, default defaultValue: T, _ what: String, _ convert: (String) -> T?) throws -> T {
        guard let text = value(name) else { return defaultValue }
        guard let converted = convert(text) else {
            throw UsageError("option '\(name)' expects \(what), got '\(text)'")
        }
        return converted
    }
}

/// One subcommand of `gestures`.
protocol Subcommand {
    static var name: String { get }
    /// One line for the command list.
    static var abstract: String { get }
    /// The usage line after `gestures NAME`.
    static var usage: String { get }
    /// Extra paragraphs for `--help`.
    static var discussion: String { get }
    static var options: [OptionSpec] { get }
    /// Runs the command; returns the exit status.
    static func run(_ arguments: Arguments) throws -> Int32
}

extension Subcommand {
    static var discussion: String { "" }

    static var help: String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: gestures \(name) \(usage)\n"
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        let all = options + [.flag("--help", "Show this help.")]
        text += "\nOPTIONS:\n"
        let labels = all.map { spec in spec.value.map { "\(spec.name) \($0)" } ?? spec.name }
        let width = min(28, (labels.map(\.count).max() ?? 0) + 2)
        for (spec, label) in zip(all, labels) {
            let pad = label.count < width ? String(repeating: " ", count: width - label.count) : "\n  " + String(repeating: " ", count: width)
            text += "  \(label)\(pad)\(spec.help)\n"
        }
        return text
    }
}
