/// The text of `--help`, made from the same tables that drive parsing.
enum HelpText {
    /// Lines are wrapped before this many columns where they can be.
    static let width = 80
    /// Option labels longer than this go on a line of their own.
    static let labelWidth = 28

    /// The help of one command of the tool `tool`.
    static func command(_ command: any Command.Type, tool: String) -> String {
        var text = "OVERVIEW: \(command.abstract)\n\n"
        text += usage(command.usage, prefix: "USAGE: \(tool) \(command.name) ") + "\n"
        if !command.discussion.isEmpty { text += "\n\(command.discussion)\n" }
        let arguments = command.arguments.filter { !$0.help.isEmpty }
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n" + table(arguments.map { ($0.name, $0.help) })
        }
        let options = command.options.map { ($0.label, $0.helpWithDefault) } + [("--help", "Show this help.")]
        text += "\nOPTIONS:\n" + table(options)
        return text
    }

    /// The tool's help: its commands and how to get theirs.
    static func tool(_ tool: CommandLineTool) -> String {
        var text = "OVERVIEW: \(tool.abstract)\n\n"
        text += "USAGE: \(tool.name) SUBCOMMAND [OPTIONS]\n\nSUBCOMMANDS:\n"
        text += table(tool.commands.map { ($0.name, $0.abstract) }, labelWidth: nil)
        text += "\nSee '\(tool.name) help SUBCOMMAND' or '\(tool.name) SUBCOMMAND --help' for the options of one subcommand."
        if tool.version != nil { text += "\n'\(tool.name) --version' prints the version." }
        return text + "\n"
    }

    /// `prefix` and the usage, one line per form (``Command/usage`` has one
    /// line per form), each wrapped between bracketed items with its
    /// continuation lines aligned under its first item.
    static func usage(_ usage: String, prefix: String) -> String {
        let forms = usage.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        // A command without options or arguments is used by its name alone.
        guard !forms.isEmpty else { return String(prefix.reversed().drop { $0 == " " }.reversed()) }
        let later = String(repeating: " ", count: "USAGE: ".count) + prefix.dropFirst("USAGE: ".count)
        return forms.enumerated().map { index, form in
            wrap(items(form), prefix: index == 0 ? prefix : later, indent: prefix.count)
        }.joined(separator: "\n")
    }

    /// `words` after `prefix`, separated by spaces, in lines of at most
    /// ``width`` columns where they fit, later lines indented by `indent`.
    static func wrap(_ words: [String], prefix: String, indent: Int) -> String {
        var lines: [String] = []
        var line = prefix
        var lineIsEmpty = true
        for word in words {
            if !lineIsEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                lineIsEmpty = true
            }
            line += lineIsEmpty ? word : " " + word
            lineIsEmpty = false
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The words of a usage, keeping each bracketed group (`[--format text|json]`) whole.
    static func items(_ usage: String) -> [String] {
        var items: [String] = []
        var current = ""
        var depth = 0
        for character in usage {
            if character == " " && depth == 0 {
                if !current.isEmpty { items.append(current) }
                current = ""
                continue
            }
            if character == "[" { depth += 1 }
            if character == "]" { depth = max(0, depth - 1) }
            current.append(character)
        }
        if !current.isEmpty { items.append(current) }
        return items
    }

    /// Two columns: labels padded to the widest (at most ``labelWidth``; a
    /// longer label gets a line of its own), or, with `labelWidth` nil, to
    /// the widest whatever its length; help wrapped to ``width`` columns.
    static func table(_ rows: [(label: String, help: String)], labelWidth: Int? = labelWidth) -> String {
        let widest = (rows.map(\.label.count).max() ?? 0) + 2
        let column = labelWidth.map { min($0, widest) } ?? widest
        let indent = 2 + column
        var text = ""
        for (label, help) in rows {
            let words = help.split(separator: " ").map(String.init)
            if label.count < column {
                text += wrap(words, prefix: "  \(label)" + String(repeating: " ", count: column - label.count), indent: indent) + "\n"
            } else {
                text += "  \(label)\n" + wrap(words, prefix: String(repeating: " ", count: indent), indent: indent) + "\n"
            }
        }
        return text
    }
}
