/// The numbers a numeric option accepts, with the phrase that names them in
/// help and errors.
///
///     ValueRange<Int>(1...).phrase(whole: true)          // "a positive whole number"
///     ValueRange<Double>(0...1).phrase(whole: false)     // "a number from 0 to 1"
///     ValueRange<Double>.above(0).phrase(whole: false)   // "a positive number"
public struct ValueRange<Bound: Comparable & Sendable>: Sendable {
    /// The least value, if any.
    public var lowerBound: Bound?
    /// Whether ``lowerBound`` itself is accepted.
    public var includesLowerBound: Bool
    /// The greatest value accepted, if any.
    public var upperBound: Bound?

    /// Every value.
    public static var any: ValueRange { ValueRange(lowerBound: nil, includesLowerBound: true, upperBound: nil) }

    /// The values greater than `bound` (not `bound` itself).
    public static func above(_ bound: Bound) -> ValueRange {
        ValueRange(lowerBound: bound, includesLowerBound: false, upperBound: nil)
    }

    /// The values of a closed range: `0...1`.
    public init(_ range: ClosedRange<Bound>) {
        self.init(lowerBound: range.lowerBound, includesLowerBound: true, upperBound: range.upperBound)
    }

    /// The values from a bound up: `1000...`.
    public init(_ range: PartialRangeFrom<Bound>) {
        self.init(lowerBound: range.lowerBound, includesLowerBound: true, upperBound: nil)
    }

    private init(lowerBound: Bound?, includesLowerBound: Bool, upperBound: Bound?) {
        self.lowerBound = lowerBound
        self.includesLowerBound = includesLowerBound
        self.upperBound = upperBound
    }

    /// Whether `value` is in the range.
    public func contains(_ value: Bound) -> Bool {
        if let lowerBound, includesLowerBound ? value < lowerBound : value <= lowerBound { return false }
        if let upperBound, value > upperBound { return false }
        return true
    }
}

extension ValueRange where Bound: Numeric & CustomStringConvertible {
    /// The accepted numbers as a phrase after "expects": `a whole number of
    /// at least 1000`, `a positive number`, `a number from 0 to 1`.
    public func phrase(whole: Bool) -> String {
        let noun = whole ? "whole number" : "number"
        func text(_ value: Bound) -> String {
            let words = value.description
            return words.hasSuffix(".0") ? String(words.dropLast(2)) : words
        }
        switch (lowerBound, upperBound) {
        case (nil, nil):
            return "a \(noun)"
        case (let lower?, nil):
            // 1... for whole numbers and "above 0" are both "positive".
            if lower == 0 && !includesLowerBound || whole && lower == 1 && includesLowerBound { return "a positive \(noun)" }
            if lower == 0 && includesLowerBound { return "a \(noun) of 0 or more" }
            return includesLowerBound ? "a \(noun) of at least \(text(lower))" : "a \(noun) greater than \(text(lower))"
        case (nil, let upper?):
            return "a \(noun) of at most \(text(upper))"
        case (let lower?, let upper?):
            return includesLowerBound
                ? "a \(noun) from \(text(lower)) to \(text(upper))"
                : "a \(noun) greater than \(text(lower)) and at most \(text(upper))"
        }
    }
}
