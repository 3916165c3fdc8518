internal import CXCB
import Glibc

/// Focus from an X server through EWMH: the root window's
/// `_NET_ACTIVE_WINDOW`, that window's `WM_CLASS` (instance and class) and
/// `_NET_WM_NAME` (else `WM_NAME`), followed by `PropertyNotify` events on
/// the root and on the active window, never by polling. Needs a window
/// manager that sets `_NET_ACTIVE_WINDOW` (openbox, xfwm4, KWin, Mutter, i3...).
final class X11FocusConnection: FocusConnection {
    let name = "x11"
    private let connection: OpaquePointer
    private let root: xcb_window_t
    private let atoms: Atoms
    /// The active window, whose properties are followed.
    private var active: xcb_window_t = 0
    private var focused: FocusedWindow?

    /// The atoms read.
    private struct Atoms {
        var activeWindow: xcb_atom_t
        var netName: xcb_atom_t
        var utf8: xcb_atom_t
    }

    var fileDescriptor: Int32 { xcb_get_file_descriptor(connection) }

    /// Connects to `display` (`:0`; nil for `$DISPLAY`) and asks for the
    /// root window's property changes. The corresponding C functions are
    /// `xcb_connect`, `xcb_intern_atom` and `xcb_change_window_attributes`.
    init(display: String?) throws(FocusError) {
        var screenNumber: Int32 = 0
        guard let connection = xcb_connect(display, &screenNumber), xcb_connection_has_error(connection) == 0 else {
            throw FocusError("cannot connect to the X display \(display ?? "$DISPLAY")")
        }
        var iterator = xcb_setup_roots_iterator(xcb_get_setup(connection))
        for _ in 0..<max(0, Int(screenNumber)) where iterator.rem > 0 { xcb_screen_next(&iterator) }
        guard let screen = iterator.data else {
            xcb_disconnect(connection)
            throw FocusError("the X display \(display ?? "$DISPLAY") has no screen \(screenNumber)")
        }
        self.connection = connection
        root = screen.pointee.root
        atoms = Atoms(
            activeWindow: Self.atom("_NET_ACTIVE_WINDOW", connection), netName: Self.atom("_NET_WM_NAME", connection),
            utf8: Self.atom("UTF8_STRING", connection))
        Self.follow(root, connection)
    }

    deinit { xcb_disconnect(connection) }

    func currentFocus() throws(FocusError) -> FocusedWindow? {
        readActiveWindow()
        return focused
    }

    func readChange() throws(FocusError) -> FocusedWindow?? {
        let before = focused
        while let event = xcb_poll_for_event(connection) {
            defer { free(event) }
            let code = cxcb_event_code(event)
            if code == UInt8(XCB_DESTROY_NOTIFY) || code == UInt8(XCB_UNMAP_NOTIFY) {
                // The same layout up to `window` in both events.
                let gone = UnsafeRawPointer(event).assumingMemoryBound(to: xcb_destroy_notify_event_t.self).pointee.window
                if gone == active, active != 0 {
                    // Some window managers (openbox) leave _NET_ACTIVE_WINDOW naming a window that went away.
                    readActiveWindow()
                    if active == gone {
                        active = 0
                        focused = nil
                    }
                }
                continue
            }
            guard code == UInt8(XCB_PROPERTY_NOTIFY) else { continue }
            let notify = UnsafeRawPointer(event).assumingMemoryBound(to: xcb_property_notify_event_t.self).pointee
            if notify.window == root, notify.atom == atoms.activeWindow {
                readActiveWindow()
            } else if notify.window == active, active != 0,
                notify.atom == atoms.netName || notify.atom == xcb_atom_t(XCB_ATOM_WM_NAME.rawValue)
                    || notify.atom == xcb_atom_t(XCB_ATOM_WM_CLASS.rawValue)
            {
                focused = window(active)
            }
        }
        guard xcb_connection_has_error(connection) == 0 else { throw FocusError("the X server closed the connection") }
        return focused == before ? nil : .some(focused)
    }

    /// Events xcb queued while waiting for a reply: read as ``readChange()`` reads (xcb never blocks there).
    func readBuffered() throws(FocusError) -> FocusedWindow?? { try readChange() }

    func close() {}

    /// Reads `_NET_ACTIVE_WINDOW`, follows the new window's properties and reads them.
    private func readActiveWindow() {
        let value = property(root, atoms.activeWindow, type: xcb_atom_t(XCB_ATOM_WINDOW.rawValue))
        let window = value.count >= 4 ? value.withUnsafeBytes { $0.loadUnaligned(as: xcb_window_t.self) } : 0
        if window != active {
            active = window
            if window != 0 { Self.follow(window, connection, structure: true) }
        }
        focused = window == 0 ? nil : self.window(window)
    }

    /// The focused window `window` describes: its class and instance, its title.
    private func window(_ window: xcb_window_t) -> FocusedWindow? {
        let classes = property(window, xcb_atom_t(XCB_ATOM_WM_CLASS.rawValue), type: xcb_atom_t(XCB_ATOM_STRING.rawValue))
            .split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var title = String(decoding: property(window, atoms.netName, type: atoms.utf8), as: UTF8.self)
        if title.isEmpty {
            title = String(
                decoding: property(window, xcb_atom_t(XCB_ATOM_WM_NAME.rawValue), type: xcb_atom_t(XCB_ATOM_ANY.rawValue)), as: UTF8.self)
        }
        guard classes.count >= 2 else { return FocusedWindow(appID: "", title: title, source: name) }
        return FocusedWindow(appID: classes[1], instance: classes[0], title: title, source: name)
    }

    /// The bytes of `window`'s property `atom` of `type` (at most 64 KiB), empty when it has none.
    /// The corresponding C functions are `xcb_get_property` and `xcb_get_property_reply`.
    private func property(_ window: xcb_window_t, _ atom: xcb_atom_t, type: xcb_atom_t) -> [UInt8] {
        let cookie = xcb_get_property(connection, 0, window, atom, type, 0, 16_384)
        guard let reply = xcb_get_property_reply(connection, cookie, nil) else { return [] }
        defer { free(reply) }
        let length = Int(xcb_get_property_value_length(reply))
        guard length > 0, let value = xcb_get_property_value(reply) else { return [] }
        return Array(UnsafeRawBufferPointer(start: value, count: length))
    }

    /// Asks for `window`'s property changes (and, with `structure`, its
    /// unmapping and destruction). The corresponding C function is `xcb_change_window_attributes`.
    private static func follow(_ window: xcb_window_t, _ connection: OpaquePointer, structure: Bool = false) {
        var mask = UInt32(XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue)
        if structure { mask |= UInt32(XCB_EVENT_MASK_STRUCTURE_NOTIFY.rawValue) }
        xcb_change_window_attributes(connection, window, UInt32(XCB_CW_EVENT_MASK.rawValue), &mask)
        xcb_flush(connection)
    }

    /// The atom named `name`. The corresponding C functions are `xcb_intern_atom` and its reply.
    private static func atom(_ name: String, _ connection: OpaquePointer) -> xcb_atom_t {
        let bytes = Array(name.utf8)
        let cookie = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { xcb_intern_atom(connection, 0, UInt16(buffer.count), $0.baseAddress) }
        }
        guard let reply = xcb_intern_atom_reply(connection, cookie, nil) else { return 0 }
        defer { free(reply) }
        return reply.pointee.atom
    }
}
