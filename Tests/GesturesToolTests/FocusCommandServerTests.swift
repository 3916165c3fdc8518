import Foundation
import TestSupport
import Testing

/// `gestures focus` against real servers: Xvfb with openbox, and headless
/// sway, read through its IPC socket and, with `SWAYSOCK` unset, through
/// wlr-foreign-toplevel-management as any wlroots compositor; and KWin,
/// through the KWin script the focus source loads. Each test moves the focus 50 times between three windows and
/// checks that every change is printed, in order; it prints the latency of
/// a change (from just before the focusing command is started to the line
/// being read, so the figure includes starting xdotool or swaymsg) and the
/// CPU ticks the idle `gestures focus` used in 2 s: figures, not assertions.
@Suite("gestures focus on real display servers (Xvfb + openbox, headless sway, wlr-foreign-toplevel)", .serialized)
struct FocusCommandServerTests {
    static let applications = ["firefox", "gedit", "eog"]
    static let changes = 50

    /// The server; when one is not installed, the test is skipped with the
    /// reason (a failure when they are required); nil after a failure.
    static func server(_ make: () throws -> DisplayServer) throws -> DisplayServer? {
        do { return try make() } catch let unavailable as DisplayServer.Unavailable {
            if DisplayServer.required || !unavailable.missing {
                Issue.record("the display server did not start: \(unavailable)")
                return nil
            }
            try Test.cancel(Comment(rawValue: "skipped: \(unavailable); Tools/test-all installs it"))
        }
    }

    /// User and system CPU ticks of process `pid` so far (`/proc/PID/stat` fields 14 and 15).
    static func cpuTicks(_ pid: Int32) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
            return nil
        }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command name: state is field 3, so utime (14) and stime (15) are at 11 and 12.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// Follows 50 changes on `server` through the source `source` (the
    /// server's own by default), the variables of `hidden` unset.
    static func follow(_ server: DisplayServer, source: String? = nil, hiding hidden: [String] = []) throws {
        let source = source ?? server.kind
        defer { server.stop() }
        for name in applications { try server.openWindow(name) }
        let process = Process()
        // As the server's user: KWin's session bus admits no other.
        let (executable, arguments) = try server.userCommand(ToolRunner.executable, ["focus", "--format", "json"])
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.filter {
            ![
                "DISPLAY", "SWAYSOCK", "I3SOCK", "WAYLAND_DISPLAY", "HYPRLAND_INSTANCE_SIGNATURE", "XDG_CURRENT_DESKTOP",
                "XDG_SESSION_TYPE", "DBUS_SESSION_BUS_ADDRESS",
            ].contains($0.key)
        }
        environment.merge(server.environment) { $1 }
        for name in hidden { environment[name] = nil }
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            #expect(!process.isRunning, "gestures focus ends on SIGTERM")
        }
        let lines = TimedLines(out.fileHandleForReading)
        let first = try #require(lines.next(within: 30), "gestures focus printed nothing")
        #expect(first.line.contains("\"source\":\"\(source)\""), "\(first.line)")
        var current = (try? JSONSerialization.jsonObject(with: Data(first.line.utf8)) as? [String: Any])?["app"] as? String
        var latencies: [Duration] = []
        var seen: [String] = []
        for index in 0..<changes {
            // The next application that does not have the focus, round the three.
            var target = applications[index % applications.count]
            if target == current { target = applications[(index + 1) % applications.count] }
            server.focus(target)
            guard let line = lines.next(within: 10) else {
                Issue.record("change \(index + 1): no line within 10 s after focusing \(target)")
                return
            }
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.line.utf8)) as? [String: Any])
            let app = object["app"] as? String
            seen.append(app ?? "none")
            #expect(app == target, "change \(index + 1): focused \(target), gestures focus said \(line.line)")
            latencies.append(line.time - server.focusMoved)
            current = app
        }
        #expect(seen.count == changes)
        let before = cpuTicks(process.processIdentifier)
        Thread.sleep(forTimeInterval: 2)
        let after = cpuTicks(process.processIdentifier)
        let idle = zip([before], [after]).compactMap { pair in pair.0.flatMap { b in pair.1.map { $0 - b } } }.first
        let sorted = latencies.sorted()
        func milliseconds(_ duration: Duration) -> String {
            String(format: "%.1f", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
        }
        print(
            "focus latency (\(source)): median \(milliseconds(sorted[sorted.count / 2])) ms, worst \(milliseconds(sorted.last!)) ms over \(latencies.count) changes (from starting the command that moves the focus); idle CPU: \(idle.map(String.init) ?? "?") ticks in 2 s; the server started in \(milliseconds(server.startup)) ms"
        )
        #expect(lines.next(within: 0) == nil, "no line without a change")
        // Closing the focused window is a change: to nothing, or to the window the server focuses next.
        let closed = try #require(current)
        server.closeWindow(closed)
        let closing = try #require(lines.next(within: 10), "closing the focused \(closed) printed nothing")
        let now = (try JSONSerialization.jsonObject(with: Data(closing.line.utf8)) as? [String: Any])?["app"] as? String
        #expect(now != closed, "\(closing.line)")
    }

    @Test("X11 (Xvfb + openbox, xterm -class NAME, xdotool windowactivate): 50 focus changes, in order")
    func x11() throws {
        guard let server = try Self.server(DisplayServer.x11) else { return }
        try Self.follow(server)
    }

    @Test("sway (headless, foot --app-id=NAME, swaymsg focus): 50 focus changes, in order")
    func sway() throws {
        guard let server = try Self.server(DisplayServer.sway) else { return }
        try Self.follow(server)
    }

    @Test("wlroots (headless sway without SWAYSOCK: wlr-foreign-toplevel-management, foot, swaymsg focus): 50 focus changes, in order")
    func wlroots() throws {
        guard let server = try Self.server(DisplayServer.sway) else { return }
        try Self.follow(server, source: "wlroots", hiding: ["SWAYSOCK"])
    }

    @Test("KWin going away (its session bus staying) ends gestures focus with one sentence saying so")
    func kwinGone() throws {
        guard let server = try Self.server(DisplayServer.kwin) else { return }
        defer { server.stop() }
        try server.openWindow("firefox")
        let process = Process()
        let (executable, arguments) = try server.userCommand(ToolRunner.executable, ["focus", "--format", "json"])
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment.filter { !["DISPLAY", "SWAYSOCK", "I3SOCK"].contains($0.key) }
        environment.merge(server.environment) { $1 }
        process.environment = environment
        let out = Pipe()
        let errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        let lines = TimedLines(out.fileHandleForReading)
        let first = try #require(lines.next(within: 30), "gestures focus printed nothing")
        #expect(first.line.contains("\"app\":\"firefox\""), "\(first.line)")
        server.stopServer()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        guard !process.isRunning else {
            Issue.record("gestures focus did not end within 10 s of KWin going away")
            process.terminate()
            return
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 1)
        #expect(message.contains("org.kde.KWin left the session bus"), "\(message)")
        #expect(message.split(separator: "\n").count == 1, "\(message)")
    }

    @Test("KWin (kwin_wayland --virtual, xterm -class NAME on its Xwayland, a KWin script activating): 50 focus changes, in order")
    func kwin() throws {
        guard let server = try Self.server(DisplayServer.kwin) else { return }
        try Self.follow(server)
    }
}
