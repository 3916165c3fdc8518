import EvdevInput
import Foundation

/// `gestures doctor` on the real kernel, as an unprivileged user: without
/// access to the touchpad and /dev/uinput (the nodes as the kernel makes
/// them, root's, mode 0600), with it (group `input`, as the udev rule sets
/// them), and with the group granted in /etc/group but not yet to the session.
extension VMSuite {
    func doctor() throws {
        let (pad, _) = try open(devices.synaptics)
        guard let node = pad.devnode else { throw CheckFailure("uinput gave no devnode") }
        let input: gid_t = 105
        let nodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/input")) ?? []).filter { $0.hasPrefix("event") }
        func setNodes(group: gid_t, mode: mode_t, uinputMode: mode_t) {
            for name in nodes { chown("/dev/input/" + name, 0, group); chmod("/dev/input/" + name, mode) }
            chown("/dev/uinput", 0, group)
            chmod("/dev/uinput", uinputMode)
        }
        func doctor(gid: gid_t, members: String) throws -> (status: Int32, checks: [String: [String: Any]], text: String) {
            try "root:x:0:\ninput:x:\(input):\(members)\nnogroup:x:65534:\n".write(toFile: "/etc/group", atomically: true, encoding: .utf8)
            let (status, out, err) = try runGesturesAs(uid: 65534, gid: gid, ["doctor", "--format", "json"])
            let object = (try? JSONSerialization.jsonObject(with: Data(out.utf8))) as? [String: Any]
            let list = object?["checks"] as? [[String: Any]] ?? []
            try expect(!list.isEmpty, "doctor printed no checks: status \(status), stdout \(out), stderr \(err)")
            var checks: [String: [String: Any]] = [:]
            for check in list { if let area = check["area"] as? String { checks[area] = check } }
            return (status, checks, out)
        }
        defer { setNodes(group: 0, mode: 0o600, uinputMode: 0o600) }

        // 1. As the kernel makes the nodes, and no udev rule: neither the pad nor uinput.
        setNodes(group: 0, mode: 0o600, uinputMode: 0o600)
        var run = try doctor(gid: 65534, members: "")
        try expect(run.status == 1, "no access: status \(run.status)")
        let denied = run.checks["devices"]
        try expect(
            denied?["status"] as? String == "problem"
                && (denied?["summary"] as? String ?? "").contains("the udev rule of gestures is not installed")
                && (denied?["fix"] as? String ?? "").contains("70-gestures.rules"), "no access, devices: \(denied ?? [:])")
        try expect(run.checks["uinput"]?["status"] as? String == "problem", "no access, uinput: \(run.checks["uinput"] ?? [:])")

        // 2. The rule applied and the user's session in `input`: both work.
        setNodes(group: input, mode: 0o640, uinputMode: 0o660)
        run = try doctor(gid: input, members: "nobody")
        let readable = run.checks["devices"]
        let details = readable?["details"] as? [String] ?? []
        try expect(
            readable?["status"] as? String == "ok"
                && details.contains { $0.hasPrefix("touchpad  \(node)") && $0.contains(" mm") && $0.hasSuffix("  readable") },
            "access, devices: \(readable ?? [:])")
        try expect(run.checks["uinput"]?["status"] as? String == "ok", "access, uinput: \(run.checks["uinput"] ?? [:])")

        // 3. In /etc/group, but the session started before: a new login is the fix.
        run = try doctor(gid: 65534, members: "nobody")
        try expect(
            (run.checks["devices"]?["fix"] as? String ?? "").hasPrefix("Log out and back in"),
            "group not active, devices: \(run.checks["devices"] ?? [:])")
        say("VMTEST INFO doctor, group not active: \((run.checks["devices"]?["summary"] as? String) ?? "")")
    }
}
