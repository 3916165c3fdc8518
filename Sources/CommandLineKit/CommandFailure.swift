/// A failure while running a command: printed as one sentence after the
/// command's name, exit status 1.
///
///     CommandFailure("no XML gesture logs under /tmp/logs")
///     // gestures eval: no XML gesture logs under /tmp/logs.
public struct CommandFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sentence, with or without its final period.
    public var description: String

    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}

/// A failure that is already a report of its own: each line is printed as
/// it is, without the command's name (every error of a configuration file,
/// each naming the file), and the tool exits with `status`.
public struct FailureReport: Error, Hashable, Sendable {
    /// The lines, each a complete message.
    public var lines: [String]
    /// The exit status (1 unless said otherwise).
    public var status: Int32

    /// A report of `lines`, exiting with `status`.
    public init(lines: [String], status: Int32 = 1) {
        self.lines = lines
        self.status = status
    }
}
