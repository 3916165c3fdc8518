/// Why a benchmark could not run: one sentence saying what and where.
public struct BenchmarkFailure: Error, CustomStringConvertible, Sendable {
    /// The sentence.
    public var description: String

    /// A failure described by `description`.
    public init(_ description: String) {
        self.description = description
    }
}
