/// How one value of an option is read from its text: a kind (for help,
/// man pages and completions), the phrase naming what it expects (for
/// errors), and the conversion.
///
///     let threshold = ValueParser<Double>.number(in: 0...1)
///     threshold.expectation      // "a number from 0 to 1"
///     threshold.parse("2")       // nil
public struct ValueParser<Value: Sendable>: Sendable {
    /// What the value is.
    public var kind: ValueKind
    /// What it expects, after "expects": `a positive whole number`, `text or json`.
    public var expectation: String
    /// The placeholder help shows when the option names none (`text|json` for choices).
    public var placeholder: String?
    /// The value for `text`, or nil when `text` is not one.
    public var parse: @Sendable (String) -> Value?
    /// The text of a value, as the user would write it (for defaults in help).
    public var format: @Sendable (Value) -> String

    /// A parser from its parts; prefer the named ones (``text``, ``integer(in:)``...).
    public init(
        kind: ValueKind, expectation: String, placeholder: String? = nil,
        parse: @escaping @Sendable (String) -> Value?, format: @escaping @Sendable (Value) -> String
    ) {
        self.kind = kind
        self.expectation = expectation
        self.placeholder = placeholder
        self.parse = parse
        self.format = format
    }

    /// A parser that reads the text with `parse`, expecting what `expectation` says.
    public static func custom(
        expecting expectation: String, kind: ValueKind = .text,
        format: @escaping @Sendable (Value) -> String = { String(describing: $0) },
        _ parse: @escaping @Sendable (String) -> Value?
    ) -> ValueParser {
        ValueParser(kind: kind, expectation: expectation, parse: parse, format: format)
    }
}

extension ValueParser where Value == String {
    /// Any text.
    public static var text: ValueParser { ValueParser(kind: .text, expectation: "text", parse: { $0 }, format: { $0 }) }

    /// A path to a file (read or written); not checked here: the command says what is wrong with it.
    public static var file: ValueParser { ValueParser(kind: .file, expectation: "a file", parse: { $0 }, format: { $0 }) }

    /// A path to a file, or one of `words` (`default`); not checked here.
    public static func file(or words: [String]) -> ValueParser {
        ValueParser(kind: .fileOr(words), expectation: "a file or " + words.joined(separator: ", "), parse: { $0 }, format: { $0 })
    }

    /// A path to a directory; not checked here.
    public static var directory: ValueParser { ValueParser(kind: .directory, expectation: "a directory", parse: { $0 }, format: { $0 }) }
}

extension ValueParser where Value: FixedWidthInteger {
    /// A whole number in `range`.
    public static func integer(in range: ValueRange<Value> = .any) -> ValueParser {
        ValueParser(
            kind: .number, expectation: range.phrase(whole: true),
            parse: { text in Value(text).flatMap { range.contains($0) ? $0 : nil } },
            format: { String($0) })
    }

    /// A whole number in `range`: `1...1024`.
    public static func integer(in range: ClosedRange<Value>) -> ValueParser { integer(in: ValueRange(range)) }

    /// A whole number of at least a bound: `1000...`.
    public static func integer(in range: PartialRangeFrom<Value>) -> ValueParser { integer(in: ValueRange(range)) }
}

extension ValueParser where Value == Double {
    /// A finite number in `range`.
    public static func number(in range: ValueRange<Double> = .any) -> ValueParser {
        ValueParser(
            kind: .number, expectation: range.phrase(whole: false),
            parse: { text in Double(text).flatMap { $0.isFinite && range.contains($0) ? $0 : nil } },
            format: { $0 == $0.rounded() && abs($0) < 1e15 ? String(Int64($0)) : String($0) })
    }

    /// A finite number in `range`: `0...1`.
    public static func number(in range: ClosedRange<Double>) -> ValueParser { number(in: ValueRange(range)) }

    /// A finite number of at least a bound.
    public static func number(in range: PartialRangeFrom<Double>) -> ValueParser { number(in: ValueRange(range)) }

    /// A finite number greater than `bound`: `number(above: 0)` is "a positive number".
    public static func number(above bound: Double) -> ValueParser { number(in: .above(bound)) }
}

extension ValueParser {
    /// One of the named values, in this order for help and errors:
    /// `choice([("right", BTN.RIGHT), ("middle", BTN.MIDDLE)])`.
    public static func choice(_ choices: [(name: String, value: Value)]) -> ValueParser where Value: Equatable {
        let names = choices.map(\.name)
        return ValueParser(
            kind: .choice(names), expectation: ValueParser.list(names), placeholder: names.joined(separator: "|"),
            parse: { text in choices.first { $0.name == text }?.value },
            format: { value in choices.first { $0.value == value }?.name ?? "" })
    }

    /// One of the cases of a string-backed enumeration, in declaration order.
    public static func choice(_ type: Value.Type = Value.self) -> ValueParser
    where Value: CaseIterable & RawRepresentable & Equatable, Value.RawValue == String {
        let choices: [(name: String, value: Value)] = Value.allCases.map { ($0.rawValue, $0) }
        return choice(choices)
    }

    /// `a`, `a or b`, `a, b or c`.
    static func list(_ words: [String]) -> String {
        guard words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}
