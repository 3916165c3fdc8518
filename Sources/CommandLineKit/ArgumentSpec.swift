/// The description of a command's positional arguments: their placeholder,
/// how many there may be, what they are, and one line of help.
///
///     ArgumentSpec("FILE", count: .oneOrMore, kind: .file, help: "A trace.", missing: "no trace files given")
public struct ArgumentSpec: Sendable {
    /// How many values an argument takes.
    public enum Count: Hashable, Sendable {
        /// Exactly one.
        case one
        /// None or one.
        case optional
        /// At least one.
        case oneOrMore
        /// Any number, none included.
        case any

        /// The fewest values.
        public var minimum: Int { self == .one || self == .oneOrMore ? 1 : 0 }
        /// The most values; nil for no limit.
        public var maximum: Int? {
            switch self {
            case .one, .optional: 1
            case .oneOrMore, .any: nil
            }
        }
    }

    /// The placeholder: `FILE`.
    public var name: String
    /// How many values it takes.
    public var count: Count
    /// What each value is.
    public var kind: ValueKind
    /// One line of help; empty to leave it out of `--help`.
    public var help: String
    /// The usage error when it is missing (default `missing FILE`).
    public var missingMessage: String

    /// An argument named `name`.
    public init(_ name: String, count: Count = .one, kind: ValueKind = .text, help: String = "", missing: String? = nil) {
        self.name = name
        self.count = count
        self.kind = kind
        self.help = help
        self.missingMessage = missing ?? "missing \(name)"
    }

    /// `FILE`, `[FILE]`, `FILE...`, `[FILE...]`: the argument in a usage line.
    public var usageText: String {
        switch count {
        case .one: name
        case .optional: "[\(name)]"
        case .oneOrMore: "\(name)..."
        case .any: "[\(name)...]"
        }
    }

    /// Checks that `values` fit `specs` in order; the first usage error otherwise.
    static func check(_ values: [String], against specs: [ArgumentSpec]) throws(UsageError) {
        var remaining = values.count
        for spec in specs {
            guard remaining >= spec.count.minimum else { throw UsageError(spec.missingMessage) }
            remaining -= spec.count.minimum
        }
        var room = 0
        for spec in specs {
            guard let maximum = spec.count.maximum else { return }
            room += maximum - spec.count.minimum
        }
        if remaining > room {
            throw UsageError("unexpected argument '\(values[values.count - (remaining - room)])'")
        }
    }
}
