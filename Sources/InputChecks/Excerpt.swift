/// A short, printable excerpt of untrusted text, for messages that echo input.
///
/// Every message that quotes what a file or a user wrote goes through here,
/// so one sentence stays one short line whatever the input holds: at most
/// ``maximumScalars`` characters are kept (then `...`), and control
/// characters, carriage returns, form feeds, newlines, the Unicode line and
/// paragraph separators and the bidirectional controls are escaped.
///
///     Excerpt.quoted("le]ft")                       // 'le]ft'
///     Excerpt.quoted("two\nlines\r")                // 'two\nlines\r'
///     Excerpt.quoted(String(repeating: "a", count: 1_000_000))
///     // 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'
///
/// - Complexity: O(``maximumScalars``): the rest of the text is never read.
public enum Excerpt {
    /// The most characters (Unicode scalars, escapes counted as written) an
    /// excerpt keeps: 40.
    public static let maximumScalars = 40

    /// `text` in single quotes, shortened and escaped (see ``Excerpt``).
    public static func quoted(_ text: some StringProtocol, limit: Int = maximumScalars) -> String {
        "'" + escaped(text, limit: limit) + "'"
    }

    /// `text` shortened and escaped (see ``Excerpt``), without quotes.
    public static func escaped(_ text: some StringProtocol, limit: Int = maximumScalars) -> String {
        var result = ""
        var used = 0
        for scalar in text.unicodeScalars {
            let piece = escape(scalar)
            guard used + piece.count <= limit else { return result + "..." }
            result += piece
            used += piece.count
        }
        return result
    }

    /// Whether `scalar` is shown as itself: false for control characters
    /// (tab and line breaks too), the line and paragraph separators, the
    /// bidirectional controls and invisible formatting characters, which an
    /// excerpt escapes and names read from files may not hold.
    public static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
        let isSeparator = value == 0x2028 || value == 0x2029
        let isBidirectional =
            (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            || value == 0x200E || value == 0x200F || value == 0x061C
        let isInvisible = value == 0xFEFF || (0xFFF9...0xFFFB).contains(value)
        return !(isControl || isSeparator || isBidirectional || isInvisible)
    }

    /// Whether every character of `text` is shown as itself (``isPrintable(_:)``).
    public static func isPrintable(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.allSatisfy { isPrintable($0) }
    }

    /// All of `text`, with every character that is not printable
    /// (``isPrintable(_:)``) escaped as `\u{1b}` and nothing shortened: for
    /// lines that must reach a terminal as text only, such as the daemon's log.
    ///
    ///     Excerpt.printable("fired \u{1B}]0;pwned\u{07}")   // fired \u{1b}]0;pwned\u{7}
    public static func printable(_ text: some StringProtocol) -> String {
        guard !isPrintable(text) else { return String(text) }
        var result = ""
        for scalar in text.unicodeScalars {
            if isPrintable(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return result
    }

    /// One scalar as it appears in an excerpt.
    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case "\u{0C}": return "\\f"
        case "\\": return "\\\\"
        default: break
        }
        guard !isPrintable(scalar) else { return String(scalar) }
        return "\\u{" + String(scalar.value, radix: 16) + "}"
    }
}
