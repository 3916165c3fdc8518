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

    /// The words a shell can complete, for ``choice(_:)``; empty otherwise.
    public var choices: [String] {
        if case .choice(let words) = self { words } else { [] }
    }
}
