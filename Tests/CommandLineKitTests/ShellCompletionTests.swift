import CommandLineKit
import Testing

@Suite("ShellCompletion: bash, zsh and fish scripts from the option tables")
struct ShellCompletionTests {
    static let completion = ShellCompletion(tool: CommandLineToolTests.tool)

    @Test("bash completes subcommands, then each command's options, choices and paths")
    func bash() {
        let script = Self.completion.script(for: .bash)
        #expect(script.contains("compgen -W 'draw erase help --help --version'"))
        #expect(script.contains("compgen -W '--shape --size --count -o --output --tag --fill --help'"))
        #expect(script.contains("--shape) COMPREPLY=($(compgen -W 'circle square triangle' -- \"$cur\")); return 0;;"))
        #expect(script.contains("-o|--output) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); return 0;;"))
        #expect(script.contains("--size) COMPREPLY=(); return 0;;"), "a number completes to nothing")
        #expect(script.hasSuffix("complete -F _tool tool\n"))
        // A hidden command is not offered as a first word, but is completed once typed.
        #expect(!script.contains("erase secret") && !script.contains("secret help"))
        #expect(script.contains("    secret)\n"))
    }

    @Test("a value that is a file or a word completes both, in each shell")
    func filesAndWords() {
        let tool = CommandLineTool(name: "tool", abstract: "", commands: [LibraryCommand.self])
        let completion = ShellCompletion(tool: tool)
        #expect(completion.script(for: .bash).contains("COMPREPLY=($(compgen -W 'default' -- \"$cur\") $(compgen -f -- \"$cur\"));"))
        #expect(completion.script(for: .zsh).contains("':LIB:{compadd -- default; _files}'"))
        #expect(completion.script(for: .fish).contains("complete -c tool -n '__fish_seen_subcommand_from library' -F -a 'default'"))
        #expect(completion.script(for: .fish).contains("-l with -r -F -a 'default'"))
    }

    @Test("zsh describes subcommands and specifies each option for _arguments")
    func zsh() {
        let script = Self.completion.script(for: .zsh)
        #expect(script.hasPrefix("#compdef tool\n"))
        #expect(script.contains("'draw:Draw shapes.'"))
        #expect(script.contains("'--shape[The shape.]:circle|square|triangle:(circle square triangle)'"))
        #expect(script.contains("'(-o --output)'{-o,--output}'[Where to draw.]:FILE:_files'"))
        #expect(script.contains("'*--tag[A tag; repeat for more.]:TAG: '"))
        #expect(script.contains("'*:NAME: '"))
    }

    @Test("fish offers subcommands until one is given, then its options")
    func fish() {
        let script = Self.completion.script(for: .fish)
        #expect(script.contains("complete -c tool -n 'not __fish_seen_subcommand_from draw erase help' -a draw -d 'Draw shapes.'"))
        #expect(
            script.contains(
                "complete -c tool -n '__fish_seen_subcommand_from draw' -l shape -x -a 'circle square triangle' -d 'The shape.'"))
        #expect(script.contains("complete -c tool -n '__fish_seen_subcommand_from draw' -s o -l output -r -F -d 'Where to draw.'"))
        #expect(script.contains("complete -c tool -n '__fish_seen_subcommand_from erase' -l file -r -F -d 'The drawing.'"))
    }

    @Test("each shell's script is installed where that shell looks under a prefix")
    func installPaths() {
        #expect(ShellCompletion.Shell.bash.installPath(tool: "tool") == "share/bash-completion/completions/tool")
        #expect(ShellCompletion.Shell.zsh.installPath(tool: "tool") == "share/zsh/site-functions/_tool")
        #expect(ShellCompletion.Shell.fish.installPath(tool: "tool") == "share/fish/vendor_completions.d/tool.fish")
    }
}
