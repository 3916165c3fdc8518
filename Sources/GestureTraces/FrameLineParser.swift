import GestureRecognition
import InputChecks
import TouchInput

/// Parses one frame line of a JSON trace by hand: the hot path of reading,
/// about 30 bytes per event, so it avoids JSONSerialization and allocation.
///
/// Accepts any JSON object; known keys are `d` (device index), `t` (time of
/// the first event, microseconds), `e` (events `[type, code, value]` or
/// `[type, code, value, offset]`) and `end` (the trailer); other keys are
/// skipped whatever their value.
struct FrameLineParser {
    enum Line {
        case blank
        case frame(device: Int)
        case end(frames: Int, events: Int)
    }

    var maximumEvents: Int

    private struct Cursor {
        var pointer: UnsafePointer<UInt8>
        let end: UnsafePointer<UInt8>

        @inline(__always) var atEnd: Bool { pointer >= end }
        @inline(__always) var byte: UInt8 { pointer < end ? pointer.pointee : 0 }

        @inline(__always)
        mutating func skipSpace() {
            while pointer < end {
                let c = pointer.pointee
                if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A { pointer += 1 } else { break }
            }
        }

        @inline(__always)
        mutating func expect(_ c: UInt8, _ what: String) throws(TraceError.Kind) {
            skipSpace()
            guard pointer < end && pointer.pointee == c else {
                throw .malformedFrame("expected \(what)\(found)")
            }
            pointer += 1
        }

        /// After a member or an element: true, past it, at a `,` (another
        /// follows); false past `closing`; anything else is malformed (`what`).
        @inline(__always)
        mutating func another(closedBy closing: UInt8, _ what: String) throws(TraceError.Kind) -> Bool {
            skipSpace()
            if byte == UInt8(ascii: ",") {
                pointer += 1
                return true
            }
            try expect(closing, what)
            return false
        }

        var found: String {
            guard pointer < end else { return " before the end of the line" }
            let c = pointer.pointee
            return c >= 0x21 && c < 0x7F ? " at '\(Character(Unicode.Scalar(c)))'" : ""
        }

        /// An integer; rejects fractions, exponents, NaN and numbers outside Int64.
        @inline(__always)
        mutating func integer(_ what: StaticString) throws(TraceError.Kind) -> Int64 {
            skipSpace()
            var negative = false
            if pointer < end && pointer.pointee == UInt8(ascii: "-") { negative = true; pointer += 1 }
            let digitsStart = pointer
            var magnitude: UInt64 = 0
            var overflow = false
            while pointer < end {
                let digit = pointer.pointee &- 48
                guard digit < 10 else { break }
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
                overflow = overflow || o1 || o2
                magnitude = sum
                pointer += 1
            }
            guard pointer > digitsStart else { throw .malformedFrame("\(what) must be an integer\(found)") }
            if pointer < end, pointer.pointee == UInt8(ascii: ".") || pointer.pointee | 0x20 == UInt8(ascii: "e") {
                throw .malformedFrame("\(what) must be an integer, not a fraction or exponent")
            }
            let limit: UInt64 = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
            guard !overflow && magnitude <= limit else { throw .numberOutOfRange("\(what)") }
            return negative ? Int64(bitPattern: 0 &- magnitude) : Int64(magnitude)
        }

        /// The key of the next member, as raw bytes between the quotes.
        mutating func key() throws(TraceError.Kind) -> UnsafeBufferPointer<UInt8> {
            try expect(UInt8(ascii: "\""), "a key in double quotes")
            let keyStart = pointer
            while pointer < end && pointer.pointee != UInt8(ascii: "\"") {
                if pointer.pointee == UInt8(ascii: "\\") { pointer += 1 }
                pointer += 1
            }
            guard pointer < end else { throw .malformedFrame("unterminated key") }
            let key = UnsafeBufferPointer(start: keyStart, count: pointer - keyStart)
            pointer += 1
            try expect(UInt8(ascii: ":"), "':' after a key")
            return key
        }

        /// Skips any JSON value (for unknown keys).
        mutating func skipValue(depth: Int = 0) throws(TraceError.Kind) {
            guard depth < 32 else { throw .malformedFrame("values nested too deeply") }
            skipSpace()
            guard pointer < end else { throw .malformedFrame("a value is missing") }
            switch pointer.pointee {
            case UInt8(ascii: "\""):
                pointer += 1
                while pointer < end && pointer.pointee != UInt8(ascii: "\"") {
                    if pointer.pointee == UInt8(ascii: "\\") { pointer += 1 }
                    pointer += 1
                }
                guard pointer < end else { throw .malformedFrame("unterminated string") }
                pointer += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = pointer.pointee == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                let isObject = close == UInt8(ascii: "}")
                pointer += 1
                skipSpace()
                if byte == close { pointer += 1; return }
                while true {
                    if isObject { _ = try key() }
                    try skipValue(depth: depth + 1)
                    skipSpace()
                    if byte == UInt8(ascii: ",") { pointer += 1; continue }
                    try expect(close, isObject ? "',' or '}'" : "',' or ']'")
                    return
                }
            default:
                let literalStart = pointer
                while pointer < end {
                    let c = pointer.pointee
                    let isLiteral = (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || c == 45 || c == 43 || c == 46 || c == 69
                    if !isLiteral { break }
                    pointer += 1
                }
                let text = String(decoding: UnsafeBufferPointer(start: literalStart, count: pointer - literalStart), as: UTF8.self)
                guard text == "true" || text == "false" || text == "null" || (Double(text)?.isFinite ?? false) else {
                    throw .malformedFrame("\(Excerpt.quoted(text)) is not a JSON value")
                }
            }
        }
    }

    @inline(__always)
    private static func isKey(_ key: UnsafeBufferPointer<UInt8>, _ byte: UInt8) -> Bool {
        key.count == 1 && key[0] == byte
    }

    /// Parses a line, appending its events to `events` (times absolute).
    func parse(_ line: UnsafeRawBufferPointer, into events: inout [InputEvent]) throws(TraceError.Kind) -> Line {
        let bytes = line.bindMemory(to: UInt8.self)
        guard let base = bytes.baseAddress else { return .blank }
        var cursor = Cursor(pointer: base, end: base + bytes.count)
        cursor.skipSpace()
        if cursor.atEnd { return .blank }
        try cursor.expect(UInt8(ascii: "{"), "'{' at the start of a frame line")
        let firstEvent = events.count
        var device: Int64 = 0
        var time: Int64?
        var sawEvents = false
        var end: (frames: Int64, events: Int64)?
        cursor.skipSpace()
        if cursor.byte != UInt8(ascii: "}") {
            repeat {
                let key = try cursor.key()
                if Self.isKey(key, UInt8(ascii: "e")) {
                    try parseEvents(&cursor, into: &events, firstEvent: firstEvent)
                    sawEvents = true
                } else if Self.isKey(key, UInt8(ascii: "t")) {
                    time = try cursor.integer("'t'")
                } else if Self.isKey(key, UInt8(ascii: "d")) {
                    device = try cursor.integer("'d'")
                } else if key.count == 3 && key[0] == UInt8(ascii: "e") && key[1] == UInt8(ascii: "n") && key[2] == UInt8(ascii: "d") {
                    end = try parseEnd(&cursor)
                } else {
                    try cursor.skipValue()
                }
            } while try cursor.another(closedBy: UInt8(ascii: "}"), "',' or '}'")
        } else {
            cursor.pointer += 1
        }
        cursor.skipSpace()
        guard cursor.atEnd else { throw .malformedFrame("text after the closing '}'\(cursor.found)") }
        if let end {
            guard end.frames >= 0 && end.frames <= Int.max && end.events >= 0 else { throw .numberOutOfRange("'end' count") }
            return .end(frames: Int(end.frames), events: Int(end.events))
        }
        guard sawEvents else { throw .malformedFrame("no 'e' (events)") }
        guard let time else { throw .malformedFrame("no 't' (time)") }
        guard device >= 0 && device <= Int64(Int32.max) else { throw .numberOutOfRange("'d' \(device)") }
        var index = firstEvent
        let count = events.count
        while index < count {
            let (sum, overflow) = time.addingReportingOverflow(events[index].microseconds)
            guard !overflow else { throw .numberOutOfRange("event time") }
            events[index].microseconds = sum
            index += 1
        }
        return .frame(device: Int(device))
    }

    private func parseEvents(_ cursor: inout Cursor, into events: inout [InputEvent], firstEvent: Int) throws(TraceError.Kind) {
        try cursor.expect(UInt8(ascii: "["), "'[' to start the events")
        cursor.skipSpace()
        if cursor.byte == UInt8(ascii: "]") { cursor.pointer += 1; return }
        repeat {
            try cursor.expect(UInt8(ascii: "["), "'[' to start an event")
            let type = try cursor.integer("event type")
            try cursor.expect(UInt8(ascii: ","), "',' after the event type")
            let code = try cursor.integer("event code")
            try cursor.expect(UInt8(ascii: ","), "',' after the event code")
            let value = try cursor.integer("event value")
            var offset: Int64 = 0
            cursor.skipSpace()
            if cursor.byte == UInt8(ascii: ",") {
                cursor.pointer += 1
                offset = try cursor.integer("event time offset")
            }
            try cursor.expect(UInt8(ascii: "]"), "']' to close an event")
            guard type >= 0 && type <= Int64(UInt16.max) else { throw .numberOutOfRange("event type \(type)") }
            guard code >= 0 && code <= Int64(UInt16.max) else { throw .numberOutOfRange("event code \(code)") }
            guard value >= Int64(Int32.min) && value <= Int64(Int32.max) else { throw .numberOutOfRange("event value \(value)") }
            guard events.count - firstEvent < maximumEvents else { throw .tooManyEvents(limit: maximumEvents) }
            events.append(
                InputEvent(
                    type: UInt16(truncatingIfNeeded: type), code: UInt16(truncatingIfNeeded: code),
                    value: Int32(truncatingIfNeeded: value), microseconds: offset))
        } while try cursor.another(closedBy: UInt8(ascii: "]"), "',' or ']' after an event")
    }

    private func parseEnd(_ cursor: inout Cursor) throws(TraceError.Kind) -> (frames: Int64, events: Int64) {
        try cursor.expect(UInt8(ascii: "{"), "'{' after 'end'")
        var frames: Int64 = -1, events: Int64 = -1
        cursor.skipSpace()
        if cursor.byte == UInt8(ascii: "}") {
            cursor.pointer += 1
        } else {
            repeat {
                let key = try cursor.key()
                let name = String(decoding: key, as: UTF8.self)
                if name == "frames" {
                    frames = try cursor.integer("'frames'")
                } else if name == "events" {
                    events = try cursor.integer("'events'")
                } else {
                    try cursor.skipValue()
                }
            } while try cursor.another(closedBy: UInt8(ascii: "}"), "',' or '}'")
        }
        guard frames >= 0, events >= 0 else { throw .malformedFrame("'end' needs 'frames' and 'events'") }
        return (frames, events)
    }
}
