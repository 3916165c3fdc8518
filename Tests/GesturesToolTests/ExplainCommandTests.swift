import Foundation
import Testing

@Suite("gestures run --explain: why each binding fired or not (end to end)")
struct ExplainCommandTests {
    static let configuration = """
        version: 1
        bindings:
          - {name: next, gesture: swipe, fingers: 3, direction: left, action: {command: [echo, next]}}
          - {name: previous, gesture: swipe, fingers: 3, direction: right, action: {command: [echo, previous]}}
          - {name: four, gesture: swipe, fingers: 4, action: {command: [echo, four]}}
          - {name: screen, gesture: swipe, fingers: 3, device: {name: ".*Touchscreen.*"}, action: {command: [echo, screen]}}
          - {name: far, gesture: swipe, fingers: 3, minimumDistanceMillimeters: 80, action: {command: [echo, far]}}
          - {name: two, gesture: swipe, fingers: 3, direction: left, claim: false, action: {command: [echo, two]}}
          - {name: tap, gesture: tap, fingers: 3, action: {command: [echo, tap]}}
        """

    static let swipe = "Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl"

    static func run(_ extra: [String]) throws -> ToolRunner.Run {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.yaml")
        try configuration.write(to: config, atomically: true, encoding: .utf8)
        return try ToolRunner.run(
            ["run", "--config", config.path, "--explain"] + extra
                + ["--replay", swipe])
    }

    @Test("a 3-finger swipe left: each binding of its kind gets its verdict, with the figures")
    func textVerdicts() throws {
        let run = try Self.run([])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let end = try #require(lines.firstIndex { $0.contains("swipe end  3 fingers  left") }, "\(run.stdout)")
        #expect(lines[end].hasSuffix("on 'SynPS/2 Synaptics TouchPad'"))
        #expect(
            Array(lines[(end + 1)...].prefix(6)) == [
                "  next: fired (claimed: kept from the desktop while intercepting)",
                "  previous: not this direction: it wants right, the gesture went left",
                "  four: not this finger count: it wants 4",
                "  screen: not this device: its device filter does not take it",
                "  far: too short: 36.6 of 80 mm",
                "  two: fired (passed to the desktop too: the binding says claim: false)",
            ], "\(run.stdout)")
        #expect(!lines.contains { $0.contains("tap") }, "bindings of other kinds are not listed")
        #expect(lines.first?.contains("swipe begin") == true && lines.contains("  next: waits for the end of the gesture"))
        #expect(!lines.contains { $0.contains("swipe update") }, "updates on which nothing fired are left out")
    }

    @Test("--format json: one object per gesture, with each binding's verdict")
    func jsonVerdicts() throws {
        let run = try Self.run(["--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let objects = try run.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let end = try #require(objects.first { ($0["event"] as? [String: Any])?["phase"] as? String == "end" })
        #expect(end["device"] as? String == "SynPS/2 Synaptics TouchPad")
        let bindings = end["bindings"] as? [[String: Any]] ?? []
        #expect(bindings.map { $0["binding"] as? String ?? "" } == ["next", "previous", "four", "screen", "far", "two"])
        #expect(bindings.map { $0["fired"] as? Bool ?? false } == [true, false, false, false, false, true])
        #expect(bindings[0]["claimed"] as? Bool == true && bindings[5]["claimed"] as? Bool == false)
        #expect(bindings[4]["reason"] as? String == "too short: 36.6 of 80 mm")
    }

    @Test("replay --explain judges the bindings as run --replay --explain does, in text and JSON, and runs nothing")
    func replayExplains() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("ran")
        let config = directory.appendingPathComponent("config.yaml")
        let touching = Self.configuration.replacingOccurrences(of: "[echo, next]", with: "[touch, \(marker.path)]")
        try touching.write(to: config, atomically: true, encoding: .utf8)
        for format in ["text", "json"] {
            let explained = try ToolRunner.run(["replay", "--explain", "--config", config.path, "--format", format, Self.swipe])
            let ran = try ToolRunner.run(["run", "--explain", "--config", config.path, "--format", format, "--replay", Self.swipe])
            #expect(explained.status == 0 && ran.status == 0, "\(explained.stderr)\(ran.stderr)")
            #expect(!explained.stdout.isEmpty && explained.stdout == ran.stdout, "\(explained.stdout)\n---\n\(ran.stdout)")
            #expect(explained.stderr.contains("explaining \(config.path): 7 bindings; nothing runs"), "\(explained.stderr)")
            #expect(!explained.stderr.contains("done:"), "nothing ran, so there is no summary of commands: \(explained.stderr)")
        }
        // replay ran nothing; run did (the "next" binding fired: its command made the marker).
        #expect(FileManager.default.fileExists(atPath: marker.path))
        try FileManager.default.removeItem(at: marker)
        _ = try ToolRunner.run(["replay", "--explain", "--config", config.path, Self.swipe])
        #expect(!FileManager.default.fileExists(atPath: marker.path), "replay --explain ran a command")
        // The default format is the readable one.
        let plain = try ToolRunner.run(["replay", "--explain", "--config", config.path, Self.swipe])
        #expect(plain.stdout.contains("  next: fired (claimed: kept from the desktop while intercepting)"), "\(plain.stdout)")
    }

    @Test("replay --explain needs a configuration, and says so in one line")
    func replayExplainNeedsAConfiguration() throws {
        let run = try ToolRunner.run(["replay", "--explain", "--no-config", Self.swipe])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(
            run.stderr.hasPrefix("gestures replay: --explain judges a configuration's bindings; drop --no-config, or give --config PATH"),
            "\(run.stderr)")
        let ends = try ToolRunner.run(["replay", "--explain", "--ends", "--no-config", Self.swipe])
        #expect(ends.status == 64 && ends.stderr.contains("--explain shows every gesture's verdicts; drop --ends"), "\(ends.stderr)")
    }
}
