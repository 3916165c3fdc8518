import Foundation

/// Shell completion scripts for bash, zsh and fish, made from the same
/// tables as `--help`: the listed subcommands, each one's options (choices
/// completed as words, files and directories as paths) and positional
/// arguments, so completion cannot drift from the tool.
///
///     print(ShellCompletion(tool: tool).script(for: .bash))
///     // _gestures() { ... }
///     // complete -F _gestures gestures
public struct ShellCompletion: Sendable {
    /// A shell a script is made for.
    public enum Shell: String, CaseIterable, Sendable {
        /// bash, with bash-completion or plain `complete -F`.
        case bash
        /// zsh's completion system (`compinit`, `_arguments`).
        case zsh
        /// fish's `complete` commands.
        case fish

        /// Where a user-wide installation under `prefix` (`~/.local`) puts the
        /// script, relative to the prefix, for a tool named `tool`.
        public func installPath(tool: String) -> String {
            switch self {
            case .bash: "share/bash-completion/completions/\(tool)"
            case .zsh: "share/zsh/site-functions/_\(tool)"
            case .fish: "share/fish/vendor_completions.d/\(tool).fish"
            }
        }
    }

    /// The tool completed.
    public var tool: CommandLineTool

    /// Completion for `tool`.
    public init(tool: CommandLineTool) {
        self.tool = tool
    }

    /// The script for `shell`.
    public func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    private var header: String {
        "completion for \(tool.name), generated from its option tables by '\(tool.name) generate-completion'; do not edit."
    }

    /// The words the tool accepts first: subcommands, `help`, `--help`, `--version`.
    private var firstWords: [String] {
        tool.commands.map { $0.name } + ["help", "--help"] + (tool.version == nil ? [] : ["--version"])
    }

    /// The subcommands completed after their name: the listed ones and the
    /// hidden ones (`generate-completion <TAB>` offers its shells), though
    /// only the listed ones are offered as a first word.
    private var completedCommands: [any Command.Type] { tool.commands + tool.hiddenCommands }

    /// What completes a value of `kind`, in each shell's terms.
    private enum Completion {
        case nothing
        case words([String])
        case files, directories
        case filesAnd([String])

        init(_ kind: ValueKind?) {
            switch kind {
            case .choice(let words)?: self = .words(words)
            case .file?: self = .files
            case .fileOr(let words)?: self = .filesAnd(words)
            case .directory?: self = .directories
            case .text?, .number?, nil: self = .nothing
            }
        }
    }

    /// The completion of a command's positional arguments (its first argument's kind).
    private static func positional(_ command: any Command.Type) -> Completion? {
        command.arguments.first.map { Completion($0.kind) }
    }

    // MARK: bash

    private var bash: String {
        let name = tool.name
        let function = "_" + name.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
        var out = "# bash \(header)\n\(function)() {\n"
        out += "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n    COMPREPLY=()\n"
        out += "    if (( COMP_CWORD == 1 )); then\n"
        out += "        COMPREPLY=($(compgen -W '\(firstWords.joined(separator: " "))' -- \"$cur\"))\n        return 0\n    fi\n"
        out += "    case ${COMP_WORDS[1]} in\n"
        out +=
            "    help)\n        (( COMP_CWORD == 2 )) && COMPREPLY=($(compgen -W '\(tool.commands.map { $0.name }.joined(separator: " "))' -- \"$cur\"))\n        return 0;;\n"
        for command in completedCommands {
            out += "    \(command.name))\n"
            let valued = command.options.filter { !$0.isFlag }
            if !valued.isEmpty {
                out += "        case $prev in\n"
                for option in valued {
                    out += "        \(option.names.joined(separator: "|"))) \(Self.bashReply(Completion(option.kind))) return 0;;\n"
                }
                out += "        esac\n"
            }
            let options = command.options.flatMap(\.names) + ["--help"]
            out += "        if [[ $cur == -* ]]; then\n"
            out += "            COMPREPLY=($(compgen -W '\(options.joined(separator: " "))' -- \"$cur\"))\n"
            if let positional = Self.positional(command) {
                out += "        else\n            \(Self.bashReply(positional))\n"
            }
            out += "        fi\n        return 0;;\n"
        }
        out += "    esac\n}\ncomplete -F \(function) \(name)\n"
        return out
    }

    private static func bashReply(_ completion: Completion) -> String {
        switch completion {
        case .nothing: "COMPREPLY=();"
        case .words(let words): "COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- \"$cur\"));"
        case .files: "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"));"
        case .directories: "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\"));"
        case .filesAnd(let words):
            "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- \"$cur\") $(compgen -f -- \"$cur\"));"
        }
    }

    // MARK: zsh

    private var zsh: String {
        let name = tool.name
        var out = "#compdef \(name)\n# zsh \(header)\n_\(name)() {\n  local -a commands\n  commands=(\n"
        for command in tool.commands {
            out += "    \(Self.zshQuoted(command.name + ":" + command.abstract))\n"
        }
        out += "  )\n"
        out += "  if (( CURRENT == 2 )); then\n    _describe -t commands '\(name) subcommand' commands\n"
        out += "    compadd -- --help\(tool.version == nil ? "" : " --version")\n    return\n  fi\n"
        out += "  local command=$words[2]\n  shift words\n  (( CURRENT-- ))\n  case $command in\n"
        out += "    help) (( CURRENT == 2 )) && _describe -t commands '\(name) subcommand' commands ;;\n"
        for command in completedCommands {
            var specs: [String] = []
            for option in command.options {
                let help = "[" + Self.zshBracketed(option.help) + "]"
                let value =
                    option.valueName.map {
                        ":" + $0.replacingOccurrences(of: ":", with: "\\:") + ":" + Self.zshAction(Completion(option.kind))
                    } ?? ""
                let repeated = option.isRepeatable ? "*" : ""
                if option.names.count == 1 {
                    specs.append(Self.zshQuoted(repeated + option.name + help + value))
                } else {
                    let exclusion = option.isRepeatable ? "" : Self.zshQuoted("(" + option.names.joined(separator: " ") + ")")
                    specs.append(exclusion + repeated + "{" + option.names.joined(separator: ",") + "}" + Self.zshQuoted(help + value))
                }
            }
            specs.append(Self.zshQuoted("(- *)--help[Show this help.]"))
            if let argument = command.arguments.first {
                let count: String
                switch argument.count {
                case .one: count = ":"
                case .optional: count = "::"
                case .oneOrMore, .any: count = "*:"
                }
                specs.append(Self.zshQuoted(count + argument.name + ":" + Self.zshAction(Completion(argument.kind))))
            }
            out += "    \(command.name))\n      _arguments -s \\\n"
            out += specs.map { "        \($0)" }.joined(separator: " \\\n") + " ;;\n"
        }
        out += "  esac\n}\n_\(name) \"$@\"\n"
        return out
    }

    private static func zshAction(_ completion: Completion) -> String {
        switch completion {
        case .nothing: " "
        case .words(let words): "(" + words.joined(separator: " ") + ")"
        case .files: "_files"
        case .directories: "_files -/"
        case .filesAnd(let words): "{compadd -- \(words.joined(separator: " ")); _files}"
        }
    }

    /// `text` inside the brackets of an `_arguments` description.
    private static func zshBracketed(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "[", with: "\\[")
            .replacingOccurrences(of: "]", with: "\\]")
    }

    /// `text` in single quotes for any POSIX-like shell.
    private static func zshQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: fish

    private var fish: String {
        let name = tool.name
        let names = tool.commands.map { $0.name }.joined(separator: " ")
        var out = "# fish \(header)\ncomplete -c \(name) -f\n"
        let top = "-n 'not __fish_seen_subcommand_from \(names) help'"
        for command in tool.commands {
            out += "complete -c \(name) \(top) -a \(command.name) -d \(Self.fishQuoted(command.abstract))\n"
        }
        out += "complete -c \(name) \(top) -a help -d 'Show the help of a subcommand.'\n"
        out += "complete -c \(name) \(top) -l help -d 'Show the help.'\n"
        if tool.version != nil { out += "complete -c \(name) \(top) -l version -d 'Print the version.'\n" }
        out += "complete -c \(name) -n '__fish_seen_subcommand_from help' -a '\(names)'\n"
        for command in completedCommands {
            let when = "-n '__fish_seen_subcommand_from \(command.name)'"
            for option in command.options {
                var line = "complete -c \(name) \(when)"
                for alias in option.names {
                    line += alias.hasPrefix("--") ? " -l \(alias.dropFirst(2))" : " -s \(alias.dropFirst())"
                }
                if !option.isFlag { line += " " + Self.fishValue(Completion(option.kind)) }
                out += line + " -d \(Self.fishQuoted(option.help))\n"
            }
            out += "complete -c \(name) \(when) -l help -d 'Show this help.'\n"
            if let positional = Self.positional(command) {
                switch positional {
                case .nothing: break
                case .words(let words): out += "complete -c \(name) \(when) -a '\(words.joined(separator: " "))'\n"
                case .files: out += "complete -c \(name) \(when) -F\n"
                case .directories: out += "complete -c \(name) \(when) -a '(__fish_complete_directories)'\n"
                case .filesAnd(let words): out += "complete -c \(name) \(when) -F -a '\(words.joined(separator: " "))'\n"
                }
            }
        }
        return out
    }

    private static func fishValue(_ completion: Completion) -> String {
        switch completion {
        case .nothing: "-x"
        case .words(let words): "-x -a '\(words.joined(separator: " "))'"
        case .files: "-r -F"
        case .directories: "-x -a '(__fish_complete_directories)'"
        case .filesAnd(let words): "-r -F -a '\(words.joined(separator: " "))'"
        }
    }

    private static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
