import CommandLineKit

/// The `--format` of the commands that print results: a readable line per
/// result, or one JSON object per line (or one JSON document).
enum OutputFormat: String, CaseIterable, Sendable {
    case text
    case json

    /// The `--format` option, `text|json`, with the command's default.
    static func option(default defaultValue: OutputFormat, help: String = "Output format.") -> Option<OutputFormat> {
        Option("--format", .choice(), default: defaultValue, help: help)
    }
}
