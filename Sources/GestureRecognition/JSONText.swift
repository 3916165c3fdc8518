import Foundation

/// Small pieces of JSON text shared by every reader and writer of the
/// package: string literals, and one readable sentence for a decoding error.
public enum JSONText {
    /// `text` as a JSON string literal.
    ///
    ///     JSONText.quoted("a \"b\"\n")   // "\"a \\\"b\\\"\\n\""
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// What is wrong, and where, for an error thrown by `JSONDecoder`:
    /// `missing key "points" at templates[3]`, `not valid JSON (...)`.
    public static func describe(decodingError error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)?:
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            if context.codingPath.isEmpty { return underlying.map { "not valid JSON: \($0)" } ?? "not valid JSON" }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context)?:
            return "missing key \"\(key.stringValue)\" at \(path(context.codingPath))"
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?:
            return "wrong type at \(path(context.codingPath)): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }

    /// A coding path as `templates[3].points`, or "the top level".
    public static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
        }
        return text.isEmpty ? "the top level" : text
    }
}
