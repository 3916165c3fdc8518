import InputChecks

/// A mistake in how a command was called: printed as one sentence with a
/// pointer to `--help` (or the nearest correct word), exit status 64.
///
///     UsageError("no trace files given")
///     // gestures replay: no trace files given (see 'gestures replay --help').
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, as a phrase without a final period.
    public var message: String
    /// The word the user probably meant (`--format` for `--formt`), when one is near enough.
    public var suggestion: String?

    /// An error saying `message`, optionally suggesting the word the user meant.
    public init(_ message: String, suggestion: String? = nil) {
        self.message = message
        self.suggestion = suggestion
    }

    /// The message, with the suggestion when there is one: `unknown option '--formt'; did you mean '--format'?`.
    public var description: String {
        suggestion.map { message + Suggestion.phrase($0) } ?? message
    }
}
