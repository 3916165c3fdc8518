internal import CWaylandClient

#if canImport(Glibc)
    import Glibc
#endif

/// The wlr-foreign-toplevel-management protocol (`zwlr_foreign_toplevel_manager_v1`
/// and `zwlr_foreign_toplevel_handle_v1`, version 3), which wlroots
/// compositors (sway, river, labwc, Wayfire) offer to list their windows:
/// its interface tables, written from the protocol's description for
/// libwayland-client, which needs each request's and event's name and
/// argument signature (`s` string, `o` object, `?o` nullable, `n` new id,
/// `a` array, `i` int, a leading number the version that added it) and
/// the interface of each object argument.
enum ForeignToplevelProtocol {
    /// The global's interface name, as the registry announces it.
    static let managerName = "zwlr_foreign_toplevel_manager_v1"
    /// The highest version these tables describe (3 added `parent`).
    static let version: UInt32 = 3

    /// The manager's events.
    enum ManagerEvent: UInt32 {
        /// A new toplevel: a new id of the handle interface.
        case toplevel = 0
        /// The compositor will send no more events; the manager can be destroyed.
        case finished = 1
    }

    /// The manager's requests.
    enum ManagerRequest: UInt32 {
        /// Asks for no more events (then `finished` comes).
        case stop = 0
    }

    /// A handle's events: properties (`title`, `app_id`, `state`...) apply at `done`.
    enum HandleEvent: UInt32 {
        case title = 0
        case appID = 1
        case outputEnter = 2
        case outputLeave = 3
        /// An array of 32-bit ``State`` values.
        case state = 4
        case done = 5
        /// The toplevel is gone: the client should destroy its handle.
        case closed = 6
        case parent = 7
    }

    /// A handle's requests: only `destroy` is sent (the others are in ``interfaces``' table).
    enum HandleRequest: UInt32 {
        /// The destructor.
        case destroy = 7
    }

    /// The value of a handle's `state` array that marks the focused toplevel
    /// (the others: maximized 0, minimized 1, fullscreen 3).
    static let activated: UInt32 = 2

    /// The two interfaces, made once and kept for the process's life
    /// (libwayland keeps pointers to them in every proxy).
    struct Interfaces: @unchecked Sendable {
        let manager: UnsafePointer<wl_interface>
        let handle: UnsafePointer<wl_interface>
    }

    static let interfaces: Interfaces = {
        let manager = UnsafeMutablePointer<wl_interface>.allocate(capacity: 1)
        let handle = UnsafeMutablePointer<wl_interface>.allocate(capacity: 1)
        let none: UnsafePointer<wl_interface>? = nil
        let seat = cwayland_seat_interface()
        let surface = cwayland_surface_interface()
        let output = cwayland_output_interface()
        let managerRequests = messages([("stop", "", [])])
        let managerEvents = messages([("toplevel", "n", [UnsafePointer(handle)]), ("finished", "", [])])
        let handleRequests = messages([
            ("set_maximized", "", []), ("unset_maximized", "", []), ("set_minimized", "", []), ("unset_minimized", "", []),
            ("activate", "o", [seat]), ("close", "", []), ("set_rectangle", "oiiii", [surface, none, none, none, none]),
            ("destroy", "", []), ("set_fullscreen", "2?o", [output]), ("unset_fullscreen", "2", []),
        ])
        let handleEvents = messages([
            ("title", "s", [none]), ("app_id", "s", [none]), ("output_enter", "o", [output]), ("output_leave", "o", [output]),
            ("state", "a", [none]), ("done", "", []), ("closed", "", []), ("parent", "3?o", [UnsafePointer(handle)]),
        ])
        manager.initialize(
            to: wl_interface(
                name: strdup(managerName), version: Int32(version), method_count: Int32(managerRequests.count),
                methods: managerRequests.messages, event_count: Int32(managerEvents.count), events: managerEvents.messages))
        handle.initialize(
            to: wl_interface(
                name: strdup("zwlr_foreign_toplevel_handle_v1"), version: Int32(version), method_count: Int32(handleRequests.count),
                methods: handleRequests.messages, event_count: Int32(handleEvents.count), events: handleEvents.messages))
        return Interfaces(manager: UnsafePointer(manager), handle: UnsafePointer(handle))
    }()

    /// A table of messages, each with its name, signature and the interface of each argument (nil for a non-object).
    private static func messages(_ list: [(String, String, [UnsafePointer<wl_interface>?])]) -> (
        messages: UnsafePointer<wl_message>, count: Int
    ) {
        let table = UnsafeMutablePointer<wl_message>.allocate(capacity: list.count)
        for (index, (name, signature, types)) in list.enumerated() {
            let typeTable = UnsafeMutablePointer<UnsafePointer<wl_interface>?>.allocate(capacity: max(1, types.count))
            typeTable.initialize(repeating: nil, count: max(1, types.count))
            for (slot, type) in types.enumerated() { typeTable[slot] = type }
            (table + index).initialize(to: wl_message(name: strdup(name), signature: strdup(signature), types: typeTable))
        }
        return (UnsafePointer(table), list.count)
    }
}

/// The toplevels a wlr-foreign-toplevel manager has announced, and which
/// of them has the focus: the one whose last `done` state holds
/// `activated` (of several, as with two seats, the latest so). Each
/// handle's `title`, `app_id` and `state` are pending until its `done`, as
/// the protocol says. Pure: ``WaylandFocusConnection`` feeds it the events
/// libwayland decodes, and tests feed it their own.
///
///     var list = ForeignToplevelList()
///     list.receive(.appID("foot"), from: 7); list.receive(.state([2]), from: 7); list.receive(.done, from: 7)
///     list.focused(source: "wlroots")   // foot
struct ForeignToplevelList: Hashable {
    /// One event of a handle, as the list takes it.
    enum Event: Hashable {
        case title(String)
        case appID(String)
        /// The `state` array's values.
        case state([UInt32])
        case done
        case closed
    }

    /// A toplevel's properties.
    struct Properties: Hashable {
        var appID = ""
        var title = ""
        var activated = false
    }

    /// What each handle's last `done` applied, by handle id.
    private(set) var toplevels: [UInt32: Properties] = [:]
    /// What each handle has sent since its last `done`.
    private var pending: [UInt32: Properties] = [:]
    /// The activated handles, the latest activated last.
    private var activations: [UInt32] = []

    /// The most toplevels followed: 10,000 (a handle past them is ignored).
    static let maximumToplevels = 10_000

    /// An empty list.
    init() {}

    /// Takes `event` of the handle `id`.
    mutating func receive(_ event: Event, from id: UInt32) {
        if toplevels[id] == nil, pending[id] == nil {
            guard toplevels.count + pending.count < Self.maximumToplevels, event != .closed else { return }
        }
        var next = pending[id] ?? toplevels[id] ?? Properties()
        switch event {
        case .title(let title): next.title = title
        case .appID(let appID): next.appID = appID
        case .state(let values): next.activated = values.contains(ForeignToplevelProtocol.activated)
        case .done:
            let was = toplevels[id]?.activated ?? false
            toplevels[id] = next
            pending[id] = nil
            if next.activated, !was { activations.append(id) }
            if !next.activated { activations.removeAll { $0 == id } }
            return
        case .closed:
            toplevels[id] = nil
            pending[id] = nil
            activations.removeAll { $0 == id }
            return
        }
        pending[id] = next
    }

    /// The focused window, named `source`: the latest activated toplevel, or nil.
    func focused(source: String) -> FocusedWindow? {
        guard let id = activations.last, let toplevel = toplevels[id] else { return nil }
        return FocusedWindow(appID: toplevel.appID, title: toplevel.title, source: source)
    }
}
