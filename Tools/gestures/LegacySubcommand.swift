import CommandLineKit

// The string-typed interface of the hidden test subcommands (`vm-suite`,
// `as-user`), kept so they run unchanged until they move to their own
// executable: their options stay words and each converts them itself.
// Every other subcommand is a typed `Command` (see CommandLineKit).

/// The argument layer's types under the names the hidden subcommands use.
typealias UsageError = CommandLineKit.UsageError
/// A failure while running a command: one sentence, exit status 1.
typealias CommandFailure = CommandLineKit.CommandFailure
/// One option of a command's table.
typealias OptionSpec = CommandLineKit.OptionSpec

/// A hidden subcommand that reads its options as words.
protocol Subcommand: Command where Options == Arguments {}

extension Subcommand {
    /// Any positional arguments: the command checks them.
    static var arguments: [ArgumentSpec] { [ArgumentSpec("ARGUMENT", count: .any)] }

    /// The words, unconverted.
    static func parse(_ arguments: ParsedArguments) -> Arguments { Arguments(parsed: arguments) }
}

/// The options of a ``Subcommand`` as words.
struct Arguments {
    /// The checked command line.
    let parsed: ParsedArguments

    /// The positional arguments.
    var positionals: [String] { parsed.positionals }

    /// Whether the flag `name` was given.
    func flag(_ name: String) -> Bool { !parsed.words(forOptionNamed: name).isEmpty }

    /// The last value of option `name`, as typed.
    func value(_ name: String) -> String? { parsed.words(forOptionNamed: name).last }
}

extension OptionSpec {
    /// A flag of a ``Subcommand``.
    static func flag(_ name: String, _ help: String) -> OptionSpec { Flag(name, help: help).spec }

    /// An option of a ``Subcommand`` whose value stays a word.
    static func option(_ name: String, _ value: String, _ help: String) -> OptionSpec {
        Option(name, valueName: value, .text, help: help).spec
    }
}
