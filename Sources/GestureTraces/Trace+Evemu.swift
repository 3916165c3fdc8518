import Foundation
import GestureRecognition
import InputChecks
import TouchInput

/// Reads and writes evemu's text format (`evemu-record` output, `.events` and
/// `.desc` files): `N:` name, `I:` ids (hex), `P:` property bitmask bytes,
/// `B:` type + code bitmask bytes, `A:` axis code (hex) min max fuzz flat
/// [resolution], `E: sec.usec type code value` (hex type and code, decimal
/// value, `-001` allowed), `#` comments anywhere.
enum Evemu {
    /// A parsed evemu file: its description (if it has one) and its events.
    struct Parsed {
        var description: DeviceDescription?
        var events: [InputEvent]
    }

    /// The SYN codes a description read from evemu declares (evemu's `B: 00`
    /// line lists event types, not SYN codes; the kernel supports these).
    static let synCodes: Set<UInt16> = [SYN.REPORT, SYN.CONFIG, SYN.MT_REPORT, SYN.DROPPED]

    static func parse(_ data: Data, maximumLineBytes: Int = 1 << 20) throws(TraceError) -> Parsed {
        let lines = LineReader(bytes: data, maximumLineBytes: maximumLineBytes)
        var name: String?
        var id = DeviceDescription.ID()
        var sawDescription = false
        var propertyBytes: [UInt8] = []
        var typeBytes: [UInt16: [UInt8]] = [:]
        var absInfo: [UInt16: AbsInfo] = [:]
        var events: [InputEvent] = []
        do {
            while try lines.nextLine({ (raw: UnsafeRawBufferPointer) throws(TraceError.Kind) -> Bool in
                // Nearly every line is an event in the plain form: read from the bytes; anything else takes the general path.
                if let event = plainEvent(raw) {
                    events.append(event)
                    return true
                }
                var text = String(decoding: raw, as: UTF8.self)
                guard let first = text.first, first != "#" else { return true }
                if first != "N", let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { return true }
                guard trimmed.count >= 2, trimmed.dropFirst().first == ":" else {
                    throw .malformedEvemuLine("\(Excerpt.quoted(trimmed)) is not an evemu line")
                }
                let rest = trimmed.dropFirst(2).trimmingCharacters(in: .whitespaces)
                let fields = rest.split(whereSeparator: { $0 == " " || $0 == "\t" })
                switch trimmed.first! {
                case "E":
                    events.append(try event(fields))
                case "N":
                    name = rest
                    sawDescription = true
                case "I":
                    guard fields.count == 4 else { throw .malformedEvemuLine("'I:' needs bus vendor product version") }
                    let values = try fields.map { (field) throws(TraceError.Kind) in try hex16(field, "id") }
                    id = .init(bus: values[0], vendor: values[1], product: values[2], version: values[3])
                    sawDescription = true
                case "P":
                    for field in fields { try appendMaskByte(try byte(field), to: &propertyBytes, line: "P:") }
                    sawDescription = true
                case "B":
                    guard let typeField = fields.first else { throw .malformedEvemuLine("'B:' needs an event type") }
                    let type = try hex16(typeField, "event type")
                    for field in fields.dropFirst() {
                        try appendMaskByte(try byte(field), to: &typeBytes[type, default: []], line: "B: \(typeField)")
                    }
                    sawDescription = true
                case "A":
                    guard fields.count == 5 || fields.count == 6 else {
                        throw .malformedEvemuLine("'A:' needs code min max fuzz flat [resolution]")
                    }
                    let code = try hex16(fields[0], "axis code")
                    let values = try fields.dropFirst().map { (field) throws(TraceError.Kind) in try int32(field, "axis value") }
                    absInfo[code] = AbsInfo(
                        minimum: values[0], maximum: values[1], fuzz: values[2], flat: values[3],
                        resolution: values.count == 5 ? values[4] : 0)
                    sawDescription = true
                case "S", "L":
                    break  // evemu 2.x switch and LED states: not part of a trace
                default:
                    throw .malformedEvemuLine("\(Excerpt.quoted(trimmed.prefix(2))) is not an evemu line type")
                }
                return true
            }) != nil {}
        } catch let kind as TraceError.Kind {
            throw TraceError(kind, line: lines.lineNumber)
        } catch let error as TraceError {
            throw error
        } catch {
            throw TraceError(.unreadable(reason: "\(error)"), line: lines.lineNumber)
        }
        guard sawDescription else { return Parsed(description: nil, events: events) }
        var description = DeviceDescription(name: name ?? "", id: id, absInfo: absInfo)
        description.properties = bits(propertyBytes)
        // B: 00 lists the supported event types; each other B: line a type's codes.
        for type in bits(typeBytes[EV.SYN] ?? []) {
            description.codes[type] = type == EV.SYN ? synCodes : bits(typeBytes[type] ?? [])
        }
        return Parsed(description: description, events: events)
    }

    /// The most bytes a `P:` or `B:` mask may hold: 8,192, whose 65,536 bits
    /// are every code a 16-bit event code can name.
    static let maximumMaskBytes = (Int(UInt16.max) + 1) / 8

    /// Appends one byte of a bitmask, refusing masks longer than the codes they can name.
    private static func appendMaskByte(_ byte: UInt8, to mask: inout [UInt8], line: String) throws(TraceError.Kind) {
        guard mask.count < maximumMaskBytes else {
            throw .malformedEvemuLine(
                "the '\(Excerpt.escaped(line))' mask has more than \(maximumMaskBytes) bytes, more than the \(maximumMaskBytes * 8) codes it can name"
            )
        }
        mask.append(byte)
    }

    /// The codes whose bits are set in `bytes`; bits past the last 16-bit code are ignored.
    private static func bits(_ bytes: [UInt8]) -> Set<UInt16> {
        var set = Set<UInt16>()
        for (index, byte) in bytes.prefix(maximumMaskBytes).enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                if let code = UInt16(exactly: index * 8 + bit) { set.insert(code) }
            }
        }
        return set
    }

    private static func event(_ fields: [Substring]) throws(TraceError.Kind) -> InputEvent {
        guard fields.count == 4 else { throw .malformedEvemuLine("'E:' needs time type code value") }
        let time = fields[0]
        var negative = false
        var clock = time
        if clock.first == "-" { negative = true; clock = clock.dropFirst() }
        let parts = clock.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let seconds = Int64(parts[0]), seconds >= 0 else {
            throw .malformedEvemuLine("\(Excerpt.quoted(time)) is not a time in seconds.microseconds")
        }
        var micros: Int64 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard fraction.count <= 6, fraction.allSatisfy(\.isASCII), let value = Int64(fraction.isEmpty ? "0" : fraction), value >= 0
            else {
                throw .malformedEvemuLine("\(Excerpt.quoted(time)) is not a time in seconds.microseconds")
            }
            micros = value
            for _ in fraction.count..<6 { micros *= 10 }
        }
        // In magnitude first, so that -9223372036854.775808 (Int64.min) is a time too.
        let (scaled, o1) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000)
        let (magnitude, o2) = scaled.addingReportingOverflow(UInt64(micros))
        let limit = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        guard !o1 && !o2 && magnitude <= limit else { throw .numberOutOfRange("the time \(Excerpt.quoted(time))") }
        return InputEvent(
            type: try hex16(fields[1], "event type"), code: try hex16(fields[2], "event code"),
            value: try int32(fields[3], "event value"),
            microseconds: negative ? Int64(bitPattern: 0 &- magnitude) : Int64(magnitude))
    }

    /// The event of a line in evemu's own form, `E: 12.345678 0003 0035 2470`
    /// (blanks between fields, a `#` comment after them allowed), read
    /// straight from the bytes; nil for any other line, which ``event(_:)``
    /// then reads (or explains), with the same result for these.
    static func plainEvent(_ raw: UnsafeRawBufferPointer) -> InputEvent? {
        let count = raw.count
        guard count >= 10, raw[0] == UInt8(ascii: "E"), raw[1] == UInt8(ascii: ":") else { return nil }
        var i = 2
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        func skipBlanks() -> Bool {
            let start = i
            while i < count, isBlank(raw[i]) { i += 1 }
            return i > start
        }
        func digits(radix: UInt64, maximum: Int) -> (value: UInt64, count: Int)? {
            var value: UInt64 = 0
            var n = 0
            while i < count, n <= maximum {
                let byte = raw[i]
                let digit: UInt64
                switch byte {
                case 0x30...0x39: digit = UInt64(byte - 0x30)
                case 0x61...0x66 where radix == 16: digit = UInt64(byte - 0x61 + 10)
                case 0x41...0x46 where radix == 16: digit = UInt64(byte - 0x41 + 10)
                default: return n == 0 || n > maximum ? nil : (value, n)
                }
                value = value * radix + digit
                n += 1
                i += 1
            }
            return n == 0 || n > maximum ? nil : (value, n)
        }
        guard skipBlanks(), let seconds = digits(radix: 10, maximum: 12), i < count, raw[i] == UInt8(ascii: ".") else { return nil }
        i += 1
        guard let fraction = digits(radix: 10, maximum: 6) else { return nil }
        var micros = fraction.value
        for _ in fraction.count..<6 { micros *= 10 }
        guard skipBlanks(), let type = digits(radix: 16, maximum: 4), skipBlanks(), let code = digits(radix: 16, maximum: 4), skipBlanks()
        else { return nil }
        let negative = i < count && raw[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        guard let magnitude = digits(radix: 10, maximum: 10) else { return nil }
        let value = negative ? -Int64(magnitude.value) : Int64(magnitude.value)
        guard let value32 = Int32(exactly: value) else { return nil }
        _ = skipBlanks()
        guard i == count || raw[i] == UInt8(ascii: "#") else { return nil }
        return InputEvent(
            type: UInt16(type.value), code: UInt16(code.value), value: value32,
            microseconds: Int64(seconds.value) * 1_000_000 + Int64(micros))
    }

    private static func hex16(_ field: Substring, _ what: String) throws(TraceError.Kind) -> UInt16 {
        guard let value = UInt64(field, radix: 16) else { throw .malformedEvemuLine("\(what) \(Excerpt.quoted(field)) is not hexadecimal") }
        guard let result = UInt16(exactly: value) else { throw .numberOutOfRange("\(what) \(Excerpt.escaped(field))") }
        return result
    }

    private static func byte(_ field: Substring) throws(TraceError.Kind) -> UInt8 {
        guard field.count <= 2, let value = UInt8(field, radix: 16) else {
            throw .malformedEvemuLine("\(Excerpt.quoted(field)) is not a hexadecimal byte")
        }
        return value
    }

    private static func int32(_ field: Substring, _ what: String) throws(TraceError.Kind) -> Int32 {
        guard let value = Int64(field) else { throw .malformedEvemuLine("\(what) \(Excerpt.quoted(field)) is not a decimal integer") }
        guard let result = Int32(exactly: value) else { throw .numberOutOfRange("\(what) \(Excerpt.escaped(field))") }
        return result
    }

    // MARK: Writing

    /// The event types evemu writes a `B:` line for, in its order.
    private static let bitmaskTypes: [UInt16] = [EV.KEY, EV.REL, EV.ABS, EV.MSC, EV.SW, EV.LED, EV.SND, EV.REP, EV.FF]

    static func encode(device: DeviceDescription, events: [InputEvent]) -> [UInt8] {
        var out: [UInt8] = []
        out.append("# EVEMU 1.3\n# Written by gestures (GestureTraces)\n")
        out.append("N: ")
        out.append(device.name.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " "))
        out.append("\nI: ")
        out.append(
            [device.id.bus, device.id.vendor, device.id.product, device.id.version].map { hex($0, width: 4) }.joined(separator: " "))
        out.append("\n")
        appendMask(device.properties, maximum: INPUT_PROP.MAX, prefix: "P:", to: &out)
        appendMask(Set(device.codes.keys), maximum: EV.MAX, prefix: "B: 00", to: &out)
        for type in bitmaskTypes {
            appendMask(device.codes[type] ?? [], maximum: EV.maxCode(type)!, prefix: "B: " + hex(type, width: 2), to: &out)
        }
        for type in device.codes.keys.sorted() where type != EV.SYN && !bitmaskTypes.contains(type) {
            appendMask(device.codes[type]!, maximum: EV.maxCode(type) ?? 0xff, prefix: "B: " + hex(type, width: 2), to: &out)
        }
        for code in device.absInfo.keys.sorted() {
            let info = device.absInfo[code]!
            out.append("A: \(hex(code, width: 2)) \(info.minimum) \(info.maximum) \(info.fuzz) \(info.flat) \(info.resolution)\n")
        }
        for event in events {
            out.append("E: ")
            if event.microseconds < 0 { out.append(UInt8(ascii: "-")) }
            let magnitude = event.microseconds.magnitude
            out.appendDecimal(Int64(magnitude / 1_000_000))
            out.append(UInt8(ascii: "."))
            let micros = String(magnitude % 1_000_000)
            out.append(String(repeating: "0", count: 6 - micros.count) + micros)
            out.append(" \(hex(event.type, width: 4)) \(hex(event.code, width: 4)) ")
            // evemu prints values with %04d: -1 is "-001".
            let value = String(event.value.magnitude)
            out.append(
                (event.value < 0 ? "-" : "") + String(repeating: "0", count: max(0, (event.value < 0 ? 3 : 4) - value.count)) + value)
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    private static func hex(_ value: UInt16, width: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// Appends a bitmask as lines of eight hex bytes, each starting with `prefix`.
    private static func appendMask(_ bits: Set<UInt16>, maximum: UInt16, prefix: String, to out: inout [UInt8]) {
        let highest = max(Int(maximum), Int(bits.max() ?? 0))
        var bytes = [UInt8](repeating: 0, count: (highest / 8 + 1 + 7) / 8 * 8)
        for bit in bits { bytes[Int(bit) / 8] |= 1 << (bit % 8) }
        for start in stride(from: 0, to: bytes.count, by: 8) {
            out.append(prefix)
            for byte in bytes[start..<start + 8] { out.append(" " + hex(UInt16(byte), width: 2)) }
            out.append(UInt8(ascii: "\n"))
        }
    }
}
