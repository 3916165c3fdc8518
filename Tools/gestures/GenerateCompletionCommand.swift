import CommandLineKit
import InputChecks

/// `gestures generate-completion SHELL` (hidden): prints the completion
/// script for bash, zsh or fish, made from the same option tables as
/// `--help`; `Tools/install` installs all three.
enum GenerateCompletionCommand: Command {
    static let name = "generate-completion"
    static let abstract = "Print the shell completion script for bash, zsh or fish, from the option tables."
    static let arguments = [
        ArgumentSpec(
            "SHELL", kind: .choice(ShellCompletion.Shell.allCases.map(\.rawValue)),
            help: "bash, zsh or fish.", missing: "missing SHELL: bash, zsh or fish")
    ]

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> ShellCompletion.Shell {
        let word = arguments.positionals[0]
        guard let shell = ShellCompletion.Shell(rawValue: word) else {
            let names = ShellCompletion.Shell.allCases.map(\.rawValue)
            throw UsageError("SHELL is bash, zsh or fish, not '\(word)'", suggestion: Suggestion.nearest(to: word, in: names))
        }
        return shell
    }

    static func run(_ shell: ShellCompletion.Shell) -> Int32 {
        print(ShellCompletion(tool: gesturesTool).script(for: shell), terminator: "")
        return 0
    }
}
