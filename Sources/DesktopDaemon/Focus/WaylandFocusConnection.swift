internal import CWaylandClient
import InputChecks
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Focus from a wlroots compositor (river, labwc, Wayfire, sway) through
/// wlr-foreign-toplevel-management and libwayland-client: the registry's
/// `zwlr_foreign_toplevel_manager_v1` is bound, each toplevel it announces
/// followed (``ForeignToplevelList``), and the one whose last `done` state
/// holds `activated` is the focus. Event-driven: the Wayland descriptor is
/// in ``LiveFocus``'s poll, and nothing is asked again.
final class WaylandFocusConnection: FocusConnection {
    let name = "wlroots"
    private let display: OpaquePointer
    private var registry: OpaquePointer?
    private var manager: OpaquePointer?
    /// The handle proxies, by id.
    private var handles: [UInt32: OpaquePointer] = [:]
    private var list = ForeignToplevelList()
    /// Why the manager stopped (its `finished` event), once it has.
    private var finished = false
    /// Where it connected, for messages.
    private let socket: String
    /// The callback of the `sync` a roundtrip waits for, and whether it came.
    private var syncCallback: OpaquePointer?
    private var synced = false

    var fileDescriptor: Int32 { wl_display_get_fd(display) }

    /// Connects to the compositor at `display` (a `WAYLAND_DISPLAY` name or
    /// path; nil for `$WAYLAND_DISPLAY`) and binds its foreign-toplevel
    /// manager; throws when there is none. The corresponding C functions are
    /// `wl_display_connect`, `wl_display_get_registry`, `wl_registry_bind`
    /// and `wl_display_roundtrip`.
    convenience init(display name: String?) throws(FocusError) {
        let socket = "WAYLAND_DISPLAY=\(Excerpt.printable(name ?? "$WAYLAND_DISPLAY"))"
        // libwayland finds a relative name in XDG_RUNTIME_DIR, and says so on stderr itself when it is not set.
        if name?.hasPrefix("/") != true, (getenv("XDG_RUNTIME_DIR").map { String(cString: $0) } ?? "").isEmpty {
            throw FocusError("cannot connect to the Wayland compositor at \(socket): XDG_RUNTIME_DIR is not set")
        }
        WaylandLog.install()
        guard let display = wl_display_connect(name) else {
            throw FocusError("cannot connect to the Wayland compositor at \(socket): \(String(cString: strerror(errno)))")
        }
        try self.init(display: display, socket: socket)
    }

    /// A connection over `descriptor` (a test's socket pair, the fuzz
    /// target's bytes), named `socket` in messages. The corresponding C
    /// function is `wl_display_connect_to_fd`.
    convenience init(descriptor: Int32, socket: String) throws(FocusError) {
        WaylandLog.install()
        guard let display = wl_display_connect_to_fd(descriptor) else {
            throw FocusError("cannot use the Wayland connection \(socket): \(String(cString: strerror(errno)))")
        }
        try self.init(display: display, socket: socket)
    }

    /// Binds the foreign-toplevel manager of the compositor at `display`.
    private init(display: OpaquePointer, socket: String) throws(FocusError) {
        self.socket = socket
        self.display = display
        registry = wl_display_get_registry(display)
        guard let registry else { throw FocusError("the Wayland compositor at \(socket) gave no registry") }
        wl_proxy_add_dispatcher(registry, waylandDispatch, nil, Unmanaged.passUnretained(self).toOpaque())
        // The globals, and with the manager bound, every toplevel's first state.
        for _ in 0..<2 { try roundtrip() }
        guard manager != nil else {
            throw FocusError(
                "the Wayland compositor at \(socket) does not offer \(ForeignToplevelProtocol.managerName) (wlr-foreign-toplevel-management), so its focused window cannot be read"
            )
        }
    }

    deinit {
        for handle in handles.values { wl_proxy_destroy(handle) }
        if let manager { wl_proxy_destroy(manager) }
        if let registry { wl_proxy_destroy(registry) }
        wl_display_disconnect(display)
    }

    func currentFocus() throws(FocusError) -> FocusedWindow? {
        list.focused(source: name)
    }

    /// Sends a `sync` and dispatches what comes until its callback's `done`,
    /// waiting on the compositor until a ``ServerDeadline`` (libwayland's own
    /// roundtrip waits for ever). The corresponding C functions are
    /// `wl_display_sync`, `wl_display_prepare_read`, `wl_display_flush`,
    /// `wl_display_read_events` and `wl_display_dispatch_pending`.
    private func roundtrip() throws(FocusError) {
        guard let callback = wl_display_sync(display) else { throw failure() }
        syncCallback = callback
        synced = false
        defer {
            wl_proxy_destroy(callback)
            syncCallback = nil
        }
        wl_proxy_add_dispatcher(callback, waylandDispatch, nil, Unmanaged.passUnretained(self).toOpaque())
        let deadline = ServerDeadline(server: "the Wayland compositor at \(socket)")
        while true {
            guard wl_display_dispatch_pending(display) >= 0 else { throw failure() }
            if synced { return }
            // Events already queued are dispatched first.
            guard wl_display_prepare_read(display) == 0 else { continue }
            _ = wl_display_flush(display)
            do { try deadline.waitReadable(wl_display_get_fd(display)) } catch {
                wl_display_cancel_read(display)
                throw error
            }
            guard wl_display_read_events(display) >= 0 else { throw failure() }
        }
    }

    /// Reads and dispatches what the compositor sent. The corresponding C function is `wl_display_dispatch`.
    func readChange() throws(FocusError) -> FocusedWindow?? {
        let before = list.focused(source: name)
        guard wl_display_dispatch(display) >= 0 else { throw failure() }
        return try change(from: before)
    }

    /// Dispatches what libwayland already queued. The corresponding C functions are
    /// `wl_display_dispatch_pending` and `wl_display_flush`.
    func readBuffered() throws(FocusError) -> FocusedWindow?? {
        let before = list.focused(source: name)
        guard wl_display_dispatch_pending(display) >= 0 else { throw failure() }
        _ = wl_display_flush(display)
        return try change(from: before)
    }

    func close() {}

    private func change(from before: FocusedWindow?) throws(FocusError) -> FocusedWindow?? {
        guard !finished else { throw FocusError("the Wayland compositor at \(socket) stopped reporting its windows") }
        let now = list.focused(source: name)
        return now == before ? nil : .some(now)
    }

    /// Why the connection failed: the compositor's protocol error or the system's.
    private func failure() -> FocusError {
        let code = wl_display_get_error(display)
        if code == EPROTO {
            let said = WaylandLog.take().map { " (\(Excerpt.quoted($0, limit: 120)))" } ?? ""
            return FocusError("the Wayland compositor at \(socket) reported a protocol error\(said)")
        }
        return FocusError("the Wayland compositor at \(socket) closed the connection")
    }

    /// One event of the registry, the manager or a handle, decoded by libwayland.
    fileprivate func dispatch(_ proxy: OpaquePointer, opcode: UInt32, _ arguments: UnsafeMutablePointer<wl_argument>) {
        if let syncCallback, proxy == syncCallback {
            // done(callback_data: uint)
            synced = true
        } else if let registry, proxy == registry {
            // global(name: uint, interface: string, version: uint)
            guard opcode == 0, manager == nil, let interface = arguments[1].s,
                String(cString: interface) == ForeignToplevelProtocol.managerName
            else { return }
            let version = min(arguments[2].u, ForeignToplevelProtocol.version)
            guard let bound = wl_registry_bind(registry, arguments[0].u, ForeignToplevelProtocol.interfaces.manager, version) else {
                return
            }
            let manager = OpaquePointer(bound)
            self.manager = manager
            wl_proxy_add_dispatcher(manager, waylandDispatch, nil, Unmanaged.passUnretained(self).toOpaque())
        } else if proxy == manager {
            switch ForeignToplevelProtocol.ManagerEvent(rawValue: opcode) {
            case .toplevel:
                guard let handle = arguments[0].o else { return }
                handles[wl_proxy_get_id(handle)] = handle
                wl_proxy_add_dispatcher(handle, waylandDispatch, nil, Unmanaged.passUnretained(self).toOpaque())
            case .finished: finished = true
            case nil: break
            }
        } else {
            let id = wl_proxy_get_id(proxy)
            switch ForeignToplevelProtocol.HandleEvent(rawValue: opcode) {
            case .title: list.receive(.title(arguments[0].s.map { String(cString: $0) } ?? ""), from: id)
            case .appID: list.receive(.appID(arguments[0].s.map { String(cString: $0) } ?? ""), from: id)
            case .state:
                var values: [UInt32] = []
                if let array = arguments[0].a, let data = array.pointee.data {
                    let count = array.pointee.size / MemoryLayout<UInt32>.size
                    values = Array(UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt32.self), count: count))
                }
                list.receive(.state(values), from: id)
            case .done: list.receive(.done, from: id)
            case .closed:
                list.receive(.closed, from: id)
                // The handle's destructor request; libwayland frees the proxy.
                handles[id] = nil
                wl_proxy_marshal_array_flags(
                    proxy, ForeignToplevelProtocol.HandleRequest.destroy.rawValue, nil, wl_proxy_get_version(proxy),
                    UInt32(WL_MARSHAL_FLAG_DESTROY), nil)
            case .outputEnter, .outputLeave, .parent, nil: break
            }
        }
    }
}

/// libwayland's dispatcher for every proxy of a ``WaylandFocusConnection``
/// (its user data): hands the decoded event to the connection.
private func waylandDispatch(
    _ implementation: UnsafeRawPointer?, _ target: UnsafeMutableRawPointer?, _ opcode: UInt32, _ message: UnsafePointer<wl_message>?,
    _ arguments: UnsafeMutablePointer<wl_argument>?
) -> Int32 {
    guard let target, let arguments, let data = wl_proxy_get_user_data(OpaquePointer(target)) else { return 0 }
    Unmanaged<WaylandFocusConnection>.fromOpaque(data).takeUnretainedValue().dispatch(OpaquePointer(target), opcode: opcode, arguments)
    return 0
}

/// libwayland's own messages (a compositor's protocol error, with the text
/// the compositor chose), kept instead of written raw to standard error:
/// the connection's sentence quotes the last one, escaped.
enum WaylandLog {
    private static let last = Mutex<String?>(nil)
    private static let installed = Mutex(false)

    /// Hands libwayland's messages to ``WaylandLog`` (once a process). The corresponding C function is `wl_log_set_handler_client`.
    static func install() {
        let first = installed.withLock { value -> Bool in
            defer { value = true }
            return !value
        }
        if first { wl_log_set_handler_client(waylandLogged) }
    }

    /// The last message, taken.
    static func take() -> String? {
        last.withLock { value in
            defer { value = nil }
            return value.map { $0.hasSuffix("\n") ? String($0.dropLast()) : $0 }
        }
    }

    fileprivate static func keep(_ message: String) { last.withLock { $0 = message } }
}

/// libwayland's log handler: the message formatted (`vsnprintf`), kept for ``WaylandLog/take()``.
private func waylandLogged(_ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) {
    guard let format, let arguments else { return }
    var text = [CChar](repeating: 0, count: 1024)
    _ = vsnprintf(&text, text.count, format, arguments)
    WaylandLog.keep(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
}
