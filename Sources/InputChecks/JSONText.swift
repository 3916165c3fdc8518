import Foundation

/// Small pieces of JSON text shared by every reader and writer of the
/// package: string literals, and one readable sentence for a decoding error.
public enum JSONText {
    /// `text` as a JSON string literal.
    ///
    ///     JSONText.quoted("a \"b\"\n")   // "\"a \\\"b\\\"\\n\""
    public static func quoted(_ text: String) -> String {
        let escaped = replacingScalars(in: text) { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            // The C0 controls JSON requires escaped, and DEL and the C1 controls (0x9B is CSI to some terminals) too.
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: nil
            }
        }
        return "\"" + escaped + "\""
    }

    /// `text` with each scalar that `replacement` gives a text for replaced
    /// by that text, the others kept: the one loop behind JSON string
    /// literals (``quoted(_:)``) and the pictures' XML escaping.
    ///
    ///     JSONText.replacingScalars(in: "a<b") { $0 == "<" ? "&lt;" : nil }   // "a&lt;b"
    ///
    /// - Complexity: O(n) in the scalars of `text`.
    public static func replacingScalars(in text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                result += replaced
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// What is wrong, and where, for an error thrown while decoding JSON, in
    /// the project's words (never a Swift type name or Foundation's wording):
    /// `templates[3].points: is required`, `points[0][1]: must be a number`.
    public static func describe(decodingError error: any Error) -> String {
        invalidValue(error).description
    }

    /// An error thrown while decoding as an ``InvalidValue``: ours pass
    /// through (the first of ``InvalidValues``); Foundation's `DecodingError`s are said in our words.
    public static func invalidValue(_ error: any Error) -> InvalidValue {
        if let invalid = error as? InvalidValue { return invalid }
        if let many = error as? InvalidValues, let first = many.all.first { return first }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return InvalidValue(codingPath: context.codingPath + [key], message: "is required")
        case .typeMismatch(let type, let context)?:
            return InvalidValue(codingPath: context.codingPath, message: "must be \(kind(of: type))")
        case .valueNotFound(let type, let context)?:
            return InvalidValue(codingPath: context.codingPath, message: "must be \(kind(of: type)), not null")
        case .dataCorrupted(let context)?:
            // The syntax was checked first, so what is left is a number that
            // does not fit the integer type it is read as, or a value of the
            // right kind that the type does not accept.
            return InvalidValue(
                codingPath: context.codingPath,
                message: context.codingPath.isEmpty
                    ? "holds a number that is not a whole number or is out of range where an integer is expected"
                    : "has a value that is not allowed here")
        default:
            return InvalidValue(path: "", message: "cannot be read")
        }
    }

    /// The kind of JSON value a Swift type is read from, for messages.
    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Float.Type: return "a number"
        case is Int.Type, is Int64.Type, is Int32.Type, is Int16.Type, is Int8.Type,
            is UInt.Type, is UInt64.Type, is UInt32.Type, is UInt16.Type, is UInt8.Type:
            return "an integer"
        case is Bool.Type: return "true or false"
        case is String.Type: return "a string"
        case is [Any].Type: return "a list"
        case is [String: Any].Type: return "an object"
        default: return "a value of another kind"
        }
    }

    /// A coding path as `templates[3].points`, or "the top level".
    public static func path(_ codingPath: [any CodingKey]) -> String {
        let text = keyPath(codingPath)
        return text.isEmpty ? "the top level" : text
    }

    /// A coding path as `templates[3].points`, or empty for the top level.
    /// Keys are shortened and escaped as ``Excerpt`` does.
    public static func keyPath(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                let name = Excerpt.escaped(key.stringValue)
                text += text.isEmpty ? name : ".\(name)"
            }
        }
        return text
    }
}
