import Foundation
import InputChecks

/// A tool made of subcommands (`TOOL SUBCOMMAND [OPTIONS]`): finds the
/// command, parses its options, runs it, and turns every error into one
/// line and an exit status: 0 for success, 64 for a usage error (no
/// subcommand at all is one: the help goes to the errors), 1 (or the
/// report's) for a failure. Also `TOOL --help`, `TOOL help SUBCOMMAND`,
/// `TOOL SUBCOMMAND --help`, `TOOL --version`, and "did you mean" for a
/// mistyped subcommand, option or choice.
public struct CommandLineTool: Sendable {
    /// The tool's name, as users type it.
    public var name: String
    /// One line about the tool, for its help.
    public var abstract: String
    /// The version `--version` prints, or nil for no `--version`.
    public var version: String?
    /// The subcommands, in the order help lists them.
    public var commands: [any Command.Type]
    /// Subcommands that run but are not listed or suggested.
    public var hiddenCommands: [any Command.Type]

    /// A tool named `name` with these subcommands.
    public init(
        name: String, abstract: String, version: String? = nil,
        commands: [any Command.Type], hiddenCommands: [any Command.Type] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.version = version
        self.commands = commands
        self.hiddenCommands = hiddenCommands
    }

    /// The tool's help: overview, usage and the list of subcommands.
    public var help: String { HelpText.tool(self) }

    /// The help of one subcommand, as `TOOL SUBCOMMAND --help` prints it.
    public func help(for command: any Command.Type) -> String { HelpText.command(command, tool: name) }

    /// The subcommand named `name`, hidden ones included.
    public func command(named name: String) -> (any Command.Type)? {
        (commands + hiddenCommands).first { $0.name == name }
    }

    /// Runs the command line `words` (without the tool's own name); returns
    /// the exit status. Help and version go to `output`, errors to `errors`,
    /// one line per call, without the newline.
    public func run(_ words: [String], output: (String) -> Void, errors: (String) -> Void) -> Int32 {
        // No subcommand is a usage error: the help goes to the errors, and the status says so.
        guard let first = words.first else {
            errors(String(help.dropLast()))
            return 64
        }
        guard first != "--help" && first != "-h" && (first != "help" || words.count > 1) else {
            output(String(help.dropLast()))
            return 0
        }
        if first == "--version", let version {
            output("\(name) \(version)")
            return 0
        }
        let asked = first == "help" ? words[1] : first
        guard let command = command(named: asked) else {
            errors(unknown(asked))
            return 64
        }
        if first == "help" {
            output(String(help(for: command).dropLast()))
            return 0
        }
        return Self.run(command, Array(words.dropFirst()), tool: name, output: output, errors: errors)
    }

    /// Runs the command line `words` with help and version on standard output
    /// and errors on standard error.
    public func run(_ words: [String]) -> Int32 {
        run(words, output: { print($0) }, errors: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
    }

    /// One readable sentence for any error: its description, ending in a period.
    public static func sentence(for error: any Error) -> String {
        var text = String(describing: error)
        if let last = text.last, !".!?".contains(last) { text += "." }
        return text
    }

    /// The error for a first word that names no subcommand, with the nearest
    /// one; the tool's options are what `version`, `-v` and `-V` mean.
    private func unknown(_ word: String) -> String {
        // (A key path such as `\.name` on these metatypes crashes Swift 6.3's compiler: closures here.)
        let (what, candidates) =
            word.hasPrefix("-")
            ? ("option", ["--help"] + (version == nil ? [] : ["--version"]))
            : ("subcommand", commands.map { $0.name })
        let aliases = version == nil ? [:] : ["version": "--version", "-v": "--version", "-V": "--version"]
        if let suggestion = Suggestion.nearest(to: word, in: candidates, aliases: aliases) {
            return "\(name): unknown \(what) \(Excerpt.quoted(word))\(Suggestion.phrase(suggestion))"
        }
        return "\(name): unknown \(what) \(Excerpt.quoted(word)); run '\(name) --help' for the list of subcommands."
    }

    /// Parses `words` for `command` and runs it, turning every error into lines and an exit status.
    private static func run<C: Command>(
        _ command: C.Type, _ words: [String], tool: String,
        output: (String) -> Void, errors: (String) -> Void
    ) -> Int32 {
        do {
            guard let options = try command.parse(words: words) else {
                output(String(HelpText.command(command, tool: tool).dropLast()))
                return 0
            }
            return try command.run(options)
        } catch let error as UsageError {
            if error.suggestion != nil {
                errors("\(tool) \(command.name): \(error)")
            } else {
                errors("\(tool) \(command.name): \(error.message) (see '\(tool) \(command.name) --help').")
            }
            return 64
        } catch let report as FailureReport {
            for line in report.lines { errors(line) }
            return report.status
        } catch {
            errors("\(tool) \(command.name): \(sentence(for: error))")
            return 1
        }
    }
}
