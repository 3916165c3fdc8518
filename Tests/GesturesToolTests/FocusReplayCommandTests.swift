import Foundation
import Testing

@Suite("gestures run --replay --focus: bindings and claims follow a recorded focus (end to end)")
struct FocusReplayCommandTests {
    static let configuration = """
        version: 1
        bindings:
          - {name: back, gesture: swipe, fingers: 3, direction: left, apps: [firefox, "org\\\\.mozilla\\\\.firefox"], action: {command: [echo, back]}}
          - {name: workspace, gesture: swipe, fingers: 3, direction: left, action: {command: [echo, workspace]}}
        """

    /// A recording of `copies` 3-finger swipes left, 2 s apart: the synthetic one, repeated.
    static func swipes(_ copies: Int, into directory: URL) throws -> URL {
        let source = ToolRunner.repository.appendingPathComponent("Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl")
        let lines = try String(contentsOf: source, encoding: .utf8).split(separator: "\n").map(String.init)
        var frames: [[String: Any]] = []
        var events = 0
        for copy in 0..<copies {
            for line in lines.dropFirst() {
                guard var frame = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let time = frame["t"] as? Int
                else { continue }
                frame["t"] = time + copy * 2_000_000
                events += (frame["e"] as? [Any])?.count ?? 0
                frames.append(frame)
            }
        }
        var text = lines[0] + "\n"
        for frame in frames { text += String(decoding: try JSONSerialization.data(withJSONObject: frame), as: UTF8.self) + "\n" }
        text += #"{"end":{"frames":\#(frames.count),"events":\#(events)}}"# + "\n"
        let url = directory.appendingPathComponent("swipes.jsonl")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test("the firefox binding fires only while firefox has the focus, the catch-all elsewhere; claims follow")
    func firefoxOnlyInFirefox() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.yaml")
        try Self.configuration.write(to: config, atomically: true, encoding: .utf8)
        let focus = directory.appendingPathComponent("focus.jsonl")
        try """
        {"time_ms":0,"app":"firefox","title":"Mozilla Firefox"}
        {"time_ms":1500,"app":"foot","title":"~"}
        {"time_ms":3500,"app":"org.mozilla.firefox"}
        {"time_ms":5500,"app":null}

        """.write(to: focus, atomically: true, encoding: .utf8)
        let trace = try Self.swipes(4, into: directory)
        let run = try ToolRunner.run(
            ["run", "--config", config.path, "--explain", "--format", "json", "--focus", focus.path, "--replay", trace.path])
        #expect(run.status == 0, "\(run.stderr)")
        let fired = run.stderr.split(separator: "\n").filter { $0.hasPrefix("gestures: fired ") }.map { $0.split(separator: " ")[2] }
        #expect(fired == ["back", "workspace", "back", "workspace"], "\(run.stderr)")
        let ends = try run.stdout.split(separator: "\n").compactMap { line -> [String: Any]? in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return (object["event"] as? [String: Any])?["phase"] as? String == "end" ? object : nil
        }
        #expect(ends.count == 4)
        let claimed = ends.map { end in
            ((end["bindings"] as? [[String: Any]]) ?? []).filter { $0["claimed"] as? Bool == true }.map { $0["binding"] as? String ?? "" }
        }
        #expect(claimed == [["back"], ["workspace"], ["back"], ["workspace"]], "\(run.stdout)")
        let apps = ends.map { (($0["focus"] as? [String: Any])?["app"] as? String) ?? "none" }
        #expect(apps == ["firefox", "foot", "org.mozilla.firefox", "none"])
        let reasons = ends[1]["bindings"] as? [[String: Any]] ?? []
        #expect(reasons.first?["reason"] as? String == "not this application: its apps do not include the focused application (foot '~')")
        // replay --explain judges the same way with the same focus, running nothing.
        let explained = try ToolRunner.run(
            ["replay", "--explain", "--config", config.path, "--format", "json", "--focus", focus.path, trace.path])
        #expect(explained.status == 0 && explained.stdout == run.stdout, "\(explained.stderr)")
        #expect(!explained.stderr.contains("gestures: fired "), "\(explained.stderr)")
        let unfocused = try ToolRunner.run(["replay", "--focus", focus.path, trace.path])
        #expect(unfocused.status == 64 && unfocused.stderr.contains("it needs --explain"), "\(unfocused.stderr)")
    }

    @Test("Configuration.md's per-application example passes check-config, which says where each binding applies")
    func documentedExample() throws {
        let block = try #require(
            try MarkdownPage("Docs/Configuration.md").blocks.first {
                $0.language == "yaml" && $0.lines.dropFirst().first?.hasPrefix("  - {name: back,") == true
            })
        let yaml = "version: 1\n" + block.text
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.yaml")
        try yaml.write(to: config, atomically: true, encoding: .utf8)
        let check = try ToolRunner.run(["check-config", config.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("back: 3-finger swipe left only in firefox or org\\.mozilla\\.firefox, on end"), "\(check.stdout)")
        #expect(check.stdout.contains("where back applies, it replaces next workspace"), "\(check.stdout)")
        #expect(check.stderr.isEmpty, "no warning: \(check.stderr)")
    }

    @Test("check-config says where mouse stroke bindings apply and which claim the mouse's stroke button")
    func mouseStrokeBindings() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.yaml")
        try """
        version: 1
        mouse: {}
        bindings:
          - {name: tab, gesture: stroke, template: circle, apps: [firefox], action: {command: [tab]}}
          - {name: note, gesture: stroke, template: triangle, claim: false, action: {command: [note]}}
        """.write(to: config, atomically: true, encoding: .utf8)
        let check = try ToolRunner.run(["check-config", config.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stdout.contains(
                "tab: stroke 'circle' only in firefox, on end: tab (claimed from a mouse: its stroke button kept from applications where the binding applies)"
            ), "\(check.stdout)")
        let note = try #require(check.stdout.split(separator: "\n").first { $0.hasPrefix("note: ") })
        #expect(!note.contains("claimed"), "\(note)")
        // Without a mouse section no mouse is read, so nothing is claimed from one.
        try String(try String(contentsOf: config, encoding: .utf8).replacingOccurrences(of: "mouse: {}\n", with: ""))
            .write(to: config, atomically: true, encoding: .utf8)
        let noMouse = try ToolRunner.run(["check-config", config.path])
        #expect(noMouse.status == 0, "\(noMouse.stderr)")
        #expect(noMouse.stdout.contains("tab: stroke 'circle' only in firefox, on end: tab\n"), "\(noMouse.stdout)")
        #expect(!noMouse.stdout.contains("mouse"), "\(noMouse.stdout)")
    }

    @Test("a bad focus file or --focus without --replay is one sentence")
    func badFocus() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.yaml")
        try Self.configuration.write(to: config, atomically: true, encoding: .utf8)
        let focus = directory.appendingPathComponent("focus.jsonl")
        try "{\"time_ms\":0,\"appp\":\"x\"}\n".write(to: focus, atomically: true, encoding: .utf8)
        let bad = try ToolRunner.run(
            ["run", "--config", config.path, "--focus", focus.path, "--replay", "Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("line 1: unknown key 'appp'; did you mean 'app'?"), "\(bad.stderr)")
        let usage = try ToolRunner.run(["run", "--config", config.path, "--focus", focus.path])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("--focus gives a replay its focused windows; it needs --replay"), "\(usage.stderr)")
    }
}
