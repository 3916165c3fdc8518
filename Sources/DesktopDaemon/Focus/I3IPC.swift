import Foundation
import InputChecks
import StructuredDocuments

/// The i3 IPC protocol that sway speaks too: each message is the magic
/// `i3-ipc`, a 32-bit payload length and a 32-bit type (both in the host's
/// byte order), then the JSON payload. Event messages have the type's high
/// bit set.
///
///     I3IPC.frame(.getTree)   // "i3-ipc" 00 00 00 00  04 00 00 00 (on little-endian)
enum I3IPC {
    /// The magic that starts every message.
    static let magic = Array("i3-ipc".utf8)
    /// The longest payload read: 64 MiB (a tree of thousands of windows is a few MiB).
    static let maximumPayloadBytes = 64 << 20

    /// The message types sent.
    enum Request: UInt32 {
        case runCommand = 0
        case subscribe = 2
        case getTree = 4
    }

    /// The event types received (without the high bit).
    enum Event: UInt32 {
        case workspace = 0
        case window = 3
    }

    /// One message: its type (the high bit set for events) and its payload.
    struct Message: Hashable {
        var type: UInt32
        var payload: [UInt8]
        /// The event type, for an event.
        var event: UInt32? { type & 0x8000_0000 != 0 ? type & 0x7fff_ffff : nil }
    }

    /// The bytes of a request of `type` with `payload`.
    static func frame(_ type: Request, payload: String = "") -> [UInt8] {
        let body = Array(payload.utf8)
        return magic + bytes(of: UInt32(body.count)) + bytes(of: type.rawValue) + body
    }

    /// The bytes of a message's header: the magic and two 32-bit numbers.
    static let headerBytes = magic.count + 8

    /// The payload length and type a header says (``headerBytes`` long),
    /// the length checked against ``maximumPayloadBytes``.
    static func header(_ header: [UInt8], server: String) throws(FocusError) -> (length: Int, type: UInt32) {
        guard header.count == headerBytes, Array(header.prefix(magic.count)) == magic else {
            throw FocusError("\(server) sent something that is not an i3-ipc message")
        }
        let length = Int(integer(header, at: magic.count))
        guard length <= maximumPayloadBytes else {
            throw FocusError("\(server) sent a message of \(length) bytes, over the limit of \(maximumPayloadBytes)")
        }
        return (length, integer(header, at: magic.count + 4))
    }

    /// Reads one message from `socket`, waiting for all of it until `deadline`.
    static func read(from socket: UnixSocket, by deadline: ServerDeadline) throws(FocusError) -> Message {
        let (length, type) = try header(try socket.read(exactly: headerBytes, by: deadline), server: deadline.server)
        return Message(type: type, payload: length == 0 ? [] : try socket.read(exactly: length, by: deadline))
    }

    private static func bytes(of value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value) { Array($0) }
    }

    private static func integer(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }

    /// The window a container node describes: sway's `app_id`, else the X11
    /// class of `window_properties` (i3, and Xwayland windows in sway).
    static func window(_ node: DocumentNode, source: String) -> FocusedWindow? {
        let properties = node["window_properties"]
        var appID: String?
        if case .string(let id)? = node["app_id"] { appID = id }
        if appID == nil, case .string(let windowClass)? = properties?["class"] { appID = windowClass }
        guard let appID else { return nil }
        var instance: String?
        if case .string(let name)? = properties?["instance"] { instance = name }
        var title = ""
        if case .string(let name)? = node["name"] { title = name }
        return FocusedWindow(appID: appID, instance: instance, title: title, source: source)
    }

    /// The focused window in a tree (`get_tree`, or a workspace event's
    /// `current`): the node marked `focused` when it is a window, else nil.
    static func focusedWindow(in tree: DocumentNode, source: String) -> FocusedWindow? {
        var stack = [tree]
        while let node = stack.popLast() {
            if case .bool(true)? = node["focused"] { return window(node, source: source) }
            for key in ["nodes", "floating_nodes"] {
                if case .array(let children)? = node[key] { stack += children }
            }
        }
        return nil
    }
}

/// Focus from sway or i3 through their IPC socket (`$SWAYSOCK`, `$I3SOCK`):
/// `get_tree` once for the window focused now, then `subscribe` to window
/// and workspace events (`focus`, `title`, `close`; a workspace with no
/// window focused is no focus).
struct I3FocusConnection: FocusConnection {
    let name: String
    private let socket: UnixSocket
    /// The server, as sentences name it: `sway at SWAYSOCK=/run/user/1000/sway-ipc.sock`.
    private let server: String
    /// The focused window as last reported.
    private var focused: FocusedWindow?

    var fileDescriptor: Int32 { socket.descriptor }

    /// A connection to the socket at `path`, named `name` (`sway` or `i3`).
    init(path: String, name: String) throws(FocusError) {
        let server = "\(name) at \(name == "sway" ? "SWAYSOCK" : "I3SOCK")=\(Excerpt.printable(path))"
        do { try self.init(socket: UnixSocket(connectingTo: path), name: name, server: server) } catch {
            throw FocusError("cannot connect to \(server): \(error.description)")
        }
    }

    /// A connection over `socket` (a test's socket pair), the server named `server` (`name` by default).
    init(socket: UnixSocket, name: String, server: String? = nil) {
        self.socket = socket
        self.name = name
        self.server = server ?? name
    }

    mutating func currentFocus() throws(FocusError) -> FocusedWindow? {
        try socket.write(I3IPC.frame(.getTree))
        let tree = try reply(to: .getTree)
        try socket.write(I3IPC.frame(.subscribe, payload: "[\"window\",\"workspace\"]"))
        guard case .bool(true)? = try reply(to: .subscribe)["success"] else {
            throw FocusError("\(server) refused to subscribe to window events")
        }
        focused = I3IPC.focusedWindow(in: tree, source: name)
        return focused
    }

    mutating func readChange() throws(FocusError) -> FocusedWindow?? {
        // The socket is readable: the whole message must follow within the deadline.
        let message = try I3IPC.read(from: socket, by: ServerDeadline(server: server))
        guard let event = message.event else { return nil }
        let node = try Self.parse(message.payload, what: "an event", server: server)
        let before = focused
        switch (I3IPC.Event(rawValue: event), node["change"]) {
        case (.window?, .string("focus")?):
            focused = node["container"].flatMap { I3IPC.window($0, source: name) }
        case (.window?, .string("title")?):
            guard let container = node["container"], case .bool(true)? = container["focused"] else { return nil }
            focused = I3IPC.window(container, source: name)
        case (.window?, .string("close")?):
            guard let container = node["container"], case .bool(true)? = container["focused"] else { return nil }
            focused = nil
        case (.workspace?, .string("focus")?):
            focused = node["current"].flatMap { I3IPC.focusedWindow(in: $0, source: name) }
        default:
            return nil
        }
        return focused == before ? nil : .some(focused)
    }

    mutating func close() { socket.close() }

    /// The reply to `request`, events before it skipped.
    private func reply(to request: I3IPC.Request) throws(FocusError) -> DocumentNode {
        let deadline = ServerDeadline(server: server)
        while true {
            let message = try I3IPC.read(from: socket, by: deadline)
            if message.event != nil { continue }
            guard message.type == request.rawValue else {
                throw FocusError("\(server) answered a request of type \(request.rawValue) with type \(message.type)")
            }
            return try Self.parse(message.payload, what: "its reply", server: server)
        }
    }

    private static func parse(_ payload: [UInt8], what: String, server: String) throws(FocusError) -> DocumentNode {
        do { return try DocumentNode.parse(json: Data(payload)) } catch {
            throw FocusError("\(server) sent \(what) that is not JSON: \(error.message)")
        }
    }
}
