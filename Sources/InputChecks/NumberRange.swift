/// The values a number written in a configuration may take, and the phrase
/// that says so: every reader of a configuration checks its numbers with one
/// of these, so a value out of range gets the same message wherever it is read.
///
///     let count = NumberRange.integers(8...1024)
///     count.contains(100_000_000)   // false
///     count.requirement             // "must be an integer between 8 and 1024"
///     NumberRange(0.5...100).requirement   // "must be a number between 0.5 and 100"
public struct NumberRange: Hashable, Sendable, CustomStringConvertible {
    /// The least value allowed.
    public var minimum: Double
    /// The greatest value allowed.
    public var maximum: Double
    /// Whether only whole numbers are allowed.
    public var wholeNumbers: Bool

    /// Any number in `range`.
    public init(_ range: ClosedRange<Double>) {
        minimum = range.lowerBound
        maximum = range.upperBound
        wholeNumbers = false
    }

    /// Whole numbers in `range`.
    public static func integers(_ range: ClosedRange<Int>) -> NumberRange {
        var result = NumberRange(Double(range.lowerBound)...Double(range.upperBound))
        result.wholeNumbers = true
        return result
    }

    /// Whether `value` is finite, within the range and (for integers) whole.
    public func contains(_ value: Double) -> Bool {
        value.isFinite && value >= minimum && value <= maximum && (!wholeNumbers || value == value.rounded())
    }

    /// `value` as an `Int` when the range holds it and it is a whole number.
    public func integer(_ value: Double) -> Int? {
        guard contains(value), value == value.rounded() else { return nil }
        return Int(exactly: value)
    }

    /// What a value must be: `must be a number between 0.5 and 100`,
    /// `must be an integer between 1 and 5`.
    public var requirement: String {
        "must be \(wholeNumbers ? "an integer" : "a number") between \(Self.format(minimum)) and \(Self.format(maximum))"
    }

    /// `0.5 to 100`.
    public var description: String { "\(Self.format(minimum)) to \(Self.format(maximum))" }

    /// A number as written in messages and documentation: `100`, `0.5`, `1e-06`.
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
