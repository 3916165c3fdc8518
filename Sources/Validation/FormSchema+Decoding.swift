import Foundation

extension FormSchema {
    /// Reads a schema from JSON such as
    /// `{"fields": [{"id": "age", "type": "number", "min": 0, "max": 130}]}`,
    /// enforcing every limit in ``Limits``.
    ///
    /// The checks run in this order, and the first failure is thrown as a
    /// ``SchemaError`` that says where and what:
    /// 1. size, before any parsing (over ``Limits/maximumJSONBytes``);
    /// 2. JSON syntax, and the shape `{"fields": [...]}`;
    /// 3. the counts: fields, pattern fields, options in total;
    /// 4. each field in order: key types, unknown keys and keys that do not
    ///    apply to its type, duplicate ids, impossible limits, and its
    ///    pattern, which is compiled by ``PatternMatcher`` and rejected with
    ///    ICU's reason when invalid.
    ///
    /// ```swift
    /// try FormSchema.decode(from: Data(#"{"fields": [{"id": "a", "type": "text", "pattern": "("}]}"#.utf8))
    /// // throws: fields[0].pattern: invalid regular expression: U_REGEX_MISMATCHED_PAREN at offset 1
    /// ```
    ///
    /// - Complexity: linear in the size of the JSON, plus compiling each pattern once.
    public static func decode(from data: Data) throws(SchemaError) -> FormSchema {
        guard data.count <= Limits.maximumJSONBytes else {
            throw SchemaError("", .tooLarge(bytes: data.count))
        }
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw SchemaError("", .malformedJSON(Self.describe(error)))
        }
        guard case .object(let top) = document else { throw SchemaError("", .wrongType(expected: "an object")) }
        for key in top.keys.sorted() where key != "fields" { throw SchemaError(key, .unknownKey) }
        guard let fieldsValue = top["fields"] else { throw SchemaError("fields", .missingKey) }
        guard case .array(let items) = fieldsValue else { throw SchemaError("fields", .wrongType(expected: "an array")) }
        try checkCounts(items)

        var fields: [Field] = []
        var firstIndexOfID: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let field = try Field(decoding: item, at: "fields[\(index)]")
            if let first = firstIndexOfID[field.id] {
                throw SchemaError("fields[\(index)].id", .duplicateID(field.id, firstIndex: first))
            }
            firstIndexOfID[field.id] = index
            fields.append(field)
        }
        return FormSchema(fields: fields)
    }

    /// Checks the field, pattern-field and option counts before any field is decoded.
    private static func checkCounts(_ items: [JSONValue]) throws(SchemaError) {
        guard items.count <= Limits.maximumFields else {
            throw SchemaError("fields", .tooManyFields(count: items.count))
        }
        var patternFields = 0
        var options = 0
        for (index, item) in items.enumerated() {
            guard case .object(let keys) = item else { continue }
            if keys["pattern"] != nil {
                patternFields += 1
                guard patternFields <= Limits.maximumPatternFields else {
                    throw SchemaError("fields[\(index)].pattern", .tooManyPatternFields)
                }
            }
            if case .array(let list)? = keys["options"] {
                options += list.count
                guard options <= Limits.maximumOptions else {
                    throw SchemaError("fields[\(index)].options", .tooManyOptions(total: options))
                }
            }
        }
    }

    /// One line for a JSON parser error, with its position when Foundation gives one.
    private static func describe(_ error: any Error) -> String {
        if case Swift.DecodingError.dataCorrupted(let context) = error {
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return underlying ?? context.debugDescription
        }
        return String(describing: error)
    }
}

extension FormSchema.Field {
    /// The keys every field may have.
    private static let commonKeys: Set<String> = ["id", "label", "type", "required"]

    /// The keys each type adds to ``commonKeys``.
    private static func typeKeys(_ type: FormSchema.FieldType) -> Set<String> {
        switch type {
        case .text, .email: ["minLength", "maxLength", "pattern"]
        case .number: ["min", "max"]
        case .select: ["options"]
        case .checkbox: []
        }
    }

    /// Decodes and checks the field at `path`, compiling its pattern.
    fileprivate init(decoding value: JSONValue, at path: String) throws(FormSchema.SchemaError) {
        guard case .object(let keys) = value else { throw .init(path, .wrongType(expected: "an object")) }
        let reader = FieldReader(keys: keys, path: path)

        guard let id = try reader.string("id") else { throw .init("\(path).id", .missingKey) }
        guard !id.isEmpty else { throw .init("\(path).id", .invalidValue("must not be empty")) }
        guard let typeName = try reader.string("type") else { throw .init("\(path).type", .missingKey) }
        guard let type = FormSchema.FieldType(rawValue: typeName) else {
            throw .init("\(path).type", .unknownType(typeName))
        }
        let allowed = Self.commonKeys.union(Self.typeKeys(type))
        for key in keys.keys.sorted() where !allowed.contains(key) {
            let known = FormSchema.FieldType.allCases.contains { Self.typeKeys($0).contains(key) }
            throw .init("\(path).\(key)", known ? .notApplicable(to: type) : .unknownKey)
        }

        let minimumLength = try reader.count("minLength")
        let maximumLength = try reader.count("maxLength")
        if let minimumLength, let maximumLength, minimumLength > maximumLength {
            throw .init("\(path).minLength", .impossibleLimits("minLength \(minimumLength) is greater than maxLength \(maximumLength)"))
        }
        let minimum = try reader.number("min")
        let maximum = try reader.number("max")
        if let minimum, let maximum, minimum > maximum {
            throw .init("\(path).min", .impossibleLimits("min \(Self.format(minimum)) is greater than max \(Self.format(maximum))"))
        }
        let options = try reader.strings("options")
        if type == .select, options?.isEmpty ?? true {
            throw .init("\(path).options", .invalidValue("a select field needs at least one option"))
        }
        let pattern = try reader.string("pattern")
        if let pattern {
            do throws(PatternMatcher.InvalidPattern) {
                _ = try PatternMatcher(pattern)
            } catch {
                throw .init("\(path).pattern", .invalidPattern(error.reason))
            }
        }

        self.id = id
        self.label = try reader.string("label") ?? id
        self.type = type
        self.isRequired = try reader.bool("required") ?? false
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.pattern = pattern
        self.minimum = minimum
        self.maximum = maximum
        self.options = options
        self.rules = Self.rules(
            type: type, isRequired: isRequired, minimumLength: minimumLength,
            maximumLength: maximumLength, minimum: minimum, maximum: maximum, options: options)
    }

    /// The validator for everything but the pattern.
    private static func rules(
        type: FormSchema.FieldType, isRequired: Bool, minimumLength: Int?, maximumLength: Int?,
        minimum: Double?, maximum: Double?, options: [String]?
    ) -> Validator {
        var rules: [Validator] = []
        switch type {
        case .checkbox:
            rules.append(.oneOf(["on", "true", "off", "false"]))
            if isRequired {
                rules.append(.oneOf(["on", "true"]).and(.required()).message("must be checked"))
            }
            return .all(rules)
        case .text, .email, .number, .select:
            if isRequired { rules.append(.required()) }
        }
        if type == .email { rules.append(.email()) }
        if let minimumLength { rules.append(.minimumLength(minimumLength)) }
        if let maximumLength { rules.append(.maximumLength(maximumLength)) }
        if type == .number { rules.append(.number(minimum: minimum, maximum: maximum)) }
        if let options { rules.append(.oneOf(options)) }
        return .all(rules)
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}

/// Typed reads of one field's keys, each failing with the key's path.
private struct FieldReader {
    var keys: [String: JSONValue]
    var path: String

    func string(_ key: String) throws(FormSchema.SchemaError) -> String? {
        try read(key, expected: "a string") { if case .string(let text) = $0 { text } else { nil } }
    }

    func bool(_ key: String) throws(FormSchema.SchemaError) -> Bool? {
        try read(key, expected: "true or false") { if case .bool(let flag) = $0 { flag } else { nil } }
    }

    func number(_ key: String) throws(FormSchema.SchemaError) -> Double? {
        try read(key, expected: "a number") { if case .number(let number) = $0 { number } else { nil } }
    }

    /// The value at `key` as `typed` takes it, nil when absent; a value of
    /// another type fails as not `expected`.
    private func read<T>(_ key: String, expected: String, _ typed: (JSONValue) -> T?) throws(FormSchema.SchemaError) -> T? {
        guard let value = keys[key] else { return nil }
        guard let read = typed(value) else { throw .init("\(path).\(key)", .wrongType(expected: expected)) }
        return read
    }

    /// A whole number from 0 to `Int32.max`.
    func count(_ key: String) throws(FormSchema.SchemaError) -> Int? {
        guard let number = try number(key) else { return nil }
        guard number == number.rounded(), number >= 0, number <= Double(Int32.max) else {
            throw .init("\(path).\(key)", .wrongType(expected: "a whole number from 0"))
        }
        return Int(number)
    }

    func strings(_ key: String) throws(FormSchema.SchemaError) -> [String]? {
        switch keys[key] {
        case nil: return nil
        case .array(let items)?:
            var strings: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let text) = item else {
                    throw .init("\(path).\(key)[\(index)]", .wrongType(expected: "a string"))
                }
                strings.append(text)
            }
            return strings
        case _?: throw .init("\(path).\(key)", .wrongType(expected: "an array of strings"))
        }
    }
}

/// Any JSON value, decoded without a schema so that every check can say where it failed.
enum JSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? single.decode(Double.self) {
            self = .number(number)
        } else if let text = try? single.decode(String.self) {
            self = .string(text)
        } else if let items = try? single.decode([JSONValue].self) {
            self = .array(items)
        } else {
            self = .object(try single.decode([String: JSONValue].self))
        }
    }
}
