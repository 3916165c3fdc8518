/// An option with a typed value: the table entry (``spec``) and how the
/// values given become a `Value`. `Value` is the option's type as a command
/// reads it: `Double` with a default, `String?` without one, `[String]`
/// when repeated.
///
///     static let threshold = Option("--threshold", valueName: "SCORE", .number(in: 0...1), default: 0.75,
///                                   help: "Scores below this are 'no match'.")
///     static let library = Option("--library", valueName: "LIB.json", .file, help: "The templates.")
///     static let remove = Option("--remove", valueName: "NAME", .text, help: "Remove NAME.").repeated()
///     // in parse: arguments[threshold] is a Double, arguments[library] a String?, arguments[remove] a [String]
public struct Option<Value: Sendable>: Sendable {
    /// The table entry: names, placeholder, help, kind, default.
    public let spec: OptionSpec
    /// The value from the converted values given, in order (each of the element type).
    let value: @Sendable ([any Sendable]) -> Value

    /// An option with a default, used when it is not given; given twice, it is an error.
    public init(
        _ name: String, valueName: String? = nil, _ parser: ValueParser<Value>, default defaultValue: Value,
        help: String, aliases: [String] = []
    ) {
        spec = OptionSpec(
            name: name, aliases: aliases, valueName: valueName ?? parser.placeholder ?? "VALUE", help: help,
            kind: parser.kind, expectation: parser.expectation, defaultValue: parser.format(defaultValue),
            isRepeatable: false, isRequired: false, convert: { parser.parse($0) })
        value = { values in values.last.map { $0 as! Value } ?? defaultValue }
    }

    /// An option without a default: nil when it is not given.
    public init<Element>(
        _ name: String, valueName: String? = nil, _ parser: ValueParser<Element>,
        help: String, aliases: [String] = []
    ) where Value == Element? {
        spec = OptionSpec(
            name: name, aliases: aliases, valueName: valueName ?? parser.placeholder ?? "VALUE", help: help,
            kind: parser.kind, expectation: parser.expectation, defaultValue: nil,
            isRepeatable: false, isRequired: false, convert: { parser.parse($0) })
        value = { values in values.last.map { $0 as! Element } }
    }

    private init(spec: OptionSpec, value: @escaping @Sendable ([any Sendable]) -> Value) {
        self.spec = spec
        self.value = value
    }

    /// The same option, required: parsing fails without it, so its value is never nil.
    public func required<Element>() -> Option<Element> where Value == Element? {
        var spec = spec
        spec.isRequired = true
        return Option<Element>(spec: spec) { values in values.last! as! Element }
    }

    /// The same option, which applies only with one of `options` (their
    /// primary names): given without any of them, parsing fails.
    public func requiring(_ options: String...) -> Option {
        var spec = spec
        spec.requirements = options
        return Option(spec: spec, value: value)
    }

    /// The same option, accepted any number of times: every value, in order.
    public func repeated<Element>() -> Option<[Element]> where Value == Element? {
        var spec = spec
        spec.isRepeatable = true
        return Option<[Element]>(spec: spec) { values in values.map { $0 as! Element } }
    }
}

/// An option without a value: `--ends`. True when given.
public struct Flag: Sendable {
    /// The table entry.
    public private(set) var spec: OptionSpec

    /// A flag named `name` (and `aliases`), with one line of help.
    public init(_ name: String, help: String, aliases: [String] = []) {
        spec = OptionSpec(
            name: name, aliases: aliases, valueName: nil, help: help, kind: nil, expectation: nil,
            defaultValue: nil, isRepeatable: false, isRequired: false, convert: { _ in true })
    }

    /// The same flag, which applies only with one of `options` (their primary names).
    public func requiring(_ options: String...) -> Flag {
        var flag = self
        flag.spec.requirements = options
        return flag
    }
}
