internal import CSystemdBus
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Focus from KWin (KDE Plasma 5 and 6 on Wayland), which no client can ask
/// from outside: a small script (``KWinScript``) is loaded into KWin
/// through its D-Bus scripting interface (`org.kde.KWin /Scripting`:
/// `loadScript`, then `start`) and calls the daemon back on the session bus
/// with each activated window, through sd-bus. Only calls from KWin's own
/// bus name are taken. Event-driven: the bus descriptor is in
/// ``LiveFocus``'s poll. Closing unloads the script and removes its file.
final class KWinFocusConnection: FocusConnection {
    let name = "kwin"
    private let bus: OpaquePointer
    private var slot: OpaquePointer?
    /// KWin's unique bus name: the only sender whose calls are taken.
    private var kwin = ""
    /// The script's plugin name in KWin, and its file.
    private let plugin: String
    private let scriptPath: String
    private var focused: FocusedWindow?
    /// Whether the script has reported once.
    private var reported = false
    /// Whether the script's file was written, and KWin loaded it: what ``close()`` undoes.
    private var written = false
    private var loaded = false
    private var closed = false
    /// Where it connected, for messages.
    private let address: String

    /// How long a call to KWin, and the script's first report, may take: 5 s.
    static let timeout: Duration = .seconds(5)
    private static let timeoutMicroseconds: UInt64 = 5_000_000

    var fileDescriptor: Int32 { sd_bus_get_fd(bus) }

    /// Connects to the session bus at `address` (`unix:path=/run/user/1000/bus`),
    /// writes the script into `folder` and has KWin load and run it. The
    /// corresponding C functions are `sd_bus_new`, `sd_bus_set_address`,
    /// `sd_bus_start`, `sd_bus_add_object` and `sd_bus_call`.
    init(address: String, folder: String) throws(FocusError) {
        self.address = address
        var made: OpaquePointer?
        guard sd_bus_new(&made) >= 0, let made else { throw FocusError("cannot make a D-Bus connection") }
        bus = made
        plugin = "gestures-focus-\(getpid())"
        scriptPath = "\(folder)/gestures-kwin-focus-\(getpid()).js"
        var result = sd_bus_set_address(bus, address)
        if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
        if result >= 0 { result = sd_bus_start(bus) }
        guard result >= 0 else {
            throw FocusError("cannot connect to the session bus at \(address): \(String(cString: strerror(-result)))")
        }
        var unique: UnsafePointer<CChar>?
        guard sd_bus_get_unique_name(bus, &unique) >= 0, let unique else {
            throw FocusError("the session bus at \(address) gave no unique name")
        }
        let daemon = String(cString: unique)
        do {
            kwin = try callForString(
                "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner", ["org.kde.KWin"])
        } catch {
            throw FocusError("KWin (org.kde.KWin) is not on the session bus at \(address): \(error.description)")
        }
        guard sd_bus_add_object(bus, &slot, KWinScript.objectPath, kwinCalled, Unmanaged.passUnretained(self).toOpaque()) >= 0 else {
            throw FocusError("cannot serve \(KWinScript.objectPath) on the session bus")
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

    /// The window the script reports first (it reports the active window as it starts), waiting up to ``timeout``.
    /// The corresponding C functions are `sd_bus_process` and `sd_bus_wait`.
    func currentFocus() throws(FocusError) -> FocusedWindow? {
        let deadline = ContinuousClock.now + Self.timeout
        while !reported {
            let result = sd_bus_process(bus, nil)
            guard result >= 0 else { throw FocusError("the session bus at \(address) closed the connection") }
            if result > 0 { continue }
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                throw FocusError("KWin ran the focus script \(scriptPath) but it reported nothing within \(Self.timeout)")
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
        guard result >= 0 else { throw FocusError("the session bus at \(address) closed the connection") }
        _ = sd_bus_flush(bus)
        return focused == before ? nil : .some(focused)
    }

    /// What sd-bus already read: handled as ``readChange()`` handles it (sd-bus never blocks there).
    func readBuffered() throws(FocusError) -> FocusedWindow?? { try readChange() }

    /// Unloads the script, removes its file and closes the bus.
    func close() {
        guard !closed else { return }
        closed = true
        if loaded, let reply = try? call("org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", "unloadScript", [plugin]) {
            sd_bus_message_unref(reply)
        }
        if written { unlink(scriptPath) }
        if let slot { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(bus)
    }

    /// A call of the script: taken from KWin alone, answered with an empty reply.
    fileprivate func called(_ message: OpaquePointer) -> Int32 {
        guard sd_bus_message_is_method_call(message, KWinScript.interface, nil) > 0 else { return 0 }
        let sender = sd_bus_message_get_sender(message).map { String(cString: $0) }
        guard sender == kwin, let member = sd_bus_message_get_member(message).map({ String(cString: $0) }) else {
            _ = sd_bus_reply_method_errno(message, EACCES, nil)
            return 1
        }
        var arguments: [String] = []
        var text: UnsafePointer<CChar>?
        while arguments.count < 8, sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &text) > 0, let value = text {
            arguments.append(String(cString: value))
        }
        if let change = KWinScript.change(member: member, arguments: arguments, source: name) {
            focused = change
            reported = true
        }
        _ = csdbus_reply_empty(message)
        return 1
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

/// sd-bus's handler of the calls to ``KWinScript/objectPath``: hands each to its ``KWinFocusConnection`` (the user data).
private func kwinCalled(
    _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
    guard let message, let userdata else { return 0 }
    return Unmanaged<KWinFocusConnection>.fromOpaque(userdata).takeUnretainedValue().called(message)
}
