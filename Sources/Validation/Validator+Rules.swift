// The rules a Validator is built from. Every rule but `required()` lets an
// empty value pass, as in an HTML form.

extension Validator {
    /// Fails an empty value with ``Reason/required``.
    ///
    /// ```swift
    /// Validator.required().failures(for: "")  // [is required]
    /// ```
    public static func required() -> Validator {
        Validator { value, _ in value.isEmpty ? [Failure(.required)] : [] }
    }

    /// Fails a value with fewer than `minimum` characters (grapheme clusters,
    /// what a person counts as characters).
    public static func minimumLength(_ minimum: Int) -> Validator {
        precondition(minimum >= 0, "a minimum length cannot be negative")
        return Validator { value, _ in
            guard !value.isEmpty, value.count < minimum else { return [] }
            return [Failure(.tooShort(minimumCharacters: minimum))]
        }
    }

    /// Fails a value with more than `maximum` characters (grapheme clusters).
    ///
    /// - Complexity: O(`maximum`); counting stops one past the maximum.
    public static func maximumLength(_ maximum: Int) -> Validator {
        precondition(maximum >= 0, "a maximum length cannot be negative")
        return Validator { value, _ in
            guard value.dropFirst(maximum).isEmpty else {
                return [Failure(.tooLong(maximumCharacters: maximum))]
            }
            return []
        }
    }

    /// Fails a value that is not a valid email address as the HTML standard
    /// defines it for `<input type=email>`.
    ///
    /// The check is a hand-written single pass, not a regular expression, so
    /// it cannot itself be slow.
    ///
    /// - Complexity: O(*n*) in the length of the value.
    public static func email() -> Validator {
        Validator { value, _ in
            guard !value.isEmpty, !EmailAddress.isValid(value) else { return [] }
            return [Failure(.invalidEmail)]
        }
    }

    /// Fails a value that is not a decimal number, or is below `minimum` or
    /// above `maximum` when they are given.
    ///
    /// A decimal number is an optional `-`, digits with an optional fraction,
    /// and an optional exponent: `42`, `-0.5`, `1e3`. Hexadecimal, `nan`,
    /// `inf` and surrounding spaces are rejected.
    ///
    /// ```swift
    /// Validator.number(minimum: 0, maximum: 10).failures(for: "11")  // [must be at most 10]
    /// ```
    public static func number(minimum: Double? = nil, maximum: Double? = nil) -> Validator {
        if let minimum, let maximum {
            precondition(minimum <= maximum, "a number range needs minimum <= maximum")
        }
        return Validator { value, _ in
            guard !value.isEmpty else { return [] }
            guard let number = DecimalNumber.parse(value) else { return [Failure(.notANumber)] }
            if let minimum, number < minimum { return [Failure(.belowMinimum(minimum))] }
            if let maximum, number > maximum { return [Failure(.aboveMaximum(maximum))] }
            return []
        }
    }

    /// Fails a value that is not exactly one of `options`.
    public static func oneOf(_ options: [String]) -> Validator {
        let allowed = Set(options)
        return Validator { value, _ in
            guard !value.isEmpty, !allowed.contains(value) else { return [] }
            return [Failure(.notAnOption(options: options))]
        }
    }

    /// Fails a value that `matcher` does not match whole, including a match
    /// stopped by its time limit or the deadline and a value too long to match.
    ///
    /// ```swift
    /// let zip = try PatternMatcher("[0-9]{5}")
    /// Validator.matches(zip).failures(for: "1234")  // [does not match the required format]
    /// ```
    public static func matches(_ matcher: PatternMatcher) -> Validator {
        Validator { value, deadline in
            guard !value.isEmpty else { return [] }
            return failures(of: matcher.matches(value, deadline: deadline), pattern: matcher.pattern)
        }
    }

    /// Compiles `pattern` with ``PatternMatcher`` and fails a value it does not match whole.
    public static func matches(pattern: String) throws(PatternMatcher.InvalidPattern) -> Validator {
        matches(try PatternMatcher(pattern))
    }

    /// The failures for one match outcome: none when it matched.
    static func failures(of outcome: PatternMatcher.Outcome, pattern: String) -> [Failure] {
        switch outcome {
        case .matched: []
        case .notMatched: [Failure(.patternMismatch(pattern: pattern))]
        case .timedOut: [Failure(.patternTimedOut(pattern: pattern))]
        case .tooLong: [Failure(.tooLongForPattern(pattern: pattern))]
        }
    }
}

/// The strict decimal-number syntax of ``Validator/number(minimum:maximum:)``.
enum DecimalNumber {
    /// The value of `text` when it is `-?digits(.digits)?([eE][+-]?digits)?`
    /// (a fraction may also stand alone: `.5`), otherwise nil.
    static func parse(_ text: String) -> Double? {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix(while: { (0x30...0x39).contains($0) }).count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        var mantissaDigits = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            let fraction = digits()
            guard fraction > 0 else { return nil }
            mantissaDigits += fraction
        }
        guard mantissaDigits > 0 else { return nil }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                bytes = bytes.dropFirst()
            }
            guard digits() > 0 else { return nil }
        }
        guard bytes.isEmpty, let number = Double(text), number.isFinite else { return nil }
        return number
    }
}
