import Foundation
import TestSupport
import Testing

/// Names from outside never drive the terminal (issue 37, item 3): a focus
/// file's or a compositor's `app` and `instance` reach `--explain` and
/// `gestures focus` escaped, and `check-config` refuses control characters
/// in a binding's name and in an application pattern, with the key path.
@Suite("names from files and servers reach the terminal escaped (end to end)")
struct OutsideNamesTests {
    /// Retitles the terminal, clears it, then clears it again through the one-byte CSI (0x9B), which JSON allows raw.
    static let hostile = "x\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}2J"

    /// Whether `text` holds no control character but the line breaks.
    static func isInert(_ text: String) -> Bool {
        !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
    }

    @Test("a focus file's app and instance reach --explain lines escaped, in text and JSON", arguments: ["text", "json"])
    func explainEscapesFocus(format: String) throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.yaml")
        try FocusReplayCommandTests.configuration.write(to: config, atomically: true, encoding: .utf8)
        let focus = directory.appendingPathComponent("focus.jsonl")
        let app = JSONTextLiteral.quoted(Self.hostile)
        try "{\"time_ms\":0,\"app\":\(app),\"instance\":\(app),\"title\":\(app)}\n".write(to: focus, atomically: true, encoding: .utf8)
        let trace = try FocusReplayCommandTests.swipes(1, into: directory)
        let run = try ToolRunner.run(
            ["run", "--config", config.path, "--explain", "--format", format, "--focus", focus.path, "--replay", trace.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains(
                format == "text" ? "x\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{9b}2J" : "x\\u001b]0;pwned\\u0007\\u001b[2J\\u009b2J"),
            "\(run.stdout)")
        #expect(Self.isInert(run.stdout) && Self.isInert(run.stderr), "raw control characters: \(run.stdout)")
    }

    @Test("a sway app_id and X11 class with ESC reach gestures focus escaped")
    func focusEscapesNames() throws {
        let folder = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = JSONTextLiteral.quoted(Self.hostile)
        let tree = #"{"nodes":[{"focused":true,"app_id":\#(name),"name":\#(name),"window_properties":{"instance":\#(name)}}]}"#
        let event = #"{"change":"focus","container":{"focused":true,"app_id":"b\u001b[2J","name":"t"}}"#
        let server = try FakeServer(path: folder.appendingPathComponent("sway.sock").path) { connection in
            _ = connection.read(atLeast: 14)
            connection.write(Self.frame(4, tree))
            _ = connection.read(atLeast: 14)
            connection.write(Self.frame(2, #"{"success":true}"#) + Self.frame(0x8000_0003, event))
        }
        defer { server.stop() }
        let run = try ToolRunner.run(
            ["focus", "--count", "1"], environment: FocusServerTests.noSession.merging(["SWAYSOCK": server.path]) { $1 },
            deadline: FocusServerTests.deadline)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(run.stdout)")
        #expect(run.stdout.contains("x\\u{1b}]0;pwned\\u{7}") && run.stdout.contains("b\\u{1b}[2J"), "\(run.stdout)")
        #expect(Self.isInert(run.stdout), "raw control characters: \(run.stdout)")
    }

    /// An i3-ipc message of `type` with `payload`.
    static func frame(_ type: UInt32, _ payload: String) -> [UInt8] {
        let body = Array(payload.utf8)
        return Array("i3-ipc".utf8) + withUnsafeBytes(of: UInt32(body.count)) { Array($0) } + withUnsafeBytes(of: type) { Array($0) } + body
    }

    @Test(
        "check-config refuses a control character in a binding's name or an application pattern, with the key path",
        arguments: [
            (#"name: "back\e]0;x\a""#, "bindings[0].name: holds a control character"),
            (#"name: back, apps: ["fire\0fox"]"#, "bindings[0].apps[0]: the pattern 'fire\\u{0}fox' holds a control character"),
            (#"name: back, notApps: "foo\e[2J""#, "bindings[0].notApps: the pattern"),
            (#"name: back, title: ".*\x07""#, "bindings[0].title: the pattern"),
        ])
    func controlCharactersRefused(fields: String, expected: String) throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.yaml")
        try "version: 1\nbindings:\n  - {\(fields), gesture: swipe, fingers: 3, direction: left, action: {command: [echo, back]}}\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["check-config", config.path])
        #expect(run.status != 0)
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(!run.stdout.contains("valid"))
        #expect(Self.isInert(run.stdout) && Self.isInert(run.stderr), "raw control characters: \(run.stderr)")
    }

    @Test("check-config prints a command with ESC escaped in its summary")
    func checkConfigEscapesSummary() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.yaml")
        try "version: 1\nbindings:\n  - {name: back, gesture: swipe, fingers: 3, direction: left, action: {command: [echo, \"\\e[2J\"]}}\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["check-config", config.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("echo \\u{1b}[2J"), "\(run.stdout)")
        #expect(Self.isInert(run.stdout))
    }

    @Test("doctor prints the user's own XDG_* variables escaped")
    func doctorEscapesEnvironment() throws {
        let run = try ToolRunner.run(
            ["doctor"],
            environment: [
                "XDG_SESSION_TYPE": "wayland\u{1B}[2J", "XDG_CURRENT_DESKTOP": "KDE\u{1B}]0;x\u{07}", "WAYLAND_DISPLAY": "w\u{1B}[2J",
                "XDG_CONFIG_HOME": "/tmp/c\u{1B}[2J", "XDG_RUNTIME_DIR": "/tmp/r\u{1B}]0;x\u{07}", "XDG_DATA_HOME": "/tmp/d\u{9B}2J",
            ],
            deadline: FocusServerTests.deadline)
        #expect(!run.timedOut)
        #expect(Self.isInert(run.stdout) && Self.isInert(run.stderr), "raw control characters: \(run.stdout)")
    }
}

/// JSON string literals for the tests' files.
enum JSONTextLiteral {
    static func quoted(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed]), as: UTF8.self).dropFirst()
            .dropLast()
            .description
    }
}
