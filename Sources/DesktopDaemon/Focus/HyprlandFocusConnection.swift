import Foundation
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

    var fileDescriptor: Int32 { events.descriptor }

    /// A connection to the instance whose sockets are in `folder`.
    init(folder: String) throws(FocusError) {
        self.folder = folder
        events = try UnixSocket(connectingTo: folder + "/.socket2.sock")
    }

    /// A connection reading events from `socket` (a test's socket pair), with no request socket.
    init(events socket: UnixSocket) {
        folder = ""
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
        let request = try UnixSocket(connectingTo: folder + "/.socket.sock")
        defer { request.close() }
        try request.write(Array("j/activewindow".utf8))
        var reply: [UInt8] = []
        while let chunk = try? request.readAvailable(), reply.count < 1 << 20 { reply += chunk }
        guard let node = try? DocumentNode.parse(json: Data(reply)), case .string(let windowClass)? = node["class"] else { return nil }
        var title = ""
        if case .string(let text)? = node["title"] { title = text }
        var instance: String?
        if case .string(let text)? = node["initialClass"], text != windowClass { instance = text }
        focused = FocusedWindow(appID: windowClass, instance: instance, title: title, source: name)
        return focused
    }

    mutating func readChange() throws(FocusError) -> FocusedWindow?? {
        pending += try events.readAvailable()
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
