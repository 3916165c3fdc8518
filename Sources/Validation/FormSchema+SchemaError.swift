extension FormSchema {
    /// Why a schema was rejected, and where: `fields[3].pattern: invalid regular expression: ...`.
    public struct SchemaError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Where in the JSON, as `fields[3].pattern`; empty for the whole document.
        public var path: String
        /// What is wrong there.
        public var problem: Problem

        /// A rejection of the value at `path`.
        public init(_ path: String, _ problem: Problem) {
            self.path = path
            self.problem = problem
        }

        /// `path: problem`, or the problem alone for the whole document.
        public var description: String { path.isEmpty ? problem.description : "\(path): \(problem)" }
    }

    /// What is wrong with a schema.
    public enum Problem: Sendable, Hashable, CustomStringConvertible {
        /// The JSON is over ``FormSchema/Limits/maximumJSONBytes``; it was not parsed.
        case tooLarge(bytes: Int)
        /// The JSON does not parse.
        case malformedJSON(String)
        /// The value has the wrong JSON type.
        case wrongType(expected: String)
        /// A required key is missing.
        case missingKey
        /// A key the schema format does not have.
        case unknownKey
        /// A key that exists, but not for this field type.
        case notApplicable(to: FieldType)
        /// A `type` that is not one of ``FieldType``.
        case unknownType(String)
        /// More fields than ``FormSchema/Limits/maximumFields``.
        case tooManyFields(count: Int)
        /// This pattern field is one more than ``FormSchema/Limits/maximumPatternFields``.
        case tooManyPatternFields
        /// The options up to this field pass ``FormSchema/Limits/maximumOptions``.
        case tooManyOptions(total: Int)
        /// The id was already used by the field at `firstIndex`.
        case duplicateID(String, firstIndex: Int)
        /// A minimum is greater than its maximum.
        case impossibleLimits(String)
        /// ICU rejects the pattern, for the reason given.
        case invalidPattern(String)
        /// Any other value that cannot be used, with why.
        case invalidValue(String)

        /// One phrase saying what is wrong.
        public var description: String {
            switch self {
            case .tooLarge(let bytes):
                "the JSON is \(bytes) bytes, over the limit of \(FormSchema.Limits.maximumJSONBytes) bytes"
            case .malformedJSON(let detail):
                "malformed JSON: \(detail)"
            case .wrongType(let expected):
                "expected \(expected)"
            case .missingKey:
                "is required but missing"
            case .unknownKey:
                "unknown key"
            case .notApplicable(let type):
                "does not apply to a \(type.rawValue) field"
            case .unknownType(let name):
                "unknown field type '\(name)'; expected one of \(FieldType.allCases.map(\.rawValue).joined(separator: ", "))"
            case .tooManyFields(let count):
                "\(count) fields, over the limit of \(FormSchema.Limits.maximumFields)"
            case .tooManyPatternFields:
                "more than \(FormSchema.Limits.maximumPatternFields) fields have a pattern"
            case .tooManyOptions(let total):
                "\(total) options in total so far, over the limit of \(FormSchema.Limits.maximumOptions)"
            case .duplicateID(let id, let firstIndex):
                "duplicate id '\(id)', first used by fields[\(firstIndex)]"
            case .impossibleLimits(let detail):
                "impossible limits: \(detail)"
            case .invalidPattern(let reason):
                "invalid regular expression: \(reason)"
            case .invalidValue(let detail):
                detail
            }
        }
    }
}
