import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The focus sources against lying and silent servers (issue 37, item 1):
/// each server is a ``FakeServer`` on a Unix socket in the test, and each
/// `gestures focus` must end with one sentence naming the server, within
/// the source's 5 s deadline (the run is killed at a generous deadline,
/// and a killed run fails); `gestures run` must start whatever the server
/// does, and connect only when a binding needs a focus.
@Suite("focus sources against lying and silent servers (end to end)")
struct FocusServerTests {
    /// Far past the sources' own 5 s: only a hang reaches it.
    static let deadline: Duration = .seconds(30)

    /// Every variable that chooses a source, unset (the tool reads an empty one as unset).
    static let noSession = [
        "DISPLAY", "SWAYSOCK", "I3SOCK", "HYPRLAND_INSTANCE_SIGNATURE", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP",
        "DBUS_SESSION_BUS_ADDRESS", "XAUTHORITY",
    ].reduce(into: [String: String]()) { $0[$1] = "" }

    /// `gestures focus` in `environment`: it ended by itself, with one line on standard error containing `expected`.
    static func expectOneSentence(_ environment: [String: String], containing expected: [String]) throws {
        let run = try ToolRunner.run(["focus", "--count", "1"], environment: noSession.merging(environment) { $1 }, deadline: deadline)
        #expect(!run.timedOut, "gestures focus waited on the server for ever")
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        for text in expected { #expect(run.stderr.contains(text), "\(run.stderr)") }
        #expect(!run.stderr.contains("\u{1B}") && !run.stdout.contains("\u{1B}"), "raw escape on the terminal: \(run.stderr)")
        #expect(!run.stderr.contains("Fatal error"))
    }

    // MARK: X11

    /// Little-endian bytes of `values`, each `size` bytes wide.
    static func le(_ value: Int, _ size: Int) -> [UInt8] { (0..<size).map { UInt8((value >> (8 * $0)) & 0xff) } }

    /// A setup reply of one screen whose root is 0x100, with `vendor` (its length field `vendorLength` when given).
    static func setup(vendor: String = "fake", vendorLength: Int? = nil) -> [UInt8] {
        let name = Array(vendor.utf8) + [UInt8](repeating: 0, count: (4 - vendor.utf8.count % 4) % 4)
        var body = le(0, 4) + le(0x0020_0000, 4) + le(0x001f_ffff, 4) + le(256, 4)
        body += le(vendorLength ?? vendor.utf8.count, 2) + le(65_535, 2) + [1, 0, 0, 0, 32, 32, 8, 255] + le(0, 4) + name
        // The screen: root 0x100, no depths.
        body += le(0x100, 4) + [UInt8](repeating: 0, count: 35) + [0]
        return [1, 0] + le(11, 2) + le(0, 2) + le(body.count / 4, 2) + body
    }

    /// The reply to request `sequence`: type 1, `first` in byte 1, the reply length field `length`, then `fields` (24 bytes) and `extra`.
    static func reply(_ sequence: Int, first: UInt8 = 0, length: Int? = nil, fields: [UInt8] = [], extra: [UInt8] = []) -> [UInt8] {
        let padded = fields + [UInt8](repeating: 0, count: max(0, 24 - fields.count))
        return [1, first] + le(sequence, 2) + le(length ?? extra.count / 4, 4) + padded + extra
    }

    /// The three atoms' replies (requests 1 to 3); request 4 selects the root's events.
    static let atoms = reply(1, fields: le(300, 4)) + reply(2, fields: le(301, 4)) + reply(3, fields: le(302, 4))

    /// An X server on a display of its own (`:N`, its socket in /tmp/.X11-unix as any X server's, N
    /// from 40,000 on and free) that reads the setup request and sends `bytes`, then nothing.
    static func xServer(sending bytes: [UInt8]) throws -> (FakeServer, [String: String]) {
        let sockets = "/tmp/.X11-unix"
        if !FileManager.default.fileExists(atPath: sockets) {
            try? FileManager.default.createDirectory(
                atPath: sockets, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o1777])
        }
        var number = Int.random(in: 40_000..<60_000)
        while FileManager.default.fileExists(atPath: "\(sockets)/X\(number)") { number += 1 }
        let server = try FakeServer(path: "\(sockets)/X\(number)") { connection in
            _ = connection.read(atLeast: 12)
            connection.write(bytes)
        }
        return (server, ["DISPLAY": ":\(number)"])
    }

    @Test(
        "an X server that lies or says nothing: gestures focus ends in one sentence naming it",
        arguments: [
            ("no setup reply", [], "did not answer within 5 s"),
            ("half a setup reply", Array(setup().prefix(20)), "did not answer within 5 s"),
            ("a vendor length past the setup's end", setup(vendorLength: 60_000), "vendor name runs past"),
            ("no reply to InternAtom", setup(), "did not answer within 5 s"),
            // GetProperty(_NET_ACTIVE_WINDOW) is request 5: 256 MiB of value claimed, none sent.
            (
                "a property claiming 256 MiB of value",
                setup() + atoms + reply(5, first: 8, fields: le(33, 4) + le(0, 4) + le(256 << 20, 4)),
                "claiming 268435456 bytes of value with 0 sent"
            ),
            ("a format-32 reply of length 0x1FFFFFFF", setup() + atoms + reply(5, first: 32, length: 0x1FFF_FFFF), "over the limit"),
            // The active window 0x200; its WM_CLASS is request 7 (6 selects its events), claiming 0x1FFFFFFF units of 32 bits.
            (
                "a WM_CLASS claiming 2 GiB",
                setup() + atoms + reply(5, first: 32, fields: le(33, 4) + le(0, 4) + le(1, 4), extra: le(0x200, 4))
                    + reply(7, first: 32, fields: le(31, 4) + le(0, 4) + le(0x1FFF_FFFF, 4)),
                "claiming 2147483644 bytes of value with 0 sent"
            ),
        ] as [(String, [UInt8], String)])
    func x11(what: String, bytes: [UInt8], expected: String) throws {
        let (server, environment) = try Self.xServer(sending: bytes)
        defer { server.stop() }
        try Self.expectOneSentence(environment, containing: ["the X server at DISPLAY=\(environment["DISPLAY"] ?? "")", expected])
    }

    @Test("an X server's refusal is one sentence quoting its reason escaped, never raw on the terminal")
    func x11Refusal() throws {
        let reason = Array("No \u{1B}]0;pwned\u{07}\u{1B}[2J protocol".utf8)
        let padded = reason + [UInt8](repeating: 0, count: (4 - reason.count % 4) % 4)
        let refusal = [0, UInt8(reason.count)] + Self.le(11, 2) + Self.le(0, 2) + Self.le(padded.count / 4, 2) + padded
        let (server, environment) = try Self.xServer(sending: refusal)
        defer { server.stop() }
        try Self.expectOneSentence(environment, containing: ["refused the connection", "\\u{1b}]0;pwned\\u{7}"])
    }

    // MARK: sway and i3, Hyprland

    @Test(
        "sway without a get_tree reply, or with half a frame: one sentence naming it",
        arguments: [[], Array("i3-ipc".utf8) + [40, 0]] as [[UInt8]])
    func sway(bytes: [UInt8]) throws {
        let folder = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try FakeServer(path: folder.appendingPathComponent("sway.sock").path) { connection in
            _ = connection.read(atLeast: 14)
            connection.write(bytes)
        }
        defer { server.stop() }
        try Self.expectOneSentence(["SWAYSOCK": server.path], containing: ["sway at SWAYSOCK=\(server.path) did not answer within 5 s"])
    }

    @Test("a Hyprland request socket left open without a reply: one sentence naming it")
    func hyprland() throws {
        let runtime = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: runtime) }
        let folder = runtime.appendingPathComponent("hypr/sig")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let events = try FakeServer(path: folder.appendingPathComponent(".socket2.sock").path) { _ in }
        defer { events.stop() }
        let requests = try FakeServer(path: folder.appendingPathComponent(".socket.sock").path) { connection in _ = connection.read() }
        defer { requests.stop() }
        try Self.expectOneSentence(
            ["HYPRLAND_INSTANCE_SIGNATURE": "sig", "XDG_RUNTIME_DIR": runtime.path],
            containing: ["Hyprland at \(folder.path) did not answer within 5 s"])
    }

    // MARK: Wayland, the session bus

    @Test("a Wayland compositor that never answers the roundtrip: one sentence naming it")
    func wayland() throws {
        let folder = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try FakeServer(path: folder.appendingPathComponent("wayland-9").path) { connection in _ = connection.read() }
        defer { server.stop() }
        try Self.expectOneSentence(
            ["WAYLAND_DISPLAY": server.path, "XDG_RUNTIME_DIR": folder.path],
            containing: ["the Wayland compositor at WAYLAND_DISPLAY=\(server.path) did not answer within 5 s"])
    }

    /// A session bus at `folder/bus` for KDE Plasma on Wayland, answering its client's authentication with `answer`.
    static func bus(_ folder: URL, answering answer: String) throws -> (FakeServer, [String: String]) {
        let server = try FakeServer(path: folder.appendingPathComponent("bus").path) { connection in
            _ = connection.read()
            connection.write(answer)
        }
        return (
            server,
            [
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(server.path)", "XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0",
                "XDG_RUNTIME_DIR": folder.path,
            ]
        )
    }

    @Test("a session bus that answers AUTH and never Hello: one sentence naming it")
    func busWithoutHello() throws {
        let folder = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, environment) = try Self.bus(folder, answering: "OK 0123456789abcdef0123456789abcdef\r\nAGREE_UNIX_FD\r\n")
        defer { server.stop() }
        try Self.expectOneSentence(environment, containing: ["the session bus at unix:path=\(server.path) did not answer within 5 s"])
    }

    @Test("a session bus that refuses us says so, not 'gave no unique name'")
    func busRefusing() throws {
        let folder = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, environment) = try Self.bus(folder, answering: "REJECTED EXTERNAL\r\nERROR\r\nERROR\r\n")
        defer { server.stop() }
        try Self.expectOneSentence(environment, containing: ["cannot connect to the session bus at unix:path=\(server.path): it refused"])
    }

    // MARK: gestures run

    /// A configuration of one swipe binding, with `apps` when `naming`.
    static func configuration(_ folder: URL, naming: Bool) throws -> String {
        let path = folder.appendingPathComponent("config.yaml").path
        let apps = naming ? ", apps: [firefox]" : ""
        try "version: 1\nbindings:\n  - {name: back, gesture: swipe, fingers: 3, direction: left\(apps), action: {command: [\"true\"]}}\n"
            .write(
                toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `gestures run` on no devices with `environment` until it logged a line containing `text`; its log then.
    static func runUntil(_ text: String, config: String, environment: [String: String], folder: URL) throws -> [String] {
        let process = Process()
        process.executableURL = ToolRunner.executable
        let devices = folder.appendingPathComponent("devices")
        try FileManager.default.createDirectory(at: devices, withIntermediateDirectories: true)
        // The daemon's socket in a folder of this user's alone, as it requires.
        let run = folder.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        process.arguments = ["run", "--config", config, "--dir", devices.path, "--socket", run.appendingPathComponent("d.sock").path]
        process.environment = ProcessInfo.processInfo.environment.merging(noSession.merging(environment) { $1 }) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let lines = TimedLines(errors.fileHandleForReading)
        var log: [String] = []
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        while let next = lines.next(within: Double(deadline.components.seconds)) {
            log.append(next.line)
            if next.line.contains(text) { return log }
        }
        Issue.record("gestures run never logged '\(text)': \(log)")
        return log
    }

    @Test("gestures run starts at once beside a silent X server, and connects to none when no binding needs a focus")
    func runWithoutApps() throws {
        let folder = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, environment) = try Self.xServer(sending: [])
        defer { server.stop() }
        // Waiting for devices: past "running with", and past the stop signals' setup, so SIGTERM ends it.
        let log = try Self.runUntil(
            "waiting for one", config: Self.configuration(folder, naming: false), environment: environment, folder: folder)
        #expect(log.contains { $0.contains("running with") })
        #expect(server.connections == 0, "the daemon connected to a focus source no binding needs")
    }

    @Test("gestures run with an apps binding starts beside a silent X server, then says in one line that apps never apply")
    func runWithApps() throws {
        let folder = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (server, environment) = try Self.xServer(sending: [])
        defer { server.stop() }
        let log = try Self.runUntil(
            "never apply", config: Self.configuration(folder, naming: true), environment: environment, folder: folder)
        let running = log.firstIndex { $0.contains("running with") }
        let warning = log.firstIndex { $0.contains("bindings with apps or title never apply") && $0.contains("did not answer within 5 s") }
        #expect(running != nil && warning != nil && running! < warning!, "\(log)")
        #expect(server.connections == 1)
    }
}
