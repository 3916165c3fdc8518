import Foundation
import InputChecks
import StructuredDocuments

/// Focus from Hyprland: `j/activewindow` on its request socket
/// (`.socket.sock`) once, then the `activewindow>>CLASS,TITLE` lines of its
/// event socket (`.socket2.sock`), both in
/// `$XDG_RUNTIME_DIR/hypr/$HYPRLAND_INSTANCE_SIGNATURE` (or `/tmp/hypr/...`
/// before Hyprland 0.40).
struct HyprlandFocusConnection: FocusConnection {
    let name = "hyprland"
    /// The folder of the two sockets.
    private let folder: String
    private let events: UnixSocket
    /// What was read of an event line not yet ended.
    private var pending: [UInt8] = []
    private var focused: FocusedWindow?

    /// The longest event line kept: 64 KiB (a longer one is dropped).
    static let maximumLineBytes = 65_536
    /// The longest reply to `j/activewindow` read: 1 MiB.
    static let maximumReplyBytes = 1 << 20
    /// The server, as sentences name it: `Hyprland at /run/user/1000/hypr/SIGNATURE`.
    private let server: String

    var fileDescriptor: Int32 { events.descriptor }

    /// A connection to the instance whose sockets are in `folder`.
    init(folder: String) throws(FocusError) {
        self.folder = folder
        server = "Hyprland at \(Excerpt.printable(folder))"
        do { events = try UnixSocket(connectingTo: folder + "/.socket2.sock") } catch {
            throw FocusError("cannot connect to \(server): \(error.description)")
        }
    }

    /// A connection reading events from `socket` (a test's socket pair), with no request socket.
    init(events socket: UnixSocket) {
        folder = ""
        server = "Hyprland"
        events = socket
    }

    /// The folder of the instance `signature`: under `runtimeDirectory` when its sockets are there, else under `/tmp`.
    static func folder(signature: String, runtimeDirectory: String?) -> String {
        let modern = runtimeDirectory.map { "\($0)/hypr/\(signature)" }
        if let modern, FileManager.default.fileExists(atPath: modern + "/.socket2.sock") { return modern }
        let legacy = "/tmp/hypr/\(signature)"
        return FileManager.default.fileExists(atPath: legacy + "/.socket2.sock") ? legacy : (modern ?? legacy)
    }

    mutating func currentFocus() throws(FocusError) -> FocusedWindow? {
        guard !folder.isEmpty else { return nil }
        let request: UnixSocket
        do { request = try UnixSocket(connectingTo: folder + "/.socket.sock") } catch {
            throw FocusError("cannot connect to \(server): \(error.description)")
        }
        defer { request.close() }
        try request.write(Array("j/activewindow".utf8))
        // Hyprland answers and closes: the reply is everything until the end, within the deadline and the limit.
        let deadline = ServerDeadline(server: server)
        var reply: [UInt8] = []
        while reply.count <= Self.maximumReplyBytes {
            do { reply += try request.readAvailable(by: deadline) } catch {
                if deadline.hasPassed { throw error }
                break
            }
            // A whole object is the whole reply, whether Hyprland closes the socket or not.
            if reply.last == UInt8(ascii: "}"), (try? DocumentNode.parse(json: Data(reply))) != nil { break }
        }
        guard reply.count <= Self.maximumReplyBytes else {
            throw FocusError("\(server) sent a reply of over \(Self.maximumReplyBytes) bytes to j/activewindow")
        }
        focused = Self.activeWindow(reply: reply, source: name)
        return focused
    }

    /// The window a reply to `j/activewindow` describes (`{"class": ..., "title": ..., "initialClass": ...}`),
    /// or nil for `{}`, for anything that is not such an object, and for no class.
    static func activeWindow(reply: [UInt8], source: String) -> FocusedWindow? {
        guard let node = try? DocumentNode.parse(json: Data(reply)), case .string(let windowClass)? = node["class"] else { return nil }
        var title = ""
        if case .string(let text)? = node["title"] { title = text }
        var instance: String?
        if case .string(let text)? = node["initialClass"], text != windowClass { instance = text }
        return FocusedWindow(appID: windowClass, instance: instance, title: title, source: source)
    }

    mutating func readChange() throws(FocusError) -> FocusedWindow?? {
        pending += try events.readAvailable(by: ServerDeadline(server: server))
        let before = focused
        while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[..<end], as: UTF8.self)
            pending.removeSubrange(...end)
            if let change = Self.change(line, source: name) { focused = change }
        }
        if pending.count > Self.maximumLineBytes { pending = [] }
        return focused == before ? nil : .some(focused)
    }

    /// The focus an event line sets: `activewindow>>firefox,Mozilla Firefox`
    /// gives firefox, `activewindow>>,` no window; nil for other lines.
    static func change(_ line: String, source: String) -> FocusedWindow?? {
        let prefix = "activewindow>>"
        guard line.hasPrefix(prefix) else { return nil }
        let data = line.dropFirst(prefix.count)
        let comma = data.firstIndex(of: ",") ?? data.endIndex
        let windowClass = String(data[..<comma])
        let title = comma < data.endIndex ? String(data[data.index(after: comma)...]) : ""
        if windowClass.isEmpty && title.isEmpty { return .some(nil) }
        return .some(FocusedWindow(appID: windowClass, title: title, source: source))
    }

    mutating func close() { events.close() }
}
