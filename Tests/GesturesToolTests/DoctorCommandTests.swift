import Foundation
import Testing

// The checks themselves are tested on made-up machines in DesktopDaemonTests
// (DoctorTests); the real kernel's devices in Tools/vm-test. These run the
// tool on a system tree (--root), end to end.
@Suite("gestures doctor on a system tree (end to end)")
struct DoctorCommandTests {
    /// A tree with a configuration and the unit, but no /dev/input.
    static func tree() throws -> URL {
        let root = try ToolRunner.temporaryDirectory()
        let manager = FileManager.default
        let config = root.appendingPathComponent("home/ada/.config/gestures")
        try manager.createDirectory(at: config, withIntermediateDirectories: true)
        try "version: 1\nbindings: []\n".write(to: config.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        try manager.createDirectory(at: root.appendingPathComponent("etc"), withIntermediateDirectories: true)
        try "input:x:105:ada\n".write(to: root.appendingPathComponent("etc/group"), atomically: true, encoding: .utf8)
        return root
    }

    @Test("no /dev/input in the tree: every check is listed, and the status is 2 (could not check) or 1 (a problem)")
    func treeWithoutDevices() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let environment = ["HOME": "/home/ada", "XDG_CONFIG_HOME": "", "XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "openbox"]
        let text = try ToolRunner.run(["doctor", "--root", root.path], environment: environment)
        let lines = text.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        #expect(
            lines.map { $0.split(separator: " ").dropFirst().first.map(String.init) ?? "" }
                == ["devices:", "uinput:", "configuration:", "service:", "other-tools:", "desktop:", "focus:", "page:"], "\(text.stdout)")
        #expect(lines.first == "unknown  devices: /dev/input cannot be listed, so no device could be checked.")
        #expect(text.stdout.contains("configuration: /home/ada/.config/gestures/config.yaml is valid: 0 bindings."))
        // No uinput and no service in the tree: problems, so 1.
        #expect(text.status == 1)
        #expect(text.stderr.isEmpty)

        let json = try ToolRunner.run(["doctor", "--root", root.path, "--format", "json"], environment: environment)
        #expect(json.status == text.status)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let checks = decoded?["checks"] as? [[String: Any]] ?? []
        #expect(
            checks.compactMap { $0["area"] as? String } == [
                "devices", "uinput", "configuration", "service", "other-tools", "desktop", "focus", "page",
            ])
        #expect(checks.first?["status"] as? String == "unknown")
        #expect(decoded?["exitStatus"] as? Int == 1)
    }

    @Test("a root that does not exist is a usage error in one line")
    func missingRoot() throws {
        let run = try ToolRunner.run(["doctor", "--root", "/nonexistent/tree"])
        #expect(run.status == 64 || run.status == 1)
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("/nonexistent/tree"))
    }
}
