import Foundation
import Synchronization
import Testing

@testable import DesktopDaemon

#if canImport(Glibc)
    import Glibc
#endif

@Suite(
    "Focus sources: the session's choice, recorded focus, the sway/i3 and Hyprland protocols, wlr-foreign-toplevel, the KWin script and GNOME extension"
)
struct FocusSourceTests {
    @Test(
        "the source is chosen from the session's environment",
        arguments: [
            (["SWAYSOCK": "/run/user/1000/sway-ipc.1000.1.sock", "DISPLAY": ":0"], FocusSession.Kind.sway),
            (["I3SOCK": "/run/user/1000/i3/ipc-socket.1", "DISPLAY": ":0"], .i3),
            (["HYPRLAND_INSTANCE_SIGNATURE": "abc", "XDG_RUNTIME_DIR": "/run/user/1000", "WAYLAND_DISPLAY": "wayland-1"], .hyprland),
            (["DISPLAY": ":0", "XDG_SESSION_TYPE": "x11"], .x11),
            (["DISPLAY": ":1"], .x11),
            (["WAYLAND_DISPLAY": "wayland-1", "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "river"], .wlroots),
            (["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "XDG_CURRENT_DESKTOP": "labwc:wlroots"], .wlroots),
            (["WAYLAND_DISPLAY": "wayland-1"], .wlroots),
            (["WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": "/run/user/1000/sway-ipc.1000.1.sock"], .sway),
            (["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE", "XDG_RUNTIME_DIR": "/run/user/1000"], .kwin),
            (
                ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "KDE", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"],
                .kwin
            ),
            (["DISPLAY": ":0", "XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "KDE"], .x11),
            (["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "XDG_RUNTIME_DIR": "/run/user/1000"], .gnome),
            (["DISPLAY": ":0", "XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "GNOME"], .x11),
        ] as [([String: String], FocusSession.Kind)])
    func choice(environment: [String: String], expected: FocusSession.Kind) {
        #expect(FocusSession.choose(environment).kind == expected)
    }

    @Test("GNOME or KDE on Wayland without a session bus, or no session at all: no source, and one sentence saying why")
    func noSource() throws {
        let gnome = FocusSession.choose([
            "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0",
        ])
        #expect(gnome.kind == nil)
        #expect(gnome.reason.hasPrefix("this is GNOME on Wayland, but neither DBUS_SESSION_BUS_ADDRESS"))
        // KDE Plasma without a session bus to find KWin on.
        let plasma = FocusSession.choose(["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE", "XDG_SESSION_TYPE": "wayland"])
        #expect(plasma.kind == nil)
        #expect(plasma.reason.hasPrefix("this is KDE Plasma on Wayland, but neither DBUS_SESSION_BUS_ADDRESS"))
        #expect(
            FocusSession.choose(["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "KDE", "XDG_RUNTIME_DIR": "/run/user/7"]).address
                == "unix:path=/run/user/7/bus")
        let lost = FocusSession.choose(["XDG_SESSION_TYPE": "wayland"])
        #expect(lost.kind == nil)
        #expect(lost.reason.contains("WAYLAND_DISPLAY is not set"))
        let none = FocusSession.choose([:])
        #expect(none.kind == nil)
        #expect(none.reason.contains("SWAYSOCK"))
        #expect(throws: FocusError.self) { try none.connect() }
        for reason in [gnome.reason, none.reason, plasma.reason, lost.reason] { #expect(!reason.contains("\n")) }
    }

    @Test("a recorded focus gives the window of the latest change at or before a time")
    func recorded() throws {
        let focus = try RecordedFocus.parse(
            Data(
                """
                {"time_ms":100,"app":"firefox","instance":"Navigator","title":"Mozilla Firefox","source":"x11"}
                {"time_ms":1500.5,"app":"foot"}

                {"time_ms":3000,"app":null}
                """.utf8), file: "f.jsonl")
        #expect(focus.focusedWindow(at: .milliseconds(50)) == nil)
        #expect(focus.focusedWindow(at: .milliseconds(100))?.instance == "Navigator")
        #expect(focus.focusedWindow(at: .milliseconds(1500))?.appID == "firefox")
        #expect(focus.focusedWindow(at: .milliseconds(1501))?.appID == "foot")
        #expect(focus.focusedWindow(at: .seconds(10)) == nil)
    }

    @Test(
        "a bad recorded focus line is one sentence with the file and line",
        arguments: [
            (#"{"time_ms":0}"#, "f.jsonl: line 1: app is required"),
            (#"{"time_ms":-1,"app":"x"}"#, "f.jsonl: line 1: time_ms must be"),
            (#"{"time_ms":0,"ap":"x"}"#, "f.jsonl: line 1: unknown key 'ap'; did you mean 'app'?"),
            ("{\"time_ms\":5,\"app\":\"x\"}\n{\"time_ms\":1,\"app\":\"y\"}", "f.jsonl: line 2: time_ms 1.0 is before"),
            ("[1]", "f.jsonl: line 1: not a JSON object"),
            (#"{"time_ms":0,"app":3}"#, "f.jsonl: line 1: app must be a string or null"),
        ])
    func recordedErrors(text: String, expected: String) {
        #expect {
            _ = try RecordedFocus.parse(Data(text.utf8), file: "f.jsonl")
        } throws: { error in
            let description = String(describing: error)
            return description.hasPrefix(expected) && description.hasSuffix(".") && !description.contains("\n")
        }
    }

    /// A connected pair of sockets: the test writes as the server on `server`.
    private func socketPair() -> (client: Int32, server: Int32) {
        var ends: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        return (ends[0], ends[1])
    }

    /// An i3-ipc message of `type` with `payload`, framed as sway frames it.
    private func frame(_ type: UInt32, _ payload: String) -> [UInt8] {
        let body = Array(payload.utf8)
        return Array("i3-ipc".utf8) + withUnsafeBytes(of: UInt32(body.count)) { Array($0) } + withUnsafeBytes(of: type) { Array($0) } + body
    }

    private func send(_ bytes: [UInt8], to descriptor: Int32) {
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Reads one request from the client: its type and payload.
    private func request(from descriptor: Int32) -> (type: UInt32, payload: String) {
        var header = [UInt8](repeating: 0, count: 14)
        _ = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 14) }
        let length = header[6..<10].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        let type = header[10..<14].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        var payload = [UInt8](repeating: 0, count: Int(length))
        if length > 0 { _ = payload.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, Int(length)) } }
        return (type, String(decoding: payload, as: UTF8.self))
    }

    @Test("a window manager clearing the active window between two is no change; settling on none is one")
    func noneSettles() throws {
        let (client, server) = socketPair()
        defer { close(server) }
        let focus = try LiveFocus(connection: HyprlandFocusConnection(events: UnixSocket(descriptor: client)))
        let changes = Mutex<[FocusedWindow?]>([])
        let seen = DispatchSemaphore(value: 0)
        focus.start { window in
            changes.withLock { $0.append(window) }
            seen.signal()
        }
        send(Array("activewindow>>a,1\n".utf8), to: server)
        #expect(seen.wait(timeout: .now() + 5) == .success)
        send(Array("activewindow>>,\nactivewindow>>b,2\n".utf8), to: server)
        #expect(seen.wait(timeout: .now() + 5) == .success)
        send(Array("activewindow>>,\n".utf8), to: server)
        #expect(seen.wait(timeout: .now() + 5) == .success)
        focus.stop()
        #expect(changes.withLock { $0.map { $0?.appID ?? "none" } } == ["a", "b", "none"])
    }

    @Test("sway/i3 IPC: get_tree, then subscribe to window and workspace events; focus, title and close follow")
    func i3Protocol() throws {
        let (client, server) = socketPair()
        defer { close(server) }
        let tree = #"""
            {"type":"root","focused":false,"nodes":[{"type":"output","nodes":[{"type":"workspace","nodes":[
              {"type":"con","app_id":"foot","name":"~","focused":false},
              {"type":"con","app_id":null,"name":"Mozilla Firefox","focused":true,
               "window_properties":{"class":"firefox","instance":"Navigator"}}]}]}]}
            """#
        // The server's side, written before the client reads (the socket buffers it).
        let connection = DispatchQueue(label: "server")
        let requests = Mutex<[(UInt32, String)]>([])
        connection.async { [self] in
            let first = request(from: server)
            send(frame(4, tree), to: server)
            let second = request(from: server)
            // An event before the subscribe reply is skipped by the client.
            send(frame(0x8000_0003, #"{"change":"new","container":{"app_id":"x"}}"#), to: server)
            send(frame(2, #"{"success":true}"#), to: server)
            requests.withLock { $0 = [first, second] }
        }
        let focus = try LiveFocus(connection: I3FocusConnection(socket: UnixSocket(descriptor: client), name: "sway"))
        #expect(focus.focused == FocusedWindow(appID: "firefox", instance: "Navigator", title: "Mozilla Firefox", source: "sway"))
        #expect(requests.withLock { $0.map(\.0) } == [4, 2])
        #expect(requests.withLock { $0.last?.1 } == #"["window","workspace"]"#)

        let changes = Mutex<[FocusedWindow?]>([])
        let seen = DispatchSemaphore(value: 0)
        focus.start { window in
            changes.withLock { $0.append(window) }
            seen.signal()
        }
        send(frame(0x8000_0003, #"{"change":"focus","container":{"app_id":"foot","name":"~","focused":true}}"#), to: server)
        send(frame(0x8000_0003, #"{"change":"title","container":{"app_id":"firefox","name":"other","focused":false}}"#), to: server)
        send(frame(0x8000_0003, #"{"change":"title","container":{"app_id":"foot","name":"vim","focused":true}}"#), to: server)
        send(frame(0x8000_0003, #"{"change":"close","container":{"app_id":"foot","name":"vim","focused":true}}"#), to: server)
        // No window is reported once nothing else came for LiveFocus.noneSettling.
        for _ in 0..<3 { #expect(seen.wait(timeout: .now() + 5) == .success) }
        send(
            frame(
                0x8000_0000,
                #"{"change":"focus","current":{"type":"workspace","nodes":[{"type":"con","app_id":"eog","name":"cat.png","focused":true}]}}"#
            ),
            to: server)
        #expect(seen.wait(timeout: .now() + 5) == .success)
        focus.stop()
        #expect(
            changes.withLock { $0 } == [
                FocusedWindow(appID: "foot", title: "~", source: "sway"), FocusedWindow(appID: "foot", title: "vim", source: "sway"), nil,
                FocusedWindow(appID: "eog", title: "cat.png", source: "sway"),
            ])
    }

    @Test("the server going away stops the source, says why, and leaves no focus")
    func serverGone() throws {
        let (client, server) = socketPair()
        send(frame(4, #"{"focused":true,"type":"workspace"}"#), to: server)
        send(frame(2, #"{"success":true}"#), to: server)
        let focus = try LiveFocus(connection: I3FocusConnection(socket: UnixSocket(descriptor: client), name: "i3"))
        #expect(focus.focused == nil)
        let ended = DispatchSemaphore(value: 0)
        focus.start { _ in ended.signal() }
        close(server)
        #expect(ended.wait(timeout: .now() + 5) == .success)
        focus.stop()
        #expect(focus.failure?.description == "i3 closed the connection")
    }

    @Test(
        "Hyprland's activewindow>> lines give the class and the title (which may hold commas)",
        arguments: [
            ("activewindow>>firefox,Mozilla Firefox", FocusedWindow(appID: "firefox", title: "Mozilla Firefox", source: "hyprland")),
            ("activewindow>>foot,a, b, c", FocusedWindow(appID: "foot", title: "a, b, c", source: "hyprland")),
            ("activewindow>>,", nil),
        ] as [(String, FocusedWindow?)])
    func hyprlandLines(line: String, expected: FocusedWindow?) throws {
        let (client, server) = socketPair()
        defer { close(server) }
        let focus = try LiveFocus(connection: HyprlandFocusConnection(events: UnixSocket(descriptor: client)))
        let seen = DispatchSemaphore(value: 0)
        let last = Mutex<FocusedWindow??>(nil)
        if expected == nil {
            // Nothing to change from: first focus a window, then none.
            send(Array("activewindow>>x,y\n".utf8), to: server)
        }
        focus.start { window in
            last.withLock { $0 = .some(window) }
            seen.signal()
        }
        if expected == nil { #expect(seen.wait(timeout: .now() + 5) == .success) }
        send(Array("workspace>>2\nactivewindowv2>>5f3a\n\(line)\n".utf8), to: server)
        #expect(seen.wait(timeout: .now() + 5) == .success)
        focus.stop()
        #expect(last.withLock { $0 } == .some(expected))
    }

    /// The window of a list that has taken `events`, each from its handle.
    private func focused(after events: [(UInt32, ForeignToplevelList.Event)]) -> String? {
        var list = ForeignToplevelList()
        for (handle, event) in events { list.receive(event, from: handle) }
        return list.focused(source: "wlroots").map { "\($0.appID) \($0.title)" }
    }

    @Test("wlr-foreign-toplevel: the focus is the toplevel whose last done state holds activated")
    func foreignToplevelActivated() {
        let announce: [(UInt32, ForeignToplevelList.Event)] = [
            (3, .appID("firefox")), (3, .title("Mozilla Firefox")), (3, .state([])), (3, .done),
            (4, .appID("foot")), (4, .title("~")), (4, .state([0, 2])), (4, .done),
        ]
        #expect(focused(after: announce) == "foot ~")
        // Pending until done: a state without its done changes nothing.
        #expect(focused(after: announce + [(3, .state([2])), (4, .state([]))]) == "foot ~")
        // Either order of the two dones in a switch gives the new window.
        #expect(focused(after: announce + [(3, .state([2])), (3, .done), (4, .state([])), (4, .done)]) == "firefox Mozilla Firefox")
        #expect(focused(after: announce + [(4, .state([])), (4, .done), (3, .state([2])), (3, .done)]) == "firefox Mozilla Firefox")
        // Only deactivated: nothing has the focus.
        #expect(focused(after: announce + [(4, .state([1])), (4, .done)]) == nil)
        // A title applies at done; the focus keeps its window.
        #expect(focused(after: announce + [(4, .title("vim")), (4, .done)]) == "foot vim")
        #expect(focused(after: announce + [(4, .title("vim"))]) == "foot ~")
    }

    @Test("wlr-foreign-toplevel: of two activated toplevels (two seats) the latest wins, and a closed one is gone")
    func foreignToplevelLatestAndClosed() {
        let both: [(UInt32, ForeignToplevelList.Event)] = [
            (3, .appID("firefox")), (3, .state([2])), (3, .done), (4, .appID("foot")), (4, .state([2])), (4, .done),
        ]
        #expect(focused(after: both) == "foot ")
        #expect(focused(after: both + [(4, .closed)]) == "firefox ")
        #expect(focused(after: both + [(4, .closed), (3, .closed)]) == nil)
        // Still activated, a second done is no new activation.
        #expect(focused(after: both + [(3, .title("x")), (3, .done)]) == "foot ")
        // Events of a closed handle's id before it is announced again start afresh.
        #expect(focused(after: both + [(4, .closed), (4, .state([2])), (4, .done)]) == " ")
    }

    @Test("the KWin script calls the daemon's bus name back on the object, interface and methods the connection serves")
    func kwinScriptCalls() {
        let script = KWinScript.source(daemon: ":1.42")
        #expect(script.contains(#"const daemon = ":1.42";"#))
        let call = #"callDBus(daemon, "\#(FocusCallback.objectPath)", "\#(FocusCallback.interface)", "#
        #expect(script.contains(call + #""\#(FocusCallback.activated)","#))
        #expect(script.contains(call + #""\#(FocusCallback.deactivated)")"#))
        // Plasma 6's names first, then Plasma 5's.
        #expect(script.contains("(workspace.windowActivated || workspace.clientActivated).connect(activated)"))
        #expect(script.contains("workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient"))
        #expect(script.contains("text(followed.resourceClass), text(followed.resourceName), text(followed.caption)"))
        // A name that needs quoting stays one JavaScript string.
        #expect(KWinScript.source(daemon: #"a"b"#).contains(#"const daemon = "a\"b";"#))
    }

    @Test(
        "what the KWin script and the GNOME Shell extension send: Activated(class, name, caption) is that window, Deactivated() none, anything else nothing",
        arguments: [
            (
                "Activated", ["firefox", "Navigator", "Mozilla Firefox"],
                .some(FocusedWindow(appID: "firefox", instance: "Navigator", title: "Mozilla Firefox", source: "kwin"))
            ),
            (
                "Activated", ["org.kde.konsole", "org.kde.konsole", "~ : bash"],
                .some(FocusedWindow(appID: "org.kde.konsole", title: "~ : bash", source: "kwin"))
            ),
            ("Activated", ["foot", "", ""], .some(FocusedWindow(appID: "foot", source: "kwin"))),
            ("Deactivated", [], .some(nil)),
            ("Activated", ["firefox"], nil),
            ("Deactivated", ["x"], nil),
            ("Other", [], nil),
        ] as [(String, [String], FocusedWindow??)])
    func kwinScriptChanges(member: String, arguments: [String], expected: FocusedWindow??) {
        #expect(FocusCallback.change(member: member, arguments: arguments, source: "kwin") == expected)
    }

    /// The text of the GNOME Shell extension's `extension.js` in Tools/gnome-extension.
    private static func gnomeExtension(_ file: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let path = root.appendingPathComponent("Tools/gnome-extension/\(GnomeShellExtension.uuid)/\(file)")
        return try String(contentsOf: path, encoding: .utf8)
    }

    @Test("the GNOME Shell extension serves the subscription the connection makes and calls back what it serves")
    func gnomeExtensionCalls() throws {
        let script = try Self.gnomeExtension("extension.js")
        // What the daemon calls on org.gnome.Shell.
        #expect(script.contains("<interface name=\"\(GnomeShellExtension.interface)\">"))
        #expect(
            script.contains("<method name=\"\(GnomeShellExtension.subscribe)\"><arg name=\"daemon\" type=\"s\" direction=\"in\"/></method>")
        )
        #expect(script.contains("<method name=\"Unsubscribe\"><arg name=\"daemon\" type=\"s\" direction=\"in\"/></method>"))
        #expect(script.contains("export(Gio.DBus.session, '\(GnomeShellExtension.objectPath)')"))
        // What it calls back: the daemon's object and interface, Activated with three strings or Deactivated with none.
        #expect(
            script.contains("Gio.DBus.session.call(daemon, '\(FocusCallback.objectPath)', '\(FocusCallback.interface)', method, parameters")
        )
        #expect(
            script.contains(
                "['\(FocusCallback.activated)', new GLib.Variant('(sss)', [window.get_wm_class() ?? '', window.get_wm_class_instance() ?? '', window.get_title() ?? ''])]"
            ))
        #expect(script.contains("['\(FocusCallback.deactivated)', null]"))
        // On each focus change and each title change of the focused window.
        #expect(script.contains("global.display.connect('notify::focus-window'"))
        #expect(script.contains("this._window.connect('notify::title'"))
        let metadata = try Self.gnomeExtension("metadata.json")
        #expect(metadata.contains("\"uuid\": \"\(GnomeShellExtension.uuid)\""))
        // GNOME loads an extension only on a version it lists: 45 (ES modules) to the newest released.
        #expect(metadata.contains("\"shell-version\": [\"45\", \"46\", \"47\", \"48\", \"49\", \"50\"]"))
    }

    @Test("the GNOME 40-44 extension is the GNOME 45 one's class and calls, as a script with imports.gi and init()")
    func legacyGnomeExtension() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [root.appendingPathComponent("Tools/gnome-extension/legacy").path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let legacy = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let modern = try Self.gnomeExtension("extension.js")
        // No module syntax, which GNOME 40 to 44 cannot load; their imports and entry point instead.
        let lines = legacy.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("import ") || $0.hasPrefix("export ") })
        #expect(legacy.contains("const { Gio, GLib } = imports.gi;"))
        #expect(legacy.contains("class GesturesFocusExtension {"))
        #expect(legacy.contains("function init() {\n    return new GesturesFocusExtension();\n}"))
        // Everything from the class's first method to its end is the GNOME 45 extension's, line for line.
        let body = try #require(modern.range(of: "    enable() {")).lowerBound
        #expect(legacy.contains(modern[body...]))
        let metadata = try String(
            contentsOf: root.appendingPathComponent("Tools/gnome-extension/\(GnomeShellExtension.legacyUUID)/metadata.json"),
            encoding: .utf8)
        #expect(metadata.contains("\"uuid\": \"\(GnomeShellExtension.legacyUUID)\""))
        #expect(metadata.contains("\"shell-version\": [\"40\", \"41\", \"42\", \"43\", \"44\"]"))
    }
}
