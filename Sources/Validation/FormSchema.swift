/// A form described as JSON by an untrusted author, and the check of the
/// values a person typed into it.
///
/// ```swift
/// let schema = try FormSchema.decode(from: Data("""
///     {"fields": [{"id": "email", "label": "Email", "type": "email", "required": true}]}
///     """.utf8))
/// schema.errors(in: ["email": "bob"])  // ["email": [must be an email address]]
/// ```
///
/// Decoding enforces the limits in ``FormSchema/Limits``; checking values
/// gives all pattern matches of one ``errors(in:)`` call one shared budget.
public struct FormSchema: Sendable {
    /// The fields, in the order of the JSON.
    public let fields: [Field]

    /// The limits on a schema and on one check of its values.
    public enum Limits {
        /// The largest schema, checked before JSON parsing: 1,000,000 bytes (1 MB).
        public static let maximumJSONBytes = 1_000_000
        /// The most fields in a schema: 200.
        public static let maximumFields = 200
        /// The most fields with a `pattern`: 50.
        public static let maximumPatternFields = 50
        /// The most `options`, summed over all fields: 500.
        public static let maximumOptions = 500
        /// The time all pattern matches of one ``FormSchema/errors(in:)`` call share: 100 ms.
        public static let patternBudget: Duration = .milliseconds(100)
    }

    /// The kinds of field, as written in the `type` key.
    public enum FieldType: String, Sendable, Hashable, CaseIterable {
        /// Free text; takes `minLength`, `maxLength` and `pattern`.
        case text
        /// An email address; takes `minLength`, `maxLength` and `pattern`.
        case email
        /// A decimal number; takes `min` and `max`.
        case number
        /// One of a list; takes `options` (at least one).
        case select
        /// A box that is checked (`on` or `true`) or not (empty, `off` or `false`).
        case checkbox
    }

    /// One field of the form.
    public struct Field: Sendable {
        /// The key of the field's value in ``FormSchema/errors(in:)``; unique in the schema.
        public let id: String
        /// The label shown to people; the id when the JSON has none.
        public let label: String
        /// What kind of value the field holds.
        public let type: FieldType
        /// Whether an empty value (an unchecked box) fails.
        public let isRequired: Bool
        /// The fewest characters of a non-empty value.
        public let minimumLength: Int?
        /// The most characters of a value.
        public let maximumLength: Int?
        /// The ICU pattern a non-empty value must match whole.
        public let pattern: String?
        /// The smallest number allowed.
        public let minimum: Double?
        /// The largest number allowed.
        public let maximum: Double?
        /// The values a select field allows.
        public let options: [String]?

        /// Every rule of the field except its pattern, which ``FormSchema/errors(in:)``
        /// compiles and runs under the call's budget.
        let rules: Validator
    }
}

extension FormSchema {
    /// The failures of `values`, keyed by field id; fields that pass are absent.
    ///
    /// A field missing from `values` is checked as empty, and values for ids
    /// the schema does not have are ignored. All pattern matches in this call
    /// share ``Limits/patternBudget`` (100 ms, counted from the start of the
    /// call). The budget is checked before each field's pattern is compiled:
    /// once it is spent, the remaining pattern fields fail with
    /// ``Validator/Reason/patternNotChecked(pattern:)`` without their pattern
    /// being compiled or run.
    ///
    /// Patterns are compiled here, per call, rather than kept from decoding,
    /// so that compile time counts against the budget and a schema holds no
    /// engine state; a pattern found slow in one call fails at once in the
    /// next through the matcher's slow-pattern memory.
    ///
    /// - Complexity: linear in the values' lengths, plus at most about
    ///   ``Limits/patternBudget`` of pattern matching.
    public func errors(in values: [String: String]) -> [String: [Validator.Failure]] {
        errors(in: values, budget: Limits.patternBudget) { pattern throws(PatternMatcher.InvalidPattern) in
            try PatternMatcher(pattern)
        }
    }

    /// ``errors(in:)`` with the budget and the pattern compiler as seams for tests.
    func errors(
        in values: [String: String],
        budget: Duration,
        compile: (String) throws(PatternMatcher.InvalidPattern) -> PatternMatcher
    ) -> [String: [Validator.Failure]] {
        let deadline = ContinuousClock.now + budget
        var errors: [String: [Validator.Failure]] = [:]
        for field in fields {
            let value = values[field.id] ?? ""
            var failures = field.rules.failures(for: value, deadline: deadline)
            if let pattern = field.pattern, !value.isEmpty {
                if ContinuousClock.now >= deadline {
                    failures.append(Validator.Failure(.patternNotChecked(pattern: pattern)))
                } else if let matcher = try? compile(pattern) {
                    failures += Validator.failures(of: matcher.matches(value, deadline: deadline), pattern: pattern)
                } else {
                    // Decoding compiled every pattern, so this does not happen; fail closed.
                    failures.append(Validator.Failure(.patternNotChecked(pattern: pattern)))
                }
            }
            if !failures.isEmpty { errors[field.id] = failures }
        }
        return errors
    }
}
