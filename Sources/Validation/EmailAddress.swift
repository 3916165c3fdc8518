/// The syntax of a valid email address as the HTML standard defines it for
/// `<input type=email>`, checked by hand in one pass.
///
/// The standard gives the syntax as a regular expression; it is written out
/// here as a loop so that the email rule can never be a slow pattern:
///
/// - a local part of one or more of `A-Z a-z 0-9 .!#$%&'*+/=?^_`{|}~-`;
/// - `@`;
/// - one or more labels separated by `.`, each 1 to 63 of `A-Z a-z 0-9 -`,
///   neither starting nor ending with `-`.
///
/// ```swift
/// EmailAddress.isValid("ada@example.org")  // true
/// EmailAddress.isValid("ada@-example.org") // false
/// ```
enum EmailAddress {
    /// Whether `text` is a valid email address.
    ///
    /// - Complexity: O(*n*), one look at each UTF-8 byte.
    static func isValid(_ text: String) -> Bool {
        var sawAt = false
        var localLength = 0
        var labelLength = 0
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if !sawAt {
                if byte == UInt8(ascii: "@") {
                    guard localLength > 0 else { return false }
                    sawAt = true
                } else {
                    guard isLocalPartByte(byte) else { return false }
                    localLength += 1
                }
            } else if byte == UInt8(ascii: ".") {
                // A label ends: it must be non-empty and not end with `-`.
                guard labelLength > 0, previous != UInt8(ascii: "-") else { return false }
                labelLength = 0
            } else {
                guard isLetterOrDigit(byte) || byte == UInt8(ascii: "-") else { return false }
                if labelLength == 0, byte == UInt8(ascii: "-") { return false }
                labelLength += 1
                guard labelLength <= 63 else { return false }
            }
            previous = byte
        }
        return sawAt && labelLength > 0 && previous != UInt8(ascii: "-")
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func isLocalPartByte(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || localPartSymbols.contains(byte)
    }

    /// The symbols a local part may hold besides letters and digits.
    private static let localPartSymbols = Set(".!#$%&'*+/=?^_`{|}~-".utf8)
}
