import CommandLineKit
import Testing

@Suite("CommandLineTool: finding, running and reporting a subcommand")
struct CommandLineToolTests {
    static let tool = CommandLineTool(
        name: "tool", abstract: "A tool.", version: "1.2.3",
        commands: [DrawCommand.self, EraseCommand.self], hiddenCommands: [SecretCommand.self])

    /// Runs `words`; returns the status and what went to standard output and error.
    func run(_ words: [String], tool: CommandLineTool = tool) -> (status: Int32, output: [String], errors: [String]) {
        var output: [String] = []
        var errors: [String] = []
        let status = tool.run(words, output: { output.append($0) }, errors: { errors.append($0) })
        return (status, output, errors)
    }

    @Test("the command's run step gets the parsed options; its status is the tool's")
    func runsTheCommand() {
        let result = run(["draw", "a", "b", "--fill"])
        #expect(result.status == 2 && result.errors.isEmpty && result.output.isEmpty)
        #expect(run(["secret"]).status == 7)
    }

    @Test("no subcommand is a usage error: the tool's help on the errors, status 64")
    func noSubcommand() {
        let result = run([])
        #expect(result.status == 64 && result.output.isEmpty)
        #expect(result.errors == [String(Self.tool.help.dropLast())])
    }

    @Test("help for the tool lists the visible commands only", arguments: [["--help"], ["-h"], ["help"]])
    func toolHelp(words: [String]) {
        let result = run(words)
        #expect(result.status == 0)
        let text = result.output.joined(separator: "\n")
        #expect(text.contains("  draw ") && text.contains("  erase ") && !text.contains("secret"))
        #expect(text.contains("--version"))
    }

    @Test("'help CMD' and 'CMD --help' print the same help")
    func commandHelp() {
        let viaHelp = run(["help", "draw"])
        let viaFlag = run(["draw", "--help"])
        #expect(viaHelp.status == 0 && viaFlag.status == 0)
        #expect(viaHelp.output == viaFlag.output)
        #expect(viaHelp.output.first?.hasPrefix("OVERVIEW: Draw shapes.") == true)
    }

    @Test("--version prints the name and version; without a version it is an unknown option")
    func version() {
        #expect(run(["--version"]).output == ["tool 1.2.3"])
        let unversioned = CommandLineTool(name: "tool", abstract: "", commands: [DrawCommand.self])
        let result = run(["--version"], tool: unversioned)
        #expect(
            result.status == 64 && result.errors == ["tool: unknown option '--version'; run 'tool --help' for the list of subcommands."])
    }

    @Test("an unknown subcommand suggests the nearest visible one, never a hidden one")
    func unknownSubcommand() {
        #expect(run(["drwa"]).errors == ["tool: unknown subcommand 'drwa'; did you mean 'draw'?"])
        #expect(run(["help", "eras"]).errors == ["tool: unknown subcommand 'eras'; did you mean 'erase'?"])
        #expect(run(["secrte"]).errors == ["tool: unknown subcommand 'secrte'; run 'tool --help' for the list of subcommands."])
        #expect(run(["drwa"]).status == 64)
        #expect(run(["--verison"]).errors == ["tool: unknown option '--verison'; did you mean '--version'?"])
        // The tool's own options, typed as people type them elsewhere.
        #expect(run(["version"]).errors == ["tool: unknown subcommand 'version'; did you mean '--version'?"])
        #expect(run(["-v"]).errors == ["tool: unknown option '-v'; did you mean '--version'?"])
    }

    @Test("a usage error is one line with status 64: a pointer to --help, or the suggestion")
    func usageErrors() {
        let missing = run(["draw"])
        #expect(missing.status == 64 && missing.errors == ["tool draw: nothing to draw (see 'tool draw --help')."])
        let mistyped = run(["draw", "--fil", "a"])
        #expect(mistyped.status == 64 && mistyped.errors == ["tool draw: unknown option '--fil'; did you mean '--fill'?"])
    }

    @Test("a failure is one sentence with status 1; a report prints its own lines and status")
    func failures() {
        let failure = run(["draw", "fail"])
        #expect(failure.status == 1 && failure.errors == ["tool draw: cannot draw 'fail'."])
        let report = run(["draw", "report"])
        #expect(report.status == 3 && report.errors == ["a: first", "a: second"])
    }

    @Test("the tables can be read back: every command's name, options, choices and arguments")
    func introspection() throws {
        let draw = try #require(Self.tool.command(named: "draw"))
        #expect(draw.options.map(\.name) == ["--shape", "--size", "--count", "--output", "--tag", "--fill"])
        #expect(draw.options[0].kind?.choices == ["circle", "square", "triangle"])
        #expect(draw.options[3].names == ["-o", "--output"] && draw.options[3].kind == .file)
        #expect(draw.options[4].isRepeatable && !draw.options[4].isRequired && draw.options[5].isFlag)
        #expect(draw.arguments.map(\.usageText) == ["NAME..."])
        #expect(Self.tool.command(named: "secret") != nil && Self.tool.command(named: "nothing") == nil)
    }
}
