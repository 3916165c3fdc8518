import InputChecks

/// The few pieces of the X11 core protocol the X11 focus source speaks, as
/// pure functions of bytes: the connection setup and its reply, the
/// `InternAtom`, `GetProperty` and `ChangeWindowAttributes` requests, and the
/// framing of what the server sends (32-byte replies, errors and events, a
/// reply's extra length in 4-byte units). Everything is little-endian: the
/// setup request asks for that byte order (`l`).
///
/// Every length the server sends is checked against the bytes that arrived
/// and against ``maximumMessageBytes`` before it is used; a reply that lies
/// is an error (one sentence), never a read past its end.
///
///     X11Protocol.messageLength(header)   // 32 + 4 × the reply's length field, or nil for too few bytes
enum X11Protocol {
    /// The longest message read: 1 MiB (a property is asked for at most
    /// ``maximumPropertyLongs`` 4-byte units, 64 KiB).
    static let maximumMessageBytes = 1 << 20
    /// The most 4-byte units of a property asked for: 16,384 (64 KiB).
    static let maximumPropertyLongs: UInt32 = 16_384

    /// The predefined atoms used.
    enum Atom {
        static let any: UInt32 = 0
        static let string: UInt32 = 31
        static let window: UInt32 = 33
        static let wmName: UInt32 = 39
        static let wmClass: UInt32 = 67
    }

    /// The event codes followed (without the "sent by SendEvent" bit).
    enum EventCode {
        static let destroyNotify: UInt8 = 17
        static let unmapNotify: UInt8 = 18
        static let propertyNotify: UInt8 = 28
        /// A `GenericEvent`, whose length is in its header as a reply's is.
        static let generic: UInt8 = 35
    }

    /// The event masks asked for.
    enum EventMask {
        static let structureNotify: UInt32 = 0x0002_0000
        static let propertyChange: UInt32 = 0x0040_0000
    }

    /// The request opcodes sent.
    private enum Opcode {
        static let changeWindowAttributes: UInt8 = 2
        static let internAtom: UInt8 = 16
        static let getProperty: UInt8 = 20
    }

    // MARK: Requests

    /// The setup request: little-endian, protocol 11.0, with the
    /// authorization `name` (`MIT-MAGIC-COOKIE-1`) and `data`, or none.
    static func setupRequest(authorizationName name: [UInt8] = [], data: [UInt8] = []) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "l"), 0]
        append16(11, to: &bytes)
        append16(0, to: &bytes)
        append16(UInt16(clamping: name.count), to: &bytes)
        append16(UInt16(clamping: data.count), to: &bytes)
        append16(0, to: &bytes)
        bytes += padded(Array(name.prefix(65_535))) + padded(Array(data.prefix(65_535)))
        return bytes
    }

    /// `InternAtom(name)`, with `only-if-exists` false.
    static func internAtom(_ name: String) -> [UInt8] {
        let text = Array(name.utf8.prefix(1024))
        let body = padded(text)
        var bytes: [UInt8] = [Opcode.internAtom, 0]
        append16(UInt16(2 + body.count / 4), to: &bytes)
        append16(UInt16(text.count), to: &bytes)
        append16(0, to: &bytes)
        return bytes + body
    }

    /// `GetProperty(window, property, type)` of at most ``maximumPropertyLongs`` units, not deleting it.
    static func getProperty(window: UInt32, property: UInt32, type: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [Opcode.getProperty, 0]
        append16(6, to: &bytes)
        for value in [window, property, type, 0, maximumPropertyLongs] { append32(value, to: &bytes) }
        return bytes
    }

    /// `ChangeWindowAttributes(window, event-mask: mask)`.
    static func selectEvents(window: UInt32, mask: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [Opcode.changeWindowAttributes, 0]
        append16(4, to: &bytes)
        // The value mask: CWEventMask.
        for value in [window, 0x800, mask] { append32(value, to: &bytes) }
        return bytes
    }

    // MARK: What the server sends

    /// The setup reply's whole length from its first 8 bytes: 8 + 4 × its
    /// additional-data length (at most 262,148 bytes, as the field is 16 bits).
    static func setupLength(_ header: some Collection<UInt8>) -> Int? {
        guard header.count >= 8 else { return nil }
        return 8 + 4 * Int(read16(Array(header.prefix(8)), at: 6))
    }

    /// The root window of `screen` in the setup reply `bytes` (all of it, as
    /// ``setupLength(_:)`` measured). A refusal is an error quoting the
    /// server's reason, escaped; a reply whose lengths or counts run past
    /// its own end is an error.
    static func rootWindow(setup bytes: [UInt8], screen: Int, server: String) throws(FocusError) -> UInt32 {
        guard bytes.count >= 8 else { throw FocusError("\(server) sent a setup reply of \(bytes.count) bytes, too short") }
        switch bytes[0] {
        case 1: break
        case 0, 2:
            // Failed: the reason's length is byte 1; Authenticate: the reason fills the additional data.
            let reasonBytes = bytes[0] == 0 ? Int(bytes[1]) : bytes.count - 8
            let reason = String(decoding: bytes.dropFirst(8).prefix(reasonBytes).filter { $0 != 0 }, as: UTF8.self)
            let trimmed = reason.trimmingWhitespace
            throw FocusError(
                "\(server) refused the connection\(trimmed.isEmpty ? "" : " (\(Excerpt.quoted(trimmed, limit: 120)))"): check XAUTHORITY and that the display is yours"
            )
        default:
            throw FocusError("\(server) sent a setup reply with the unknown status \(bytes[0])")
        }
        func fail(_ what: String) -> FocusError {
            FocusError("\(server) sent a setup reply whose \(what) runs past its \(bytes.count) bytes")
        }
        guard bytes.count >= 40 else { throw fail("fixed part") }
        let vendorBytes = Int(read16(bytes, at: 24))
        let screens = Int(bytes[28])
        let formats = Int(bytes[29])
        var offset = 40 + (vendorBytes + 3) / 4 * 4
        guard offset <= bytes.count else { throw fail("vendor name") }
        offset += 8 * formats
        guard offset <= bytes.count else { throw fail("pixmap formats") }
        guard screen >= 0, screen < screens else {
            throw FocusError("\(server) has \(screens) screen\(screens == 1 ? "" : "s"), so no screen \(screen): check DISPLAY")
        }
        for index in 0...screen {
            guard offset + 40 <= bytes.count else { throw fail("screen \(index)") }
            if index == screen { return read32(bytes, at: offset) }
            let depths = Int(bytes[offset + 39])
            offset += 40
            for _ in 0..<depths {
                guard offset + 8 <= bytes.count else { throw fail("screen \(index)'s depths") }
                offset += 8 + 24 * Int(read16(bytes, at: offset + 2))
                guard offset <= bytes.count else { throw fail("screen \(index)'s visuals") }
            }
        }
        throw fail("screens")
    }

    /// The whole length of the message that starts `bytes` (32, or 32 + 4 ×
    /// the length field of a reply or a generic event), nil when fewer than
    /// 32 bytes are there; an error when it is over ``maximumMessageBytes``.
    static func messageLength(_ bytes: some Collection<UInt8>, server: String) throws(FocusError) -> Int? {
        guard bytes.count >= 32 else { return nil }
        let header = Array(bytes.prefix(8))
        let code = header[0] & 0x7f
        guard header[0] == 1 || code == EventCode.generic else { return 32 }
        let length = 32 + 4 * Int(read32(header, at: 4))
        guard length <= maximumMessageBytes else {
            throw FocusError("\(server) sent a message of \(length) bytes, over the limit of \(maximumMessageBytes)")
        }
        return length
    }

    /// One whole message from the server.
    enum Message: Hashable {
        /// A reply to the request of `sequence` (the low 16 bits), all its bytes.
        case reply(sequence: UInt16, bytes: [UInt8])
        /// An error for the request of `sequence`.
        case error(sequence: UInt16, code: UInt8)
        /// An event, all its bytes.
        case event(code: UInt8, bytes: [UInt8])
    }

    /// Reads `bytes`, one whole message (``messageLength(_:server:)`` long).
    static func message(_ bytes: [UInt8]) -> Message {
        switch bytes[0] {
        case 0: .error(sequence: read16(bytes, at: 2), code: bytes[1])
        case 1: .reply(sequence: read16(bytes, at: 2), bytes: bytes)
        default: .event(code: bytes[0] & 0x7f, bytes: bytes)
        }
    }

    /// The atom of an `InternAtom` reply.
    static func atom(reply bytes: [UInt8]) -> UInt32 {
        bytes.count >= 12 ? read32(bytes, at: 8) : 0
    }

    /// The value of a `GetProperty` reply: its value length (in units of
    /// its format, 8, 16 or 32 bits) checked against the bytes that arrived.
    static func propertyValue(reply bytes: [UInt8], server: String) throws(FocusError) -> [UInt8] {
        guard bytes.count >= 32 else { throw FocusError("\(server) sent a property reply of \(bytes.count) bytes, too short") }
        let format = Int(bytes[1])
        guard [0, 8, 16, 32].contains(format) else { throw FocusError("\(server) sent a property of format \(format), not 8, 16 or 32") }
        let count = Int(read32(bytes, at: 16)) * (format / 8)
        guard count <= bytes.count - 32 else {
            throw FocusError("\(server) sent a property reply claiming \(count) bytes of value with \(bytes.count - 32) sent")
        }
        return Array(bytes[32..<32 + count])
    }

    /// The window a `DestroyNotify` or `UnmapNotify` names, and the window and atom of a `PropertyNotify`.
    static func window(event bytes: [UInt8]) -> UInt32 { read32(bytes, at: 8) }
    static func propertyNotify(_ bytes: [UInt8]) -> (window: UInt32, atom: UInt32) { (read32(bytes, at: 4), read32(bytes, at: 8)) }

    // MARK: Bytes

    static func read16(_ bytes: [UInt8], at offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    static func read32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    private static func append16(_ value: UInt16, to bytes: inout [UInt8]) {
        bytes += [UInt8(value & 0xff), UInt8(value >> 8)]
    }

    private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xff)) }
    }

    /// `bytes` padded with zeros to a multiple of 4.
    private static func padded(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
    }
}

/// Where an X display is and how to authorize on it: the `DISPLAY` value
/// read (`:0`, `:0.1`, `unix:0`, `/tmp/.X11-unix/X0`, `localhost:10.0`), and
/// the `MIT-MAGIC-COOKIE-1` entry of an Xauthority file that matches it.
///
///     X11Display(parsing: ":1.0")   // number 1, screen 0, the socket /tmp/.X11-unix/X1
struct X11Display: Hashable {
    /// The host for TCP, nil for the local socket.
    var host: String?
    /// The display number.
    var number: Int
    /// The screen asked for.
    var screen: Int
    /// The local socket's path (for a local display).
    var socketPath: String

    /// The display `text` names, or nil when it names none.
    init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let hostPart = String(text[..<colon])
        let rest = text[text.index(after: colon)...]
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let numberText = parts.first, let number = Int(numberText), (0...65_535).contains(number) else { return nil }
        let screen = parts.count > 1 ? Int(parts[1]) : 0
        guard let screen, (0...255).contains(screen) else { return nil }
        self.number = number
        self.screen = screen
        if hostPart.hasPrefix("/") {
            // A socket path with the display after it (`/tmp/.X11-unix/X0:0`, as XQuartz writes it), or the path alone.
            socketPath = hostPart
            host = nil
        } else {
            socketPath = "/tmp/.X11-unix/X\(number)"
            let local = hostPart.isEmpty || hostPart == "unix" || hostPart.hasSuffix("/unix")
            host = local ? nil : hostPart
        }
    }

    /// The cookie for this display in the Xauthority file `bytes` (its
    /// entries big-endian: family, address, display number, name, data),
    /// for a local display the entry of `hostname` or a wildcard; nil when
    /// none matches. A file cut short ends the search at its last whole entry.
    func cookie(in bytes: [UInt8], hostname: String) -> (name: [UInt8], data: [UInt8])? {
        var offset = 0
        func field() -> [UInt8]? {
            guard offset + 2 <= bytes.count else { return nil }
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            guard offset + 2 + length <= bytes.count else { return nil }
            defer { offset += 2 + length }
            return Array(bytes[offset + 2..<offset + 2 + length])
        }
        let wanted = host.map { $0 == "localhost" ? hostname : $0 } ?? hostname
        while offset + 2 <= bytes.count {
            let family = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            offset += 2
            guard let address = field(), let number = field(), let name = field(), let data = field() else { return nil }
            // FamilyLocal (256) by host name, FamilyWild (65535) for any; TCP entries by name too.
            let matchesHost = family == 65_535 || ((family == 256 || host != nil) && address == Array(wanted.utf8))
            let matchesNumber = number.isEmpty || number == Array(String(self.number).utf8)
            if matchesHost, matchesNumber, name == Array("MIT-MAGIC-COOKIE-1".utf8) { return (name, data) }
        }
        return nil
    }
}

extension String {
    /// The text without leading and trailing spaces and line breaks.
    fileprivate var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
