import Foundation
import GestureTraces
import InputChecks

#if canImport(Glibc)
    import Glibc
#endif

/// Focus from an X server through EWMH: the root window's
/// `_NET_ACTIVE_WINDOW`, that window's `WM_CLASS` (instance and class) and
/// `_NET_WM_NAME` (else `WM_NAME`), followed by `PropertyNotify` events on
/// the root and on the active window, never by polling. Needs a window
/// manager that sets `_NET_ACTIVE_WINDOW` (openbox, xfwm4, KWin, Mutter, i3...).
///
/// It speaks the X11 protocol itself (``X11Protocol``) over the display's
/// socket, so every wait on the server has a ``ServerDeadline``, every
/// length the server sends is checked before it is used, and a refusal is
/// one sentence with the server's reason escaped.
final class X11FocusConnection: FocusConnection {
    let name = "x11"
    private let socket: UnixSocket
    /// The server, as sentences name it: `the X server at DISPLAY=:0`.
    private let server: String
    private var root: UInt32 = 0
    private var activeWindowAtom: UInt32 = 0
    private var netNameAtom: UInt32 = 0
    private var utf8Atom: UInt32 = 0
    /// The active window, whose properties are followed.
    private var active: UInt32 = 0
    private var focused: FocusedWindow?
    /// What was read and not yet taken: the start of a message.
    private var inbox: [UInt8] = []
    /// The events read while waiting for a reply, handled next.
    private var events: [[UInt8]] = []
    /// The sequence number of the last request sent (its low 16 bits, as the server counts).
    private var sequence: UInt16 = 0

    /// The most events kept while a reply is awaited: 4,096 (a server that
    /// floods events instead of replying is an error, not a heap that grows).
    static let maximumQueuedEvents = 4_096

    /// The longest Xauthority file read: 1 MiB.
    static let maximumAuthorityBytes = 1 << 20

    var fileDescriptor: Int32 { socket.descriptor }

    /// Connects to `display` (`:0`) with the cookie of `$XAUTHORITY` (else
    /// `~/.Xauthority`) when it has one, and asks for the root window's
    /// property changes.
    convenience init(display: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(FocusError) {
        let server = "the X server at DISPLAY=\(Excerpt.printable(display))"
        guard let address = X11Display(parsing: display) else {
            throw FocusError("DISPLAY=\(Excerpt.printable(display)) names no X display (it should look like :0 or localhost:10.0)")
        }
        let socket: UnixSocket
        do {
            if let host = address.host {
                socket = try UnixSocket(connectingToHost: host, port: 6000 + address.number)
            } else {
                do { socket = try UnixSocket(connectingTo: address.socketPath) } catch {
                    socket = try UnixSocket(connectingTo: address.socketPath, abstract: true)
                }
            }
        } catch { throw FocusError("cannot connect to \(server): \(error.description)") }
        let authority = environment["XAUTHORITY"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["HOME"].map { $0 + "/.Xauthority" }
        let cookie = authority.flatMap { try? InputFile.read($0, maximumBytes: Self.maximumAuthorityBytes) }.flatMap {
            address.cookie(in: Array($0), hostname: Self.hostname)
        }
        do { try self.init(socket: socket, server: server, screen: address.screen, cookie: cookie) } catch {
            socket.close()
            throw error
        }
    }

    /// A connection over `socket` (a test's socket pair): sends the setup
    /// request with `cookie`, reads the root of `screen` and the atoms,
    /// and asks for the root window's property changes.
    init(socket: UnixSocket, server: String, screen: Int = 0, cookie: (name: [UInt8], data: [UInt8])? = nil) throws(FocusError) {
        self.socket = socket
        self.server = server
        try socket.write(X11Protocol.setupRequest(authorizationName: cookie?.name ?? [], data: cookie?.data ?? []))
        let deadline = ServerDeadline(server: server)
        let header = try socket.read(exactly: 8, by: deadline)
        let length = X11Protocol.setupLength(header) ?? 8
        let setup = header + (length > 8 ? try socket.read(exactly: length - 8, by: deadline) : [])
        root = try X11Protocol.rootWindow(setup: setup, screen: screen, server: server)
        activeWindowAtom = try atom("_NET_ACTIVE_WINDOW")
        netNameAtom = try atom("_NET_WM_NAME")
        utf8Atom = try atom("UTF8_STRING")
        try follow(root)
    }

    func currentFocus() throws(FocusError) -> FocusedWindow? {
        try readActiveWindow()
        return focused
    }

    /// Reads what the server sent and handles its events.
    func readChange() throws(FocusError) -> FocusedWindow?? {
        inbox += try socket.readAvailable(by: ServerDeadline(server: server))
        return try handleEvents()
    }

    /// The events read while waiting for a reply, and whole messages already read: handled as ``readChange()`` handles them.
    func readBuffered() throws(FocusError) -> FocusedWindow?? { try handleEvents() }

    func close() { socket.close() }

    /// Handles every event queued and every whole message read; the focus when it changed.
    private func handleEvents() throws(FocusError) -> FocusedWindow?? {
        let before = focused
        while true {
            if !events.isEmpty {
                try handle(event: events.removeFirst())
                continue
            }
            guard let message = try takeMessage() else { break }
            if case .event(_, let bytes) = X11Protocol.message(message) { try handle(event: bytes) }
        }
        return focused == before ? nil : .some(focused)
    }

    /// One event: the active window changed, retitled or went away.
    private func handle(event bytes: [UInt8]) throws(FocusError) {
        let code = bytes[0] & 0x7f
        if code == X11Protocol.EventCode.destroyNotify || code == X11Protocol.EventCode.unmapNotify {
            let gone = X11Protocol.window(event: bytes)
            guard gone == active, active != 0 else { return }
            // Some window managers (openbox) leave _NET_ACTIVE_WINDOW naming a window that went away.
            try readActiveWindow()
            if active == gone {
                active = 0
                focused = nil
            }
            return
        }
        guard code == X11Protocol.EventCode.propertyNotify else { return }
        let (window, atom) = X11Protocol.propertyNotify(bytes)
        if window == root, atom == activeWindowAtom {
            try readActiveWindow()
        } else if window == active, active != 0,
            atom == netNameAtom || atom == X11Protocol.Atom.wmName || atom == X11Protocol.Atom.wmClass
        {
            focused = try describe(active)
        }
    }

    /// Reads `_NET_ACTIVE_WINDOW`, follows the new window's properties and reads them.
    private func readActiveWindow() throws(FocusError) {
        let value = try property(root, activeWindowAtom, type: X11Protocol.Atom.window)
        let window = value.count >= 4 ? X11Protocol.read32(value, at: 0) : 0
        if window != active {
            active = window
            if window != 0 { try follow(window, structure: true) }
        }
        focused = window == 0 ? nil : try describe(window)
    }

    /// The focused window `window` describes: its class and instance, its title.
    private func describe(_ window: UInt32) throws(FocusError) -> FocusedWindow? {
        let classes = try property(window, X11Protocol.Atom.wmClass, type: X11Protocol.Atom.string)
            .split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var title = String(decoding: try property(window, netNameAtom, type: utf8Atom), as: UTF8.self)
        if title.isEmpty {
            title = String(decoding: try property(window, X11Protocol.Atom.wmName, type: X11Protocol.Atom.any), as: UTF8.self)
        }
        guard classes.count >= 2 else { return FocusedWindow(appID: "", title: title, source: name) }
        return FocusedWindow(appID: classes[1], instance: classes[0], title: title, source: name)
    }

    /// The bytes of `window`'s property `atom` of `type` (at most 64 KiB), empty when it has none or the window is gone.
    private func property(_ window: UInt32, _ atom: UInt32, type: UInt32) throws(FocusError) -> [UInt8] {
        let sent = try request(X11Protocol.getProperty(window: window, property: atom, type: type))
        guard let reply = try reply(to: sent) else { return [] }
        return try X11Protocol.propertyValue(reply: reply, server: server)
    }

    /// Asks for `window`'s property changes (and, with `structure`, its unmapping and destruction).
    private func follow(_ window: UInt32, structure: Bool = false) throws(FocusError) {
        var mask = X11Protocol.EventMask.propertyChange
        if structure { mask |= X11Protocol.EventMask.structureNotify }
        _ = try request(X11Protocol.selectEvents(window: window, mask: mask))
    }

    /// The atom named `name`.
    private func atom(_ name: String) throws(FocusError) -> UInt32 {
        let sent = try request(X11Protocol.internAtom(name))
        return try reply(to: sent).map(X11Protocol.atom(reply:)) ?? 0
    }

    /// Sends `bytes`, one request; its sequence number.
    private func request(_ bytes: [UInt8]) throws(FocusError) -> UInt16 {
        sequence &+= 1
        do { try socket.write(bytes) } catch { throw FocusError("cannot write to \(server): \(error.description)") }
        return sequence
    }

    /// The reply to the request `sent`, nil for an error (a window gone
    /// away); events read meanwhile are kept for ``handleEvents()``.
    private func reply(to sent: UInt16) throws(FocusError) -> [UInt8]? {
        let deadline = ServerDeadline(server: server)
        while true {
            while let message = try takeMessage() {
                switch X11Protocol.message(message) {
                case .reply(sent, let bytes): return bytes
                case .error(sent, _): return nil
                case .event(_, let bytes):
                    guard events.count < Self.maximumQueuedEvents else {
                        throw FocusError("\(server) sent over \(Self.maximumQueuedEvents) events without the reply it owed")
                    }
                    events.append(bytes)
                case .reply, .error: continue
                }
            }
            inbox += try socket.readAvailable(by: deadline)
        }
    }

    /// The first whole message of the inbox, taken out of it; nil when it holds none yet.
    private func takeMessage() throws(FocusError) -> [UInt8]? {
        guard let length = try X11Protocol.messageLength(inbox, server: server), inbox.count >= length else { return nil }
        let message = Array(inbox.prefix(length))
        inbox.removeFirst(length)
        return message
    }

    /// This machine's name, as Xauthority's local entries name it. The corresponding C function is `gethostname`.
    private static var hostname: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
