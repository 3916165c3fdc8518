import Foundation

extension PatternMatcher {
    /// ICU rejected a pattern, or the pattern cannot be anchored to the whole value.
    ///
    /// The reason says what ICU found in words, what its offset points at,
    /// and, for the glob people type (`*term`, `?x`), that the pattern is a
    /// regular expression and the one that was meant:
    ///
    ///     try PatternMatcher("*term")
    ///     // invalid regular expression: '*' has nothing before it to repeat, just after
    ///     // character 1 '*' (ICU's U_REGEX_RULE_SYNTAX at offset 1); these patterns are
    ///     // regular expressions, not globs: write '.*term' ('.*' is any text)
    public struct InvalidPattern: Error, Sendable, Hashable, CustomStringConvertible {
        /// The pattern as given.
        public var pattern: String
        /// Why it was rejected, in a few words.
        public var reason: String

        /// A pattern rejected for `reason`.
        public init(pattern: String, reason: String) {
            self.pattern = pattern
            self.reason = reason
        }

        /// `pattern`, which ICU rejects, with ICU's reason in words.
        init(rejectedByICU pattern: String) {
            self.init(pattern: pattern, reason: Self.explanation(of: pattern))
        }

        /// `invalid regular expression: <reason>`.
        public var description: String { "invalid regular expression: \(reason)" }

        /// ICU's words for its errors, said as what is wrong with the pattern.
        static let problems: [String: String] = [
            "U_REGEX_RULE_SYNTAX": "a syntax error",
            "U_REGEX_MISMATCHED_PAREN": "a '(' or ')' without its partner",
            "U_REGEX_MISSING_CLOSE_BRACKET": "a '[' set that is not closed with ']'",
            "U_REGEX_BAD_INTERVAL": "a '{' repeat that is not {n}, {n,} or {n,m}",
            "U_REGEX_MAX_LT_MIN": "a {n,m} repeat whose m is below n",
            "U_REGEX_NUMBER_TOO_BIG": "a repeat count that is too big",
            "U_REGEX_INVALID_RANGE": "a range in a [...] set that runs backwards",
            "U_REGEX_BAD_ESCAPE_SEQUENCE": "an unknown escape after '\\'",
            "U_REGEX_PROPERTY_SYNTAX": "a \\p{...} property that is not valid",
            "U_REGEX_INVALID_FLAG": "an unknown (?flag)",
            "U_REGEX_INVALID_CAPTURE_GROUP_NAME": "a group name that is not valid",
            "U_REGEX_LOOK_BEHIND_LIMIT": "a look-behind without a bounded length",
            "U_REGEX_SET_CONTAINS_STRING": "a [...] set that holds a string",
            "U_REGEX_OCTAL_TOO_BIG": "an octal escape above \\377",
            "U_REGEX_INVALID_BACK_REF": "a back reference to a group that does not exist",
            "U_REGEX_UNIMPLEMENTED": "a feature ICU does not implement",
            "U_REGEX_PATTERN_TOO_BIG": "a pattern too big for ICU",
        ]

        /// What ICU found, where, and the glob hint when it applies.
        private static func explanation(of pattern: String) -> String {
            guard let (name, line, offset) = ICUDiagnosis.rejection(for: pattern) else { return "ICU rejected the pattern" }
            let units = Array(pattern.utf16)
            let before = offset > 0 && offset <= units.count ? String(decoding: units[..<offset], as: UTF16.self) : ""
            // ICU stops just after what it cannot read: `*term` at offset 1, after the '*'.
            let unrepeatable =
                name == "U_REGEX_RULE_SYNTAX" && line <= 1 && before.last.map { "*+?".contains($0) } == true
                && [nil, "(", "|"].contains(before.dropLast().last)
            var text = unrepeatable ? "'\(before.last!)' has nothing before it to repeat" : problems[name] ?? "an error"
            let icu = line > 1 ? "\(name) at line \(line), offset \(offset)" : "\(name) at offset \(offset)"
            if line <= 1, offset >= units.count {
                text += ", at the end of the pattern"
            } else if line <= 1, let character = before.last {
                text += ", just after character \(before.count) \(shown(character))"
            }
            text += " (ICU's \(icu))"
            if unrepeatable, let meant = globMeant(by: pattern) {
                let any = before.last == "?" ? "'.' is any one character" : "'.*' is any text"
                text += "; these patterns are regular expressions, not globs: write '\(meant)' (\(any))"
            }
            return text
        }

        /// The regular expression a glob stands for: each `*` and `?` that
        /// follows nothing it could repeat (at the start, after `(` or `|`)
        /// made `.*` and `.`; nil unless ICU accepts it and it is short,
        /// printable ASCII (it is quoted in a message).
        static func globMeant(by pattern: String) -> String? {
            guard pattern.count <= 40, pattern.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else { return nil }
            var meant = ""
            var previous: Character?
            var escaped = false
            for character in pattern {
                if escaped {
                    // An escaped character is an atom a quantifier can repeat.
                    escaped = false
                    meant.append(character)
                    previous = "x"
                    continue
                }
                escaped = character == "\\"
                let unrepeatable = previous == nil || previous == "(" || previous == "|"
                if unrepeatable, character == "*" || character == "?" {
                    meant += character == "*" ? ".*" : "."
                } else {
                    meant.append(character)
                }
                previous = character
            }
            guard meant != pattern, (try? NSRegularExpression(pattern: meant)) != nil else { return nil }
            return meant
        }

        /// One character of a pattern, quoted, control characters escaped.
        private static func shown(_ character: Character) -> String {
            let scalars = character.unicodeScalars
            if scalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }),
                !scalars.contains(where: { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
            {
                return "'\(character)'"
            }
            return "'" + scalars.map { "\\u{" + String($0.value, radix: 16) + "}" }.joined() + "'"
        }
    }
}
