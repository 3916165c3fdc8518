import Testing

@testable import CommandLineKit

@Suite("HelpText: --help made from the command's table")
struct HelpTextTests {
    @Test("a command's help has its overview, usage, discussion, arguments and every option with its default")
    func commandHelp() {
        let help = HelpText.command(DrawCommand.self, tool: "tool")
        #expect(help.hasPrefix("OVERVIEW: Draw shapes.\n\nUSAGE: tool draw [--shape circle|square|triangle] [--size MM]"))
        #expect(help.contains("\nDraws each NAME.\n"))
        #expect(help.contains("ARGUMENTS:\n  NAME  A name to draw.\n"))
        #expect(help.contains("  --shape circle|square|triangle\n"), "a label over the column width gets its own line")
        #expect(help.contains("The shape (default: circle)."))
        #expect(help.contains("  -o, --output FILE"))
        #expect(help.contains("[--tag TAG]..."))
        #expect(help.contains("  --help "))
        for option in DrawCommand.options { #expect(help.contains(option.name)) }
    }

    @Test("every help line fits in 80 columns where it can be wrapped")
    func wrapping() {
        let long = (1...30).map { "word\($0)" }.joined(separator: " ")
        let table = HelpText.table([("--option", long)])
        #expect(table.split(separator: "\n").allSatisfy { $0.count <= HelpText.width })
        #expect(table.split(separator: "\n").dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: 12)) })
        let usage = HelpText.usage((1...12).map { "[--option\($0) VALUE]" }.joined(separator: " "), prefix: "USAGE: tool cmd ")
        let lines = usage.split(separator: "\n")
        #expect(lines.count > 1 && lines.allSatisfy { $0.count <= HelpText.width })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: "USAGE: tool cmd ".count) + "[") })
    }

    @Test("a usage with several forms repeats the command on each")
    func severalForms() {
        #expect(
            HelpText.usage("FILE...\n--play FILE", prefix: "USAGE: tool cmd ") == "USAGE: tool cmd FILE...\n       tool cmd --play FILE")
    }

    @Test("a bracketed group is never split")
    func items() {
        #expect(HelpText.items("[--format text|json] FILE... [--x [Y]]") == ["[--format text|json]", "FILE...", "[--x [Y]]"])
    }

    @Test("the usage made from the table lists options then arguments")
    func generatedUsage() {
        #expect(EraseCommand.usage == "--file FILE")
        #expect(DrawCommand.usage.hasSuffix("[--tag TAG]... [--fill] NAME..."))
    }

    @Test("a command without options or arguments has its name alone as its usage")
    func usageOfABareCommand() {
        let help = HelpText.command(SecretCommand.self, tool: "tool")
        #expect(help.hasPrefix("OVERVIEW: Not listed.\n\nUSAGE: tool secret\n"), "\(help)")
    }
}
