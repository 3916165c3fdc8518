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
/// with `foot --app-id=NAME` windows and `swaymsg`. sway refuses to run as
/// root, so as root it runs as the unprivileged user `gestures-test`, made
/// with `useradd` when missing.
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

    /// `x11` or `sway`.
    public let kind: String
    /// What a client of the server needs: `DISPLAY`, or `SWAYSOCK`, `WAYLAND_DISPLAY` and `XDG_RUNTIME_DIR`.
    public let environment: [String: String]
    private var processes: [Process] = []
    private var windows: [String: String] = [:]
    /// The client process of each window, by application name.
    private var clients: [String: Process] = [:]
    private let folder: URL
    /// The user the Wayland clients run as (`setpriv` arguments), empty when not root.
    private let asUser: [String]

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
        try process.run()
        return process
    }

    /// Runs `arguments` to their end; its standard output, or nil when it failed.
    private func run(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.find(arguments[0]) ?? arguments[0])
        process.arguments = Array(arguments.dropFirst())
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { $1 }
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
        return server
    }

    // MARK: sway

    /// Headless sway, as `gestures-test` when run as root.
    public static func sway() throws -> DisplayServer {
        try require(["sway", "swaymsg", "foot", "setpriv"], package: "sway foot util-linux")
        var asUser: [String] = []
        let folder = try temporaryFolder("sway")
        if getuid() == 0 {
            if getpwnam("gestures-test") == nil {
                let add = try start(
                    ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "gestures-test"], environment: [:], log: nil
                )
                add.waitUntilExit()
            }
            guard let user = getpwnam("gestures-test") else {
                throw Unavailable(description: "cannot make the user gestures-test for sway")
            }
            chown(folder.path, user.pointee.pw_uid, user.pointee.pw_gid)
            asUser = ["setpriv", "--reuid=\(user.pointee.pw_uid)", "--regid=\(user.pointee.pw_gid)", "--clear-groups", "--"]
        }
        chmod(folder.path, 0o700)
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
        return DisplayServer(kind: "sway", environment: environment, processes: [sway], folder: folder, asUser: asUser)
    }

    // MARK: Windows and focus

    /// Opens a window of application `name` (`xterm -class`, `foot --app-id`) and waits until it is mapped.
    public func openWindow(_ name: String) throws {
        switch kind {
        case "x11":
            let client = try Self.start(["xterm", "-class", name, "-e", "cat"], environment: environment, log: nil)
            processes.append(client)
            clients[name] = client
            var id: String?
            try Self.wait(seconds: 30, for: "the xterm of class \(name) mapping") {
                id = run(["xdotool", "search", "--onlyvisible", "--class", "^\(name)$"])?.split(separator: "\n").first.map(String.init)
                return id != nil
            }
            windows[name] = id
        default:
            var clientEnvironment = environment
            clientEnvironment["HOME"] = environment["XDG_RUNTIME_DIR"]
            clientEnvironment["SWAYSOCK"] = nil
            let client = try Self.start(asUser + ["foot", "--app-id=\(name)", "cat"], environment: clientEnvironment, log: nil)
            processes.append(client)
            clients[name] = client
            try Self.wait(seconds: 30, for: "the foot window of app id \(name) mapping") {
                run(["swaymsg", "-t", "get_tree"])?.contains("\"app_id\": \"\(name)\"") == true
            }
        }
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
        case "x11": _ = run(["xdotool", "windowactivate", windows[name] ?? "0"])
        default: _ = run(["swaymsg", "[app_id=\"^\(name)$\"]", "focus"])
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
