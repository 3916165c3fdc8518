// Small byte-level helpers shared by the JSON trace writer and the YAML exporter.

extension Array where Element == UInt8 {
    /// Appends the decimal digits of `value`.
    @inline(__always)
    mutating func appendDecimal(_ value: Int64) {
        var magnitude = value.magnitude
        if value < 0 { append(UInt8(ascii: "-")) }
        if magnitude < 10 { append(UInt8(truncatingIfNeeded: magnitude) &+ 48); return }
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes of scratch
        Swift.withUnsafeMutableBytes(of: &digits) { scratch in
            var index = scratch.count
            while magnitude > 0 {
                index -= 1
                scratch[index] = UInt8(truncatingIfNeeded: magnitude % 10) &+ 48
                magnitude /= 10
            }
            append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[index...]))
        }
    }

    @inline(__always)
    mutating func appendDecimal(_ value: Int32) { appendDecimal(Int64(value)) }

    @inline(__always)
    mutating func appendDecimal(_ value: Int) { appendDecimal(Int64(value)) }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    mutating func append(_ text: String) {
        append(contentsOf: text.utf8)
    }

    /// Appends `text` as a JSON string literal, also a valid YAML double-quoted
    /// scalar that reads back the same: what YAML does not allow raw (DEL, the
    /// C1 controls, U+FEFF, U+FFFE, U+FFFF) or reads as a line break (U+0085,
    /// U+2028, U+2029) is escaped.
    mutating func appendJSONString(_ text: String) {
        append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": append("\\\"")
            case "\\": append("\\\\")
            case "\n": append("\\n")
            case "\r": append("\\r")
            case "\t": append("\\t")
            case _
            where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
                || scalar.value == 0xFEFF || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                let hex = String(scalar.value, radix: 16)
                append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default:
                append(contentsOf: String(scalar).utf8)
            }
        }
        append(UInt8(ascii: "\""))
    }
}
