import Foundation

/// A manual page (roff, `man 7 man-pages` style) made from the same tables
/// as `--help`: every listed subcommand with its usage, discussion,
/// arguments and options, so the page cannot drift from the tool.
///
///     print(ManualPage(tool: tool, sections: [.init("FILES", "~/.config/gestures/config.yaml")]).text)
///     // .TH GESTURES 1 "" "gestures 0.1.0" "User Commands"
///     // .SH NAME ...
public struct ManualPage: Sendable {
    /// A section after the commands: `FILES`, `ENVIRONMENT`, `SEE ALSO`.
    public struct Section: Sendable {
        /// The heading, in capitals by convention.
        public var title: String
        /// Paragraphs separated by blank lines; a paragraph whose lines start
        /// with two spaces is kept as it is (an example).
        public var text: String

        /// A section headed `title`.
        public init(_ title: String, _ text: String) {
            self.title = title
            self.text = text
        }
    }

    /// The tool described.
    public var tool: CommandLineTool
    /// The paragraphs of DESCRIPTION (none without them).
    public var description: String
    /// The sections after COMMANDS and EXIT STATUS.
    public var sections: [Section]

    /// The page of `tool`, with `description` and `sections` added.
    public init(tool: CommandLineTool, description: String = "", sections: [Section] = []) {
        self.tool = tool
        self.description = description
        self.sections = sections
    }

    /// The page in roff, for `man -l` or `share/man/man1/TOOL.1`.
    public var text: String {
        var out =
            ".TH \(tool.name.uppercased()) 1 \"\" \"\(Self.escaped(tool.name + (tool.version.map { " " + $0 } ?? "")))\" \"User Commands\"\n"
        out += ".ad l\n.nh\n"  // ragged right, no hyphens: usage lines and option names read better whole
        out += ".SH NAME\n\(Self.escaped(tool.name)) \\- \(Self.escaped(Self.withoutToolName(tool.abstract, tool.name)))\n"
        out += ".SH SYNOPSIS\n.B \(Self.escaped(tool.name))\n.I SUBCOMMAND\n[\\fIOPTIONS\\fR]\n.br\n"
        out += ".B \(Self.escaped(tool.name)) help\n.I SUBCOMMAND\n"
        if tool.version != nil { out += ".br\n.B \(Self.escaped(tool.name))\n\\-\\-version\n" }
        if !description.isEmpty { out += ".SH DESCRIPTION\n" + Self.paragraphs(description) }
        out += ".SH COMMANDS\n"
        for command in tool.commands { out += Self.section(command, tool: tool.name) }
        out += ".SH EXIT STATUS\n.TP\n0\nSuccess.\n.TP\n1\nA failure, said in one sentence on standard error.\n"
        out +=
            ".TP\n64\nA usage error: no subcommand, an unknown subcommand or option, a bad value, or an option without the one it applies with.\n"
        for section in sections {
            out += ".SH \(Self.escaped(section.title.uppercased()))\n" + Self.paragraphs(section.text)
        }
        return out
    }

    /// One subcommand: its usage forms, abstract, discussion, arguments and options.
    static func section(_ command: any Command.Type, tool: String) -> String {
        var out = ".SS \(escaped("\(tool) \(command.name)"))\n"
        let forms = command.usage.split(separator: "\n", omittingEmptySubsequences: true)
        out += forms.map { "\\fB\(escaped("\(tool) \(command.name)"))\\fR \(usage(String($0)))\n" }.joined(separator: ".br\n")
        out += ".PP\n" + paragraphs(command.abstract)
        if !command.discussion.isEmpty { out += ".PP\n" + paragraphs(command.discussion) }
        for argument in command.arguments where !argument.help.isEmpty {
            out += ".TP\n\\fI\(escaped(argument.name))\\fR\n\(escaped(argument.help))\n"
        }
        for option in command.options {
            let names = option.names.map { "\\fB\(escaped($0))\\fR" }.joined(separator: ", ")
            out += ".TP\n\(names)\(option.valueName.map { " \\fI\(escaped($0))\\fR" } ?? "")\n\(escaped(option.helpWithDefault))\n"
        }
        return out
    }

    /// A usage line whose bracketed groups (`[--format text|json]`) never break across lines.
    static func usage(_ line: String) -> String {
        HelpText.items(line).map { escaped($0).replacingOccurrences(of: " ", with: "\\ ") }.joined(separator: " ")
    }

    /// Text as roff paragraphs: blank lines become `.PP`, lines that start
    /// with two spaces are kept unfilled (`.nf`/`.fi`), other lines are filled.
    static func paragraphs(_ text: String) -> String {
        var out = ""
        var literal = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.isEmpty {
                if literal { out += ".fi\n"; literal = false }
                if !out.isEmpty && !out.hasSuffix(".PP\n") { out += ".PP\n" }
                continue
            }
            let isLiteral = line.hasPrefix("  ")
            if isLiteral && !literal { out += ".nf\n"; literal = true }
            if !isLiteral && literal { out += ".fi\n"; literal = false }
            out += escaped(isLiteral ? line : String(trimmed)) + "\n"
        }
        if literal { out += ".fi\n" }
        return out
    }

    /// `text` safe in roff: backslashes doubled, dashes as minus signs (so
    /// options copy and paste), and a line starting with `.` or `'` protected.
    static func escaped(_ text: String) -> String {
        var out = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    /// `gestures: recognise ...` -> `recognise ...`: the NAME line names the tool once.
    static func withoutToolName(_ abstract: String, _ name: String) -> String {
        abstract.hasPrefix(name + ": ") ? String(abstract.dropFirst(name.count + 2)) : abstract
    }
}
