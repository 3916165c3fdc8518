/// The description of one option, as every table needs it: parsing, errors,
/// `--help`, and later man pages and shell completions. Made by ``Option``
/// and ``Flag``, which add the typed value.
public struct OptionSpec: Sendable {
    /// The primary name, with dashes: `--output`.
    public var name: String
    /// Other names for the same option: `-o`.
    public var aliases: [String]
    /// The placeholder of the value (`PATH`, `text|json`), or nil for a flag.
    public var valueName: String?
    /// One line of help, without the default (help adds it).
    public var help: String
    /// What the value is; nil for a flag.
    public var kind: ValueKind?
    /// What the value must be, after "expects": `a number from 0 to 1`; nil for a flag.
    public var expectation: String?
    /// The default value as the user would write it, when there is one.
    public var defaultValue: String?
    /// Whether the option may be given more than once (every value is kept).
    public var isRepeatable: Bool
    /// Whether the command cannot run without it.
    public var isRequired: Bool
    /// The options (primary names) it applies with: given without any of
    /// them, it is a usage error (`--format` of `run` needs `--explain`).
    /// Empty: it applies alone.
    public var requirements: [String] = []
    /// Converts one value, or nil when the text is not a valid value.
    let convert: @Sendable (String) -> (any Sendable)?

    init(
        name: String, aliases: [String], valueName: String?, help: String, kind: ValueKind?, expectation: String?,
        defaultValue: String?, isRepeatable: Bool, isRequired: Bool, convert: @escaping @Sendable (String) -> (any Sendable)?
    ) {
        precondition(([name] + aliases).allSatisfy { $0.hasPrefix("-") && $0.count > 1 }, "option names start with a dash: \(name)")
        self.name = name
        self.aliases = aliases
        self.valueName = valueName
        self.help = help
        self.kind = kind
        self.expectation = expectation
        self.defaultValue = defaultValue
        self.isRepeatable = isRepeatable
        self.isRequired = isRequired
        self.convert = convert
    }

    /// Every name: the aliases, then the primary name.
    public var names: [String] { aliases + [name] }

    /// Whether the option takes no value.
    public var isFlag: Bool { valueName == nil }

    /// `-o, --output FILE`: the names and the placeholder, as help lists them.
    public var label: String {
        names.joined(separator: ", ") + (valueName.map { " \($0)" } ?? "")
    }

    /// The help line with the default: `Output format (default: text).`
    public var helpWithDefault: String {
        guard let defaultValue else { return help }
        if help.hasSuffix(".") { return "\(help.dropLast()) (default: \(defaultValue))." }
        return "\(help) (default: \(defaultValue))"
    }

    /// `[--format text|json]`, `--library LIB.json`, `[--remove NAME]...`: the option in a usage line.
    public var usageText: String {
        let text = name + (valueName.map { " \($0)" } ?? "")
        return (isRequired ? text : "[\(text)]") + (isRepeatable ? "..." : "")
    }
}
