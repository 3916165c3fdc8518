/// One subcommand: its table (name, abstract, options, arguments) and two
/// steps, ``parse(_:)`` from the checked arguments to typed ``Options``
/// without side effects, and ``run(_:)`` with them.
///
///     enum GreetCommand: Command {
///         static let name = "greet"
///         static let abstract = "Say hello."
///         static let loud = Flag("--loud", help: "Shout.")
///         static let options = [loud.spec]
///         static let arguments = [ArgumentSpec("NAME", help: "Who to greet.")]
///         struct Options { var name: String; var loud: Bool }
///         static func parse(_ arguments: ParsedArguments) -> Options {
///             Options(name: arguments.positionals[0], loud: arguments[loud])
///         }
///         static func run(_ options: Options) -> Int32 { print("hello \(options.name)"); return 0 }
///     }
public protocol Command: SendableMetatype {
    /// The command's typed options, as its parse step returns them.
    associatedtype Options

    /// The name after the tool's: `replay`.
    static var name: String { get }
    /// One line for the command list.
    static var abstract: String { get }
    /// The usage after `TOOL NAME`, one line per form when the command has
    /// several (`FILE...` and `--uinput FILE`); by default made from the table.
    static var usage: String { get }
    /// Paragraphs for `--help` after the usage; empty by default.
    static var discussion: String { get }
    /// The options, in the order help lists them.
    static var options: [OptionSpec] { get }
    /// The positional arguments, in order; none by default.
    static var arguments: [ArgumentSpec] { get }

    /// The typed options from arguments already checked against the table;
    /// throws only for combinations the table cannot express.
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options

    /// Runs the command; returns the exit status.
    static func run(_ options: Options) throws -> Int32
}

extension Command {
    /// No discussion.
    public static var discussion: String { "" }

    /// No options.
    public static var options: [OptionSpec] { [] }

    /// No positional arguments.
    public static var arguments: [ArgumentSpec] { [] }

    /// The table's options then its arguments, as in `[--ends] [--format text|json] FILE...`.
    public static var usage: String { usageText(options: options, arguments: arguments) }

    /// `options` then `arguments` as a usage line: for a command with several
    /// forms, whose ``usage`` joins one line per form with newlines.
    public static func usageText(options: [OptionSpec], arguments: [ArgumentSpec] = []) -> String {
        (options.map(\.usageText) + arguments.map(\.usageText)).joined(separator: " ")
    }

    /// Checks `words` against the table and parses them.
    ///
    /// - Returns: nil when help was asked for.
    public static func parse(words: [String]) throws(UsageError) -> Options? {
        let parsed = try ParsedArguments(words, options: options, arguments: arguments)
        return parsed.isHelpRequested ? nil : try parse(parsed)
    }
}
