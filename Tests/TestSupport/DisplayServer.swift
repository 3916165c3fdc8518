import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real display server for tests of the focus sources, with windows of
/// chosen application ids and a way to move the focus between them:
/// Xvfb with openbox (which sets `_NET_ACTIVE_WINDOW`), `xterm -class NAME`
/// windows and `xdotool windowactivate`; or headless sway
/// (`WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1`)
/// with `foot --app-id=NAME` windows and `swaymsg`; or KWin
/// (`kwin_wayland --virtual --xwayland` in its own `dbus-run-session`) with
/// `xterm -class NAME` windows on its Xwayland, focused by a KWin script
/// loaded with `dbus-send`. sway refuses to run as root, and a session bus
/// admits only its own user, so as root these run as the unprivileged user
/// `gestures-test`, made with `useradd` when missing (and so must a client
/// of KWin's bus: ``userCommand(_:_:)``).
///
/// A test that gets ``Unavailable`` skips, saying why, unless
/// `GESTURES_REQUIRE_DISPLAY_SERVERS=1` (Tools/test-all sets it, after
/// installing the servers): then a missing server fails the test.
public final class DisplayServer: @unchecked Sendable {
    /// Why a server cannot run here: one sentence.
    public struct Unavailable: Error, CustomStringConvertible {
        public var description: String
        /// Whether a program is missing (else the server did not start in time).
        public var missing = false
    }

    /// Whether a missing server fails instead of skipping (`GESTURES_REQUIRE_DISPLAY_SERVERS=1`).
    public static var required: Bool { ProcessInfo.processInfo.environment["GESTURES_REQUIRE_DISPLAY_SERVERS"] == "1" }

    /// `x11`, `sway` or `kwin`.
    public let kind: String
    /// What a client of the server needs: `DISPLAY`, or `SWAYSOCK`, `WAYLAND_DISPLAY` and `XDG_RUNTIME_DIR`,
    /// or (KWin) `WAYLAND_DISPLAY`, `XDG_RUNTIME_DIR`, `DBUS_SESSION_BUS_ADDRESS` and a KDE Plasma session's
    /// `XDG_CURRENT_DESKTOP` and `XDG_SESSION_TYPE`.
    public let environment: [String: String]
    private var processes: [Process] = []
    private var windows: [String: String] = [:]
    /// The client process of each window, by application name.
    private var clients: [String: Process] = [:]
    private let folder: URL
    /// The user the Wayland clients run as (`setpriv` arguments), empty when not root.
    private let asUser: [String]
    /// KWin's Xwayland display, where its windows are opened.
    private var xDisplay = ""
    /// How long the server took to start.
    public private(set) var startup: Duration = .zero
    /// When the last ``focus(_:)`` started the command that moves the focus
    /// (`xdotool`, `swaymsg`, or KWin's `Scripting.start` once the script is loaded).
    public private(set) var focusMoved = ContinuousClock.now

    private init(kind: String, environment: [String: String], processes: [Process], folder: URL, asUser: [String]) {
        self.kind = kind
        self.environment = environment
        self.processes = processes
        self.folder = folder
        self.asUser = asUser
    }

    deinit { stop() }

    /// Stops the windows and the server, and removes the server's folder.
    public func stop() {
        // KWin's session bus, which forked away from the processes started here.
        if let pid = (try? String(contentsOf: folder.appendingPathComponent("bus.pid"), encoding: .utf8)).flatMap({
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }), pid > 1 {
            kill(pid, SIGKILL)
        }
        // SIGKILL (xterm outlives a SIGTERM while its child runs), then a bounded wait:
        // Foundation's waitUntilExit can miss an exit among several at once and never return.
        for process in processes.reversed() where process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let deadline = Date().addingTimeInterval(2)
        while processes.contains(where: \.isRunning), Date() < deadline { usleep(10_000) }
        processes = []
        try? FileManager.default.removeItem(at: folder)
        // A killed Xvfb leaves its socket and lock behind, which would keep its display number taken.
        if kind == "x11", let display = environment["DISPLAY"], let number = Int(display.dropFirst()) {
            try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
            try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
        }
    }

    /// The path of `program` on `PATH`, or nil.
    static func find(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"] {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    private static func require(_ programs: [String], package: String) throws(Unavailable) {
        let missing = programs.filter { find($0) == nil }
        guard missing.isEmpty else {
            throw Unavailable(
                description: "\(missing.joined(separator: ", ")) not installed (Debian: apt-get install \(package))", missing: true)
        }
    }

    /// Starts `arguments` with `environment` added, its output into `log`.
    @discardableResult
    private static func start(_ arguments: [String], environment: [String: String], log: URL?) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: find(arguments[0]) ?? arguments[0])
        process.arguments = Array(arguments.dropFirst())
        var merged = ProcessInfo.processInfo.environment.filter { !["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK"].contains($0.key) }
        merged.merge(environment) { $1 }
        process.environment = merged
        if let log {
            FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        process.standardInput = FileHandle.nullDevice
        // A folder every user may enter: the test's own may be one only root can (a clone in a
        // home of mode 0700), and a client run as the unprivileged user would not start there.
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        try process.run()
        return process
    }

    /// Waits as ``wait(seconds:for:_:)`` does; when it gives up, the sentence ends with the last lines `log` holds.
    private static func wait(seconds: Double, for what: String, log: URL, _ condition: () -> Bool) throws(Unavailable) {
        do throws(Unavailable) { try wait(seconds: seconds, for: what, condition) } catch {
            let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").suffix(3)
            throw Unavailable(
                description: error.description + (lines.isEmpty ? " (it logged nothing)" : "; it logged: " + lines.joined(separator: " | "))
            )
        }
    }

    /// Runs `arguments` to their end, with `extra` added to the environment;
    /// its standard output, or nil when it failed.
    private func run(_ arguments: [String], extra: [String: String] = [:]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.find(arguments[0]) ?? arguments[0])
        process.arguments = Array(arguments.dropFirst())
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
        merged.merge(extra) { $1 }
        process.environment = merged
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }

    /// Waits up to `seconds` for `condition`, checking every 20 ms (server start-up only).
    private static func wait(seconds: Double, for what: String, _ condition: () -> Bool) throws(Unavailable) {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { throw Unavailable(description: "\(what) did not happen within \(Int(seconds)) s") }
            usleep(20_000)
        }
    }

    private static func temporaryFolder(_ name: String) throws -> URL {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gestures-\(name)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    // MARK: X11

    /// Xvfb on a free display, with openbox. A server that does not come up
    /// in time (a loaded machine, a display number another server took
    /// meanwhile) is stopped and another display tried, three in all.
    public static func x11() throws -> DisplayServer {
        try require(["Xvfb", "openbox", "xterm", "xdotool"], package: "xvfb openbox xterm xdotool")
        var failures: [String] = []
        for _ in 0..<3 {
            do { return try startX11() } catch let unavailable as Unavailable { failures.append(unavailable.description) }
        }
        throw Unavailable(description: "X11 did not start in three tries: " + failures.joined(separator: "; "))
    }

    private static func startX11() throws -> DisplayServer {
        let started = ContinuousClock.now
        let folder = try temporaryFolder("x11")
        var number = 90 + Int.random(in: 0..<400)
        while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
            || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
        {
            number += 1
        }
        let display = ":\(number)"
        let xvfb = try start(
            ["Xvfb", display, "-screen", "0", "800x600x24", "-nolisten", "tcp"], environment: [:],
            log: folder.appendingPathComponent("xvfb.log"))
        let server = DisplayServer(kind: "x11", environment: ["DISPLAY": display], processes: [xvfb], folder: folder, asUser: [])
        try wait(seconds: 30, for: "Xvfb starting on \(display)") { FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") }
        server.processes.append(try start(["openbox"], environment: server.environment, log: folder.appendingPathComponent("openbox.log")))
        // openbox is up once it sets the root window's EWMH properties (the desktop count among them).
        try wait(seconds: 30, for: "openbox setting _NET_NUMBER_OF_DESKTOPS") { server.run(["xdotool", "get_num_desktops"]) != nil }
        server.startup = ContinuousClock.now - started
        return server
    }

    /// The `setpriv` arguments that run a command as `gestures-test` (made
    /// when missing), with `folder` made theirs; none when not root.
    private static func unprivileged(_ folder: URL, for server: String) throws -> [String] {
        var asUser: [String] = []
        if getuid() == 0 {
            if getpwnam("gestures-test") == nil {
                let add = try start(
                    ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "gestures-test"], environment: [:], log: nil
                )
                add.waitUntilExit()
            }
            guard let user = getpwnam("gestures-test") else {
                throw Unavailable(description: "cannot make the user gestures-test for \(server)")
            }
            chown(folder.path, user.pointee.pw_uid, user.pointee.pw_gid)
            asUser = ["setpriv", "--reuid=\(user.pointee.pw_uid)", "--regid=\(user.pointee.pw_gid)", "--clear-groups", "--"]
        }
        chmod(folder.path, 0o700)
        return asUser
    }

    // MARK: sway

    /// Headless sway, as `gestures-test` when run as root.
    public static func sway() throws -> DisplayServer {
        try require(["sway", "swaymsg", "foot", "setpriv"], package: "sway foot util-linux")
        let started = ContinuousClock.now
        let folder = try temporaryFolder("sway")
        let asUser = try unprivileged(folder, for: "sway")
        let config = folder.appendingPathComponent("config")
        try "output HEADLESS-1 resolution 800x600\nxwayland disable\n".write(to: config, atomically: true, encoding: .utf8)
        chmod(config.path, 0o644)
        let base: [String: String] = [
            "XDG_RUNTIME_DIR": folder.path, "HOME": folder.path, "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman",
            "WLR_LIBINPUT_NO_DEVICES": "1",
        ]
        let sway = try start(asUser + ["sway", "-c", config.path], environment: base, log: folder.appendingPathComponent("sway.log"))
        var socket: String?
        var wayland: String?
        try wait(seconds: 30, for: "sway starting") {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            socket = names.first { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }.map { folder.path + "/" + $0 }
            wayland = names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
            return socket != nil && wayland != nil || !sway.isRunning
        }
        guard sway.isRunning, let socket, let wayland else {
            let log = (try? String(contentsOf: folder.appendingPathComponent("sway.log"), encoding: .utf8)) ?? ""
            throw Unavailable(description: "sway did not start: \(log.split(separator: "\n").last ?? "no log")")
        }
        let environment = ["SWAYSOCK": socket, "WAYLAND_DISPLAY": wayland, "XDG_RUNTIME_DIR": folder.path]
        let server = DisplayServer(kind: "sway", environment: environment, processes: [sway], folder: folder, asUser: asUser)
        server.startup = ContinuousClock.now - started
        return server
    }

    // MARK: KWin

    /// KWin (`kwin_wayland --virtual --xwayland`) on a session bus of its own
    /// (`dbus-daemon --session --fork`), as `gestures-test` when run as root.
    public static func kwin() throws -> DisplayServer {
        try require(
            ["kwin_wayland", "Xwayland", "dbus-daemon", "dbus-send", "xterm", "xdotool", "setpriv"],
            package: "kwin-wayland xwayland dbus-daemon dbus-bin xterm xdotool util-linux")
        let started = ContinuousClock.now
        let folder = try temporaryFolder("kwin")
        let asUser = try unprivileged(folder, for: "KWin")
        // A copy without the file capability (cap_sys_resource) Debian's binary carries: a container may refuse to run that.
        let binary = folder.appendingPathComponent("kwin_wayland")
        try FileManager.default.copyItem(atPath: find("kwin_wayland") ?? "/usr/bin/kwin_wayland", toPath: binary.path)
        chmod(binary.path, 0o755)
        // The session: a bus, its address and process id into the folder, then KWin, which starts
        // Xwayland and runs the one command that writes Xwayland's display there too.
        let session = folder.appendingPathComponent("session.sh")
        try """
        #!/bin/sh
        dbus-daemon --session --fork --nopidfile --print-address=3 --print-pid=4 \\
            3>"$XDG_RUNTIME_DIR/bus-address" 4>"$XDG_RUNTIME_DIR/bus.pid" || exit 1
        DBUS_SESSION_BUS_ADDRESS=$(cat "$XDG_RUNTIME_DIR/bus-address")
        export DBUS_SESSION_BUS_ADDRESS
        exec "$XDG_RUNTIME_DIR/kwin_wayland" --virtual --xwayland --width 800 --height 600 --socket wayland-gestures \
            --no-lockscreen "sh -c 'echo \\$DISPLAY > \\$XDG_RUNTIME_DIR/x-display'"

        """.write(to: session, atomically: true, encoding: .utf8)
        chmod(session.path, 0o755)
        let base = ["XDG_RUNTIME_DIR": folder.path, "HOME": folder.path, "KWIN_COMPOSE": "Q"]
        let log = folder.appendingPathComponent("kwin.log")
        let kwin = try start(asUser + [session.path], environment: base, log: log)
        func text(_ name: String) -> String? {
            (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)).map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }.flatMap { $0.isEmpty ? nil : $0 }
        }
        var bus: String?
        var display: String?
        try wait(seconds: 60, for: "KWin starting") {
            bus = text("bus-address")
            display = text("x-display")
            return bus != nil && display != nil && FileManager.default.fileExists(atPath: folder.path + "/wayland-gestures")
                || !kwin.isRunning
        }
        guard kwin.isRunning, let bus, let display else {
            let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
            throw Unavailable(description: "KWin did not start: \(lines.last ?? "no log")")
        }
        let environment = [
            "WAYLAND_DISPLAY": "wayland-gestures", "XDG_RUNTIME_DIR": folder.path, "DBUS_SESSION_BUS_ADDRESS": bus,
            "XDG_CURRENT_DESKTOP": "KDE", "XDG_SESSION_TYPE": "wayland",
        ]
        let server = DisplayServer(kind: "kwin", environment: environment, processes: [kwin], folder: folder, asUser: asUser)
        server.xDisplay = display
        // KWin is up once its scripting interface answers.
        try wait(seconds: 30, for: "KWin answering on the session bus") {
            server.run(
                asUser + ["dbus-send", "--session", "--print-reply", "--dest=org.kde.KWin", "/Scripting", "org.freedesktop.DBus.Peer.Ping"])
                != nil
        }
        server.startup = ContinuousClock.now - started
        return server
    }

    /// Kills the server itself (Xvfb, sway, KWin), leaving the rest (KWin's session bus) running.
    public func stopServer() {
        if let server = processes.first, server.isRunning { kill(server.processIdentifier, SIGKILL) }
    }

    /// Runs `arguments` of `executable` as the server's user (a copy of the
    /// executable in the server's folder, which that user can reach), or
    /// as they are when not root: a client of KWin's session bus must be its user.
    public func userCommand(_ executable: URL, _ arguments: [String]) throws -> (URL, [String]) {
        guard let setpriv = asUser.first.flatMap(Self.find) else { return (executable, arguments) }
        let copy = folder.appendingPathComponent(executable.lastPathComponent)
        if !FileManager.default.fileExists(atPath: copy.path) {
            try FileManager.default.copyItem(at: executable, to: copy)
            chmod(copy.path, 0o755)
        }
        return (URL(fileURLWithPath: setpriv), Array(asUser.dropFirst()) + [copy.path] + arguments)
    }

    /// Calls `method` of KWin's scripting interface with string arguments (`dbus-send`, as the server's user).
    private func kwinScripting(_ method: String, _ arguments: [String]) -> String? {
        run(
            asUser + ["dbus-send", "--session", "--print-reply", "--dest=org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting.\(method)"]
                + arguments.map { "string:\($0)" })
    }

    // MARK: Windows and focus

    /// Opens a window of application `name` (`xterm -class`, `foot --app-id`) and waits until it is mapped.
    public func openWindow(_ name: String) throws {
        switch kind {
        case "x11":
            let log = folder.appendingPathComponent("client-\(name).log")
            let client = try Self.start(["xterm", "-class", name, "-e", "cat"], environment: environment, log: log)
            processes.append(client)
            clients[name] = client
            var id: String?
            try Self.wait(seconds: 30, for: "the xterm of class \(name) mapping", log: log) {
                id = run(["xdotool", "search", "--onlyvisible", "--class", "^\(name)$"])?.split(separator: "\n").first.map(String.init)
                return id != nil
            }
            windows[name] = id
        case "kwin":
            let log = folder.appendingPathComponent("client-\(name).log")
            let client = try Self.start(
                asUser + ["xterm", "-class", name, "-e", "cat"], environment: ["DISPLAY": xDisplay, "HOME": folder.path], log: log)
            processes.append(client)
            clients[name] = client
            try Self.wait(seconds: 30, for: "the xterm of class \(name) mapping in KWin", log: log) {
                run(asUser + ["xdotool", "search", "--onlyvisible", "--class", "^\(name)$"], extra: ["DISPLAY": xDisplay]) != nil
            }
            // The script that focuses it: KWin's own activation, as a KWin script sets it.
            let script = folder.appendingPathComponent("focus-\(name).js")
            try """
            const windows = workspace.windowList ? workspace.windowList() : workspace.clientList();
            for (const window of windows) {
                if (String(window.resourceClass) !== \(Self.quoted(name))) continue;
                if (workspace.activeWindow !== undefined) workspace.activeWindow = window; else workspace.activeClient = window;
            }

            """.write(to: script, atomically: true, encoding: .utf8)
            chmod(script.path, 0o644)
        default:
            var clientEnvironment = environment
            clientEnvironment["HOME"] = environment["XDG_RUNTIME_DIR"]
            clientEnvironment["SWAYSOCK"] = nil
            let log = folder.appendingPathComponent("client-\(name).log")
            let client = try Self.start(asUser + ["foot", "--app-id=\(name)", "cat"], environment: clientEnvironment, log: log)
            processes.append(client)
            clients[name] = client
            try Self.wait(seconds: 30, for: "the foot window of app id \(name) mapping", log: log) {
                run(["swaymsg", "-t", "get_tree"])?.contains("\"app_id\": \"\(name)\"") == true
            }
        }
    }

    /// `name` as a JavaScript string (the names are letters).
    private static func quoted(_ name: String) -> String {
        "\"" + name.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." } + "\""
    }

    /// Closes the window of application `name` (its client is killed).
    public func closeWindow(_ name: String) {
        guard let client = clients.removeValue(forKey: name), client.isRunning else { return }
        kill(client.processIdentifier, SIGKILL)
    }

    /// Gives the focus to the window of application `name` (`xdotool windowactivate`, `swaymsg focus`),
    /// returning when the command has: the server then tells its clients.
    public func focus(_ name: String) {
        switch kind {
        case "x11":
            focusMoved = .now
            _ = run(["xdotool", "windowactivate", windows[name] ?? "0"])
        case "kwin":
            _ = kwinScripting("loadScript", [folder.appendingPathComponent("focus-\(name).js").path, "focus-\(name)"])
            focusMoved = .now
            _ = kwinScripting("start", [])
            _ = kwinScripting("unloadScript", ["focus-\(name)"])
        default:
            focusMoved = .now
            _ = run(["swaymsg", "[app_id=\"^\(name)$\"]", "focus"])
        }
    }
}

/// The lines a child process writes, each with the moment it was read: what
/// a test times a focus change against.
public final class TimedLines: Sendable {
    private let lines = Mutex<[(ContinuousClock.Instant, String)]>([])
    private let arrived = DispatchSemaphore(value: 0)

    /// Reads `handle` on a thread of its own until its end.
    public init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                // read(2) itself: Foundation's availableData traps when a signal interrupts it.
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return }
                let now = ContinuousClock.now
                pending.append(contentsOf: buffer[0..<count])
                while let end = pending.firstIndex(of: 0x0a) {
                    let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...end)
                    lines.withLock { $0.append((now, line)) }
                    arrived.signal()
                }
            }
        }
        thread.start()
    }

    /// The next line and when it arrived, waiting up to `seconds`; nil when none came.
    public func next(within seconds: Double) -> (time: ContinuousClock.Instant, line: String)? {
        guard arrived.wait(timeout: .now() + seconds) == .success else { return nil }
        return lines.withLock { $0.removeFirst() }
    }
}
