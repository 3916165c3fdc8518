/// A composable check of one form value that returns every failure it finds.
///
/// Build validators from the rules in `Validator+Rules.swift` and combine
/// them with ``and(_:)``, ``or(_:)`` and ``message(_:)``:
///
/// ```swift
/// let age = Validator.required().and(.number(minimum: 0, maximum: 130))
/// age.failures(for: "")     // [is required]
/// age.failures(for: "200")  // [must be at most 130]
/// age.failures(for: "42")   // []
/// ```
///
/// As in an HTML form, an empty value is checked only by ``required()``;
/// every other rule lets it pass, so optional fields need no special case.
public struct Validator: Sendable {
    private let check: @Sendable (_ value: String, _ deadline: ContinuousClock.Instant?) -> [Failure]

    /// A validator that runs `check` on each value; the deadline is for
    /// pattern matches and may be ignored by checks that do not run one.
    public init(_ check: @escaping @Sendable (_ value: String, _ deadline: ContinuousClock.Instant?) -> [Failure]) {
        self.check = check
    }

    /// Every failure of `value`, in rule order; empty when the value is valid.
    ///
    /// `deadline` bounds the pattern matches inside (each also stops after
    /// ``PatternMatcher/timeLimit``); a match stopped by it fails.
    public func failures(for value: String, deadline: ContinuousClock.Instant? = nil) -> [Failure] {
        check(value, deadline)
    }

    /// Whether `value` passes every rule.
    public func isValid(_ value: String, deadline: ContinuousClock.Instant? = nil) -> Bool {
        failures(for: value, deadline: deadline).isEmpty
    }
}

extension Validator {
    /// A validator that fails when either fails, with the failures of both.
    public func and(_ other: Validator) -> Validator {
        Validator { value, deadline in
            failures(for: value, deadline: deadline) + other.failures(for: value, deadline: deadline)
        }
    }

    /// A validator that passes when either passes; when both fail, it returns
    /// the failures of both. `other` runs only when `self` fails.
    public func or(_ other: Validator) -> Validator {
        Validator { value, deadline in
            let first = failures(for: value, deadline: deadline)
            guard !first.isEmpty else { return [] }
            let second = other.failures(for: value, deadline: deadline)
            return second.isEmpty ? [] : first + second
        }
    }

    /// A validator that fails exactly when this one does, with one failure
    /// that carries the first failure's reason and `text` as its message.
    ///
    /// ```swift
    /// Validator.email().message("Enter your work email").failures(for: "bob")
    /// // [Enter your work email]
    /// ```
    public func message(_ text: String) -> Validator {
        Validator { value, deadline in
            guard let first = failures(for: value, deadline: deadline).first else { return [] }
            return [Failure(first.reason, message: text)]
        }
    }

    /// A validator that fails when any of `validators` fails, with all their
    /// failures in order; with none, every value passes.
    public static func all(_ validators: [Validator]) -> Validator {
        Validator { value, deadline in
            validators.flatMap { $0.failures(for: value, deadline: deadline) }
        }
    }
}

extension Validator {
    /// One way a value failed a rule, with a message for the person who typed it.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// Which rule failed, with its limit.
        public var reason: Reason
        /// A short message to show next to the field, e.g. `must be at least 3 characters`.
        public var message: String

        /// A failure for `reason` with its default message.
        public init(_ reason: Reason) {
            self.init(reason, message: reason.defaultMessage)
        }

        /// A failure for `reason` with a custom message.
        public init(_ reason: Reason, message: String) {
            self.reason = reason
            self.message = message
        }

        /// The message.
        public var description: String { message }
    }

    /// Which rule a value failed.
    public enum Reason: Sendable, Hashable {
        /// The value is empty and the field is required.
        case required
        /// The value has fewer characters than the minimum.
        case tooShort(minimumCharacters: Int)
        /// The value has more characters than the maximum.
        case tooLong(maximumCharacters: Int)
        /// The value is not an email address.
        case invalidEmail
        /// The value is not a decimal number.
        case notANumber
        /// The number is below the minimum.
        case belowMinimum(Double)
        /// The number is above the maximum.
        case aboveMaximum(Double)
        /// The value is not one of the options.
        case notAnOption(options: [String])
        /// The engine finished and the value does not match the pattern.
        case patternMismatch(pattern: String)
        /// The match was stopped by its time limit or deadline, or the
        /// pattern is remembered as slow.
        case patternTimedOut(pattern: String)
        /// The value is over ``PatternMatcher/maximumValueLength`` UTF-16 code
        /// units and was not matched.
        case tooLongForPattern(pattern: String)
        /// The form's pattern budget was spent before this field's pattern was
        /// compiled; the pattern was neither compiled nor run.
        case patternNotChecked(pattern: String)

        /// The message shown when the rule has no custom message.
        public var defaultMessage: String {
            switch self {
            case .required:
                "is required"
            case .tooShort(let minimum):
                "must be at least \(minimum) character\(minimum == 1 ? "" : "s")"
            case .tooLong(let maximum):
                "must be at most \(maximum) character\(maximum == 1 ? "" : "s")"
            case .invalidEmail:
                "must be an email address"
            case .notANumber:
                "must be a number"
            case .belowMinimum(let minimum):
                "must be at least \(Self.format(minimum))"
            case .aboveMaximum(let maximum):
                "must be at most \(Self.format(maximum))"
            case .notAnOption(let options):
                "must be one of: \(options.joined(separator: ", "))"
            case .patternMismatch:
                "does not match the required format"
            case .patternTimedOut:
                "could not be checked against the required format in time"
            case .tooLongForPattern:
                "is too long to check against the required format (over \(PatternMatcher.maximumValueLength) UTF-16 code units)"
            case .patternNotChecked:
                "was not checked against the required format: the form's time budget for patterns is spent"
            }
        }

        /// `10` for 10.0, `2.5` for 2.5.
        private static func format(_ number: Double) -> String {
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        }
    }
}
