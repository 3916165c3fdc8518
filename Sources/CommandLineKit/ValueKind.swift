/// What an option's or argument's value is, for help, man pages and shell
/// completions: free text, a number, a path, or one of fixed words.
public enum ValueKind: Hashable, Sendable {
    /// Any text.
    case text
    /// A number (whole or not; the expectation says which and in what range).
    case number
    /// A path to a file.
    case file
    /// A path to a directory.
    case directory
    /// One of these words.
    case choice([String])
    /// A path to a file, or one of these words (`default` for the bundled
    /// template library): a shell completes both.
    case fileOr([String])

    /// The words a shell can complete, for ``choice(_:)`` and ``fileOr(_:)``; empty otherwise.
    public var choices: [String] {
        switch self {
        case .choice(let words), .fileOr(let words): words
        case .text, .number, .file, .directory: []
        }
    }
}
