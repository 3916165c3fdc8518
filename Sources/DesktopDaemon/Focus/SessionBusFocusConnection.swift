internal import CSystemdBus
import Foundation
import InputChecks

#if canImport(Glibc)
    import Glibc
#endif

/// Focus from a compositor that no client can ask from outside, through
/// code of ours running inside it that calls the daemon back on the
/// session bus (``FocusCallback``), read through sd-bus: KWin (KDE Plasma 5
/// and 6 on Wayland), into which a small script (``KWinScript``) is loaded
/// through its D-Bus scripting interface (`org.kde.KWin /Scripting`:
/// `loadScript`, then `start`), and GNOME Shell, whose extension
/// (``GnomeShellExtension``, installed by Tools/install) the daemon
/// subscribes to. Only calls from the compositor's own bus name are taken.
/// Event-driven: the bus descriptor is in ``LiveFocus``'s poll. Closing
/// unloads the script (unsubscribes) and removes its file.
final class SessionBusFocusConnection: FocusConnection {
    /// The compositor that reports.
    enum Reporter: String {
        case kwin
        case gnome
        /// Its well-known bus name.
        var busName: String { self == .kwin ? "org.kde.KWin" : "org.gnome.Shell" }
    }

    let name: String
    private let reporter: Reporter
    private let bus: OpaquePointer
    private var slot: OpaquePointer?
    /// The match of the bus's `NameOwnerChanged`, which says when the compositor leaves.
    private var ownerSlot: OpaquePointer?
    /// Whether the compositor's bus name went away (its code of ours with it).
    private var gone = false
    /// The compositor's unique bus name: the only sender whose calls are taken.
    private var compositor = ""
    /// The daemon's unique bus name.
    private var daemon = ""
    /// The script's plugin name in KWin, and its file.
    private let plugin: String
    private let scriptPath: String
    private var focused: FocusedWindow?
    /// Whether the script has reported once.
    private var reported = false
    /// Whether the script's file was written, and KWin loaded it (or GNOME Shell subscribed us): what ``close()`` undoes.
    private var written = false
    private var loaded = false
    private var closed = false
    /// Whether the bus authenticated us and answered `Hello`.
    private var ready = false
    /// Where it connected, for messages.
    private let address: String
    /// The bus, as sentences name it: `the session bus at unix:path=/run/user/1000/bus`.
    private var server: String { "the session bus at \(Excerpt.printable(address))" }

    /// How long a call to the compositor, and its first report, may take: 5 s.
    static let timeout: Duration = .seconds(5)
    private static let timeoutMicroseconds: UInt64 = 5_000_000

    var fileDescriptor: Int32 { sd_bus_get_fd(bus) }

    /// Connects to the session bus at `address` (`unix:path=/run/user/1000/bus`)
    /// and has `reporter` call back: KWin loads and runs the script written
    /// into `folder`; GNOME Shell's extension takes a subscription. The
    /// corresponding C functions are `sd_bus_new`, `sd_bus_set_address`,
    /// `sd_bus_start`, `sd_bus_add_object` and `sd_bus_call`.
    convenience init(_ reporter: Reporter, address: String, folder: String) throws(FocusError) {
        try self.init(reporter, address: address, folder: folder) { sd_bus_set_address($0, address) }
    }

    /// A connection over `descriptor`, a socket already connected to a bus
    /// (the fuzz target's bytes), named `address` in messages. The
    /// corresponding C function is `sd_bus_set_fd`.
    convenience init(_ reporter: Reporter, descriptor: Int32, address: String, folder: String) throws(FocusError) {
        try self.init(reporter, address: address, folder: folder) { sd_bus_set_fd($0, descriptor, descriptor) }
    }

    /// A connection through `attach`, which tells sd-bus where the bus is.
    private init(_ reporter: Reporter, address: String, folder: String, attach: (OpaquePointer) -> Int32) throws(FocusError) {
        self.address = address
        self.reporter = reporter
        name = reporter.rawValue
        var made: OpaquePointer?
        guard sd_bus_new(&made) >= 0, let made else { throw FocusError("cannot make a D-Bus connection") }
        bus = made
        plugin = "gestures-focus-\(getpid())"
        scriptPath = "\(folder)/gestures-kwin-focus-\(getpid()).js"
        var result = attach(bus)
        if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
        if result >= 0 { result = sd_bus_set_method_call_timeout(bus, Self.timeoutMicroseconds) }
        if result >= 0 { result = sd_bus_start(bus) }
        guard result >= 0 else {
            throw FocusError("cannot connect to \(server): \(String(cString: strerror(-result)))")
        }
        try waitUntilReady()
        ready = true
        var unique: UnsafePointer<CChar>?
        result = sd_bus_get_unique_name(bus, &unique)
        guard result >= 0, let unique else {
            throw FocusError("\(server) gave no unique name: \(String(cString: strerror(-result)))")
        }
        daemon = String(cString: unique)
        let what = reporter == .kwin ? "KWin" : "GNOME Shell"
        do {
            compositor = try callForString(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", [reporter.busName])
        } catch {
            throw FocusError("\(what) (\(reporter.busName)) is not on \(server): \(error.description)")
        }
        guard sd_bus_add_object(bus, &slot, FocusCallback.objectPath, focusCalled, Unmanaged.passUnretained(self).toOpaque()) >= 0
        else {
            throw FocusError("cannot serve \(FocusCallback.objectPath) on the session bus")
        }
        // The corresponding C function is `sd_bus_match_signal`.
        guard
            sd_bus_match_signal(
                bus, &ownerSlot, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged",
                busOwnerChanged,
                Unmanaged.passUnretained(self).toOpaque()) >= 0
        else {
            throw FocusError("cannot follow NameOwnerChanged on the session bus")
        }
        if reporter == .gnome {
            do {
                sd_bus_message_unref(
                    try call(
                        reporter.busName, GnomeShellExtension.objectPath, GnomeShellExtension.interface, GnomeShellExtension.subscribe,
                        [daemon]))
            } catch {
                throw FocusError(
                    "the GNOME Shell extension \(GnomeShellExtension.uuid) did not answer (\(error.description)): install it with Tools/install or the package, run \(GnomeShellExtension.enableCommand) and log in again"
                )
            }
            loaded = true
            return
        }
        guard FileManager.default.createFile(atPath: scriptPath, contents: Data(KWinScript.source(daemon: daemon).utf8)) else {
            throw FocusError("cannot write the KWin script \(scriptPath)")
        }
        written = true
        chmod(scriptPath, 0o600)
        // A script of this name left by a process of the same id that ended without unloading it.
        if let reply = try? call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [plugin]) {
            sd_bus_message_unref(reply)
        }
        let id = try callForInteger("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "loadScript", [scriptPath, plugin])
        guard id >= 0 else { throw FocusError("KWin refused to load the script \(scriptPath)") }
        loaded = true
        sd_bus_message_unref(try call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "start", []))
    }

    deinit { close() }

    /// Waits until the bus has authenticated us and answered `Hello`, at
    /// most until a ``ServerDeadline`` (sd-bus alone would wait up to 90 s
    /// for the authentication); a refusal says why. The corresponding C
    /// functions are `sd_bus_is_ready`, `sd_bus_process` and `sd_bus_wait`.
    private func waitUntilReady() throws(FocusError) {
        let deadline = ServerDeadline(server: server)
        while sd_bus_is_ready(bus) <= 0 {
            let result = sd_bus_process(bus, nil)
            guard result >= 0 else {
                let reason =
                    -result == EPERM || -result == EACCES
                    ? "it refused to authenticate us (\(String(cString: strerror(-result))))"
                    : String(cString: strerror(-result))
                throw FocusError("cannot connect to \(server): \(reason)")
            }
            if result > 0 { continue }
            guard !deadline.hasPassed else { throw deadline.expired }
            _ = sd_bus_wait(bus, UInt64(deadline.remainingMilliseconds) * 1000)
        }
    }

    /// The window reported first (the script reports the active window as it starts, the extension as it subscribes us),
    /// waiting up to ``timeout``.
    /// The corresponding C functions are `sd_bus_process` and `sd_bus_wait`.
    func currentFocus() throws(FocusError) -> FocusedWindow? {
        let deadline = ContinuousClock.now + Self.timeout
        while !reported {
            let result = sd_bus_process(bus, nil)
            guard result >= 0 else { throw FocusError("\(server) closed the connection") }
            if result > 0 { continue }
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                throw FocusError(
                    reporter == .kwin
                        ? "KWin ran the focus script \(scriptPath) but it reported nothing within \(Self.timeout)"
                        : "the GNOME Shell extension \(GnomeShellExtension.uuid) reported nothing within \(Self.timeout)")
            }
            _ = sd_bus_wait(bus, UInt64(left.components.seconds) * 1_000_000 + UInt64(left.components.attoseconds / 1_000_000_000_000))
        }
        return focused
    }

    /// Handles what arrived: the script's calls. The corresponding C functions are `sd_bus_process` and `sd_bus_flush`.
    func readChange() throws(FocusError) -> FocusedWindow?? {
        let before = focused
        var result: Int32
        repeat { result = sd_bus_process(bus, nil) } while result > 0
        guard result >= 0 else { throw FocusError("\(server) closed the connection") }
        guard !gone else { throw FocusError("\(reporter.busName) left the session bus, and its focus reports with it") }
        _ = sd_bus_flush(bus)
        return focused == before ? nil : .some(focused)
    }

    /// What sd-bus already read: handled as ``readChange()`` handles it (sd-bus never blocks there).
    func readBuffered() throws(FocusError) -> FocusedWindow?? { try readChange() }

    /// Unloads the script (or unsubscribes), removes its file and closes the bus.
    func close() {
        guard !closed else { return }
        closed = true
        if loaded {
            let reply =
                reporter == .kwin
                ? try? call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [plugin])
                : try? call(reporter.busName, GnomeShellExtension.objectPath, GnomeShellExtension.interface, "Unsubscribe", [daemon])
            if let reply { sd_bus_message_unref(reply) }
        }
        if written { unlink(scriptPath) }
        if let slot { sd_bus_slot_unref(slot) }
        if let ownerSlot { sd_bus_slot_unref(ownerSlot) }
        // A bus that never finished connecting is not flushed: sd-bus would wait for it to.
        if ready { sd_bus_flush_close_unref(bus) } else { sd_bus_close_unref(bus) }
    }

    /// A call back: taken from the compositor alone, answered with an empty reply.
    fileprivate func called(_ message: OpaquePointer) -> Int32 {
        guard sd_bus_message_is_method_call(message, FocusCallback.interface, nil) > 0 else { return 0 }
        let sender = sd_bus_message_get_sender(message).map { String(cString: $0) }
        guard sender == compositor, let member = sd_bus_message_get_member(message).map({ String(cString: $0) }) else {
            _ = sd_bus_reply_method_errno(message, EACCES, nil)
            return 1
        }
        var arguments: [String] = []
        var text: UnsafePointer<CChar>?
        while arguments.count < 8, sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &text) > 0, let value = text {
            arguments.append(String(cString: value))
        }
        if let change = FocusCallback.change(member: member, arguments: arguments, source: name) {
            focused = change
            reported = true
        }
        _ = csdbus_reply_empty(message)
        return 1
    }

    /// A `NameOwnerChanged(name, old, new)` signal: the compositor's name leaving its owner is the end.
    fileprivate func ownerChanged(_ message: OpaquePointer) -> Int32 {
        var names: [String] = []
        var text: UnsafePointer<CChar>?
        while names.count < 3, sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &text) > 0, let value = text {
            names.append(String(cString: value))
        }
        if names.count == 3, names[0] == reporter.busName, names[1] == compositor { gone = true }
        return 0
    }

    /// Calls `member` of `interface` on `path` of `destination` with string
    /// arguments, waiting up to ``timeout``; the reply, to unref. The corresponding
    /// C functions are `sd_bus_message_new_method_call`, `sd_bus_message_append_basic` and `sd_bus_call`.
    private func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [String])
        throws(FocusError) -> OpaquePointer
    {
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, destination, path, interface, member) >= 0, let message else {
            throw FocusError("cannot make a D-Bus call of \(member)")
        }
        defer { sd_bus_message_unref(message) }
        for argument in arguments {
            let appended = argument.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
            guard appended >= 0 else { throw FocusError("cannot make a D-Bus call of \(member)") }
        }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let result = sd_bus_call(bus, message, Self.timeoutMicroseconds, &error, &reply)
        guard result >= 0, let reply else {
            let why = error.message.map { String(cString: $0) } ?? String(cString: strerror(-result))
            throw FocusError("\(destination) answered \(member) with an error: \(why)")
        }
        return reply
    }

    private func callForString(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [String])
        throws(FocusError) -> String
    {
        let reply = try call(destination, path, interface, member, arguments)
        defer { sd_bus_message_unref(reply) }
        var text: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &text) > 0, let text else {
            throw FocusError("\(destination) answered \(member) with no string")
        }
        return String(cString: text)
    }

    private func callForInteger(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [String])
        throws(FocusError) -> Int32
    {
        let reply = try call(destination, path, interface, member, arguments)
        defer { sd_bus_message_unref(reply) }
        var value: Int32 = 0
        guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "i")), &value) > 0 else {
            throw FocusError("\(destination) answered \(member) with no integer")
        }
        return value
    }
}

/// sd-bus's handler of the calls to ``FocusCallback/objectPath``: hands each to its ``SessionBusFocusConnection`` (the user data).
private func focusCalled(
    _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
    guard let message, let userdata else { return 0 }
    return Unmanaged<SessionBusFocusConnection>.fromOpaque(userdata).takeUnretainedValue().called(message)
}

/// sd-bus's handler of `NameOwnerChanged`: hands it to its ``SessionBusFocusConnection`` (the user data).
private func busOwnerChanged(
    _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
    guard let message, let userdata else { return 0 }
    return Unmanaged<SessionBusFocusConnection>.fromOpaque(userdata).takeUnretainedValue().ownerChanged(message)
}
