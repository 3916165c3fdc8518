import InputChecks

/// The words of one command line read against a command's table: every
/// option value converted to its type (the first bad word is a
/// ``UsageError``), required options and the count of positional arguments
/// checked. Commands read it with typed subscripts:
///
///     let arguments = try ParsedArguments(["--format", "json", "a.jsonl"], options: [format.spec], arguments: [files])
///     arguments[format]        // OutputFormat.json
///     arguments.positionals    // ["a.jsonl"]
///
/// Reading an option that is not in the table is a programmer error and traps.
public struct ParsedArguments: Sendable {
    /// The positional arguments, in order (everything after `--` included).
    public let positionals: [String]
    /// Whether `-h` or `--help` was given (nothing else is checked then).
    public let isHelpRequested: Bool
    /// The converted values of each option given, by primary name, in order.
    private let values: [String: [any Sendable]]
    /// The words given to each option, as typed, by primary name.
    private let words: [String: [String]]
    /// The primary names of the table's options.
    private let declared: Set<String>

    /// Reads `words` against `options` and `arguments`.
    ///
    /// - Throws: ``UsageError`` for an unknown option (suggesting the nearest
    ///   name), a missing or invalid value (naming what it expects), an option
    ///   given twice that is not repeatable, a missing required option, an
    ///   option given without the one it applies with, or too few or too
    ///   many positional arguments.
    public init(_ words: [String], options: [OptionSpec], arguments: [ArgumentSpec] = []) throws(UsageError) {
        var byName: [String: OptionSpec] = [:]
        for spec in options {
            for name in spec.names {
                precondition(byName[name] == nil, "option \(name) is declared twice")
                byName[name] = spec
            }
        }
        declared = Set(options.map(\.name))
        let optionWords = words.prefix { $0 != "--" }
        isHelpRequested = optionWords.contains { $0 == "-h" || $0 == "--help" }

        var positionals: [String] = []
        var values: [String: [any Sendable]] = [:]
        var given: [String: [String]] = [:]
        var index = 0
        var onlyPositionals = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyPositionals || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            if word == "-h" || word == "--help" { continue }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let spec = byName[name] else {
                if isHelpRequested { continue }
                let names = options.flatMap(\.names) + ["--help"]
                throw UsageError("unknown option '\(name)'", suggestion: Suggestion.nearest(to: name, in: names))
            }
            let text: String
            if spec.isFlag {
                if inlineValue != nil && !isHelpRequested { throw UsageError("option '\(name)' takes no value") }
                text = ""
            } else if let inlineValue {
                text = inlineValue
            } else {
                guard index < words.count else {
                    if isHelpRequested { break }
                    throw UsageError("option '\(name)' needs a value (\(spec.valueName!))")
                }
                text = words[index]
                index += 1
            }
            if given[spec.name] != nil && !spec.isRepeatable && !spec.isFlag && !isHelpRequested {
                throw UsageError("option '\(name)' is given more than once")
            }
            guard let value = spec.convert(text) else {
                if isHelpRequested { continue }
                let suggestion = spec.kind.flatMap { Suggestion.nearest(to: text, in: $0.choices) }
                throw UsageError("option '\(name)' expects \(spec.expectation ?? "a value"), got '\(text)'", suggestion: suggestion)
            }
            values[spec.name, default: []].append(value)
            given[spec.name, default: []].append(text)
        }
        self.positionals = positionals
        self.values = values
        self.words = given
        guard !isHelpRequested else { return }
        for spec in options where spec.isRequired && values[spec.name] == nil {
            throw UsageError(spec.valueName.map { "missing \(spec.name) \($0)" } ?? "missing \(spec.name)")
        }
        for spec in options where !spec.requirements.isEmpty && values[spec.name] != nil {
            guard !spec.requirements.contains(where: { values[$0] != nil }) else { continue }
            let needed = spec.requirements.joined(separator: " or ")
            throw UsageError("\(spec.name) applies only with \(needed); add \(spec.requirements[0]) or leave \(spec.name) out")
        }
        try ArgumentSpec.check(positionals, against: arguments)
    }

    /// The value of `option`: its default (or nil, or empty) when not given.
    public subscript<Value>(option: Option<Value>) -> Value {
        option.value(given(option.spec))
    }

    /// Whether `flag` was given.
    public subscript(flag: Flag) -> Bool {
        !given(flag.spec).isEmpty
    }

    /// Whether the option was given at all, whatever its value.
    public func isGiven(_ spec: OptionSpec) -> Bool {
        !given(spec).isEmpty
    }

    /// The words given to the option named `name` (its primary name), as
    /// typed, for callers that convert them themselves; empty when not given.
    public func words(forOptionNamed name: String) -> [String] {
        precondition(declared.contains(name), "option \(name) is read but is not in the command's table")
        return words[name] ?? []
    }

    private func given(_ spec: OptionSpec) -> [any Sendable] {
        precondition(declared.contains(spec.name), "option \(spec.name) is read but is not in the command's table")
        return values[spec.name] ?? []
    }
}
