import Foundation
import Testing

/// `replay`, `watch` and `train` read the daemon's configuration file, with
/// the same checks and messages as `check-config`.
@Suite("one configuration file for every command (end to end)")
struct ConfigurationFileTests {
    static func trace(_ name: String) -> String {
        ToolRunner.repository.appendingPathComponent("Recordings/synthetic/\(name).jsonl").path
    }

    /// A temporary XDG_CONFIG_HOME, with `text` as gestures/NAME when given.
    static func configHome(_ text: String? = nil, name: String = "config.yaml") throws -> URL {
        let home = try ToolRunner.temporaryDirectory()
        if let text {
            try FileManager.default.createDirectory(at: home.appendingPathComponent("gestures"), withIntermediateDirectories: true)
            try text.write(to: home.appendingPathComponent("gestures/\(name)"), atomically: true, encoding: .utf8)
        }
        return home
    }

    @Test(
        "a misspelt engine key fails replay and watch with check-config's message",
        arguments: [
            ("config.yaml", "version: 1\nengine:\n  swipeThresholdMilimeters: 8\n"),
            (
                "config.json",
                #"{"version": 1, "engine": {"swipeThresholdMilimeters": 8}, "sequences": [{"name": "x", "directions": ["up"], "extra": 1}]}"#
            ),
        ])
    func misspeltKeyFailsAsCheckConfig(name: String, text: String) throws {
        let home = try Self.configHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        let check = try ToolRunner.run(["check-config", file.path])
        #expect(check.status == 1)
        #expect(
            check.stderr.contains("\(file.path): engine.swipeThresholdMilimeters: unknown key; did you mean 'swipeThresholdMillimeters'?"),
            "\(check.stderr)")
        let replay = try ToolRunner.run(["replay", "--config", file.path, Self.trace("x1carbon.3-finger-swipe-left")])
        #expect(replay.status == 1)
        #expect(replay.stderr == check.stderr)
        #expect(replay.stdout.isEmpty)
        // watch reads the file before it opens any device.
        let watch = try ToolRunner.run(["watch", "--config", file.path, "--dir", home.path])
        #expect(watch.status == 1)
        #expect(watch.stderr == check.stderr)
    }

    @Test("check-config suggests the kernel's key names for the ones people type")
    func keyNameSuggestions() throws {
        let home = try Self.configHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("config.yaml")
        try "version: 1\nbindings:\n  - gesture: swipe\n    fingers: 4\n    action: {keys: [super, rihgt]}\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let check = try ToolRunner.run(["check-config", file.path])
        #expect(check.status == 1)
        let lines = check.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(check.stderr)")
        #expect(
            lines.first?.hasPrefix("\(file.path): bindings[0].action.keys[0]: unknown key 'super'; did you mean 'leftmeta'?") == true,
            "\(check.stderr)")
        #expect(
            lines.last?.hasPrefix("\(file.path): bindings[0].action.keys[1]: unknown key 'rihgt'; did you mean 'right'?") == true,
            "\(check.stderr)")
    }

    @Test("the default file is found as run finds it, and its sequences are used")
    func defaultFileIsRead() throws {
        let home = try Self.configHome("version: 1\nsequences:\n  - {name: back-and-forth, directions: [left, right]}\n")
        defer { try? FileManager.default.removeItem(at: home) }
        let name = "rmi4.3-finger-sequence-back-and-forth"
        let expected = try String(
            contentsOfFile: ToolRunner.repository.appendingPathComponent("Recordings/synthetic/\(name).expected.jsonl").path,
            encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": home.path]
        let replay = try ToolRunner.run(["replay", Self.trace(name)], environment: environment)
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout == expected)
        #expect(expected.contains(#""type":"sequence""#))
        // --no-config ignores it: no sequences, so no sequence event.
        let ignored = try ToolRunner.run(["replay", "--no-config", Self.trace(name)], environment: environment)
        #expect(ignored.status == 0)
        #expect(!ignored.stdout.contains(#""type":"sequence""#) && !ignored.stdout.isEmpty)
    }

    @Test("'~' in templates: is $HOME, as in a shell, and a relative path is beside the configuration")
    func templatesTildeIsHome() throws {
        let home = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let library = home.appendingPathComponent("shapes.json").path
        let circle = ToolRunner.repository.appendingPathComponent("Recordings/strokes/circle.json").path
        #expect(try ToolRunner.run(["train", "--library", library, "--name", "round", circle, "--no-config"]).status == 0)
        let config = home.appendingPathComponent("config.yaml")
        for written in ["~/shapes.json", "shapes.json"] {
            try "version: 1\ntemplates: \(written)\n".write(to: config, atomically: true, encoding: .utf8)
            let check = try ToolRunner.run(["check-config", config.path], environment: ["HOME": home.path])
            #expect(check.status == 0, "\(written): \(check.stderr)")
            #expect(check.stdout.contains("templates \(written) (1 shape)"), "\(check.stdout)")
        }
    }

    @Test("without a default file, replay uses the engine's defaults")
    func noDefaultFile() throws {
        let home = try Self.configHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let name = "x1carbon.3-finger-swipe-left"
        let expected = try String(
            contentsOfFile: ToolRunner.repository.appendingPathComponent("Recordings/synthetic/\(name).expected.jsonl").path,
            encoding: .utf8)
        let replay = try ToolRunner.run(["replay", Self.trace(name)], environment: ["XDG_CONFIG_HOME": home.path])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout == expected)
    }

    @Test("the engine section sets the thresholds: a swipe shorter than the threshold is no swipe")
    func engineSectionApplies() throws {
        let home = try Self.configHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let file = home.appendingPathComponent("config.json")
        try #"{"version": 1, "engine": {"swipeThresholdMillimeters": 60}}"#.write(to: file, atomically: true, encoding: .utf8)
        let trace = Self.trace("x1carbon.3-finger-swipe-left")  // 36.6 mm
        let strict = try ToolRunner.run(["replay", "--ends", "--config", file.path, trace])
        #expect(strict.status == 0, "\(strict.stderr)")
        // It begins at 1.5 mm, as it does with the defaults, and ends cancelled.
        #expect(!strict.stdout.contains(#""cancelled":false"#))
        #expect(strict.stdout.contains(#""type":"swipe","phase":"end""#))
        let defaults = try ToolRunner.run(["replay", "--ends", "--no-config", trace])
        #expect(defaults.stdout.contains(#""fingers":3,"cancelled":false"#))
    }

    @Test("--sequences replaces the file's sequences; --config and --no-config do not combine")
    func sequencesReplaceTheFiles() throws {
        let home = try Self.configHome("version: 1\nsequences:\n  - {name: other, directions: [up, down]}\n")
        defer { try? FileManager.default.removeItem(at: home) }
        let name = "rmi4.3-finger-sequence-back-and-forth"
        let sequences = ToolRunner.repository.appendingPathComponent("Recordings/synthetic/\(name).sequences.json").path
        let environment = ["XDG_CONFIG_HOME": home.path]
        let replay = try ToolRunner.run(["replay", "--ends", "--sequences", sequences, Self.trace(name)], environment: environment)
        #expect(replay.stdout.contains(#""name":"back-and-forth""#), "\(replay.stderr)")
        let both = try ToolRunner.run(["replay", "--config", "x.yaml", "--no-config", Self.trace(name)])
        #expect(both.status == 64)
        #expect(both.stderr == "gestures replay: --config and --no-config cannot be combined (see 'gestures replay --help').\n")
    }

    @Test("a --config file that does not exist is one line naming it")
    func missingFile() throws {
        let run = try ToolRunner.run(["replay", "--config", "/no/such/config.yaml", Self.trace("x1carbon.3-finger-swipe-left")])
        #expect(run.status == 1)
        #expect(run.stderr == "gestures replay: /no/such/config.yaml: no such file (there is no folder /no/such).\n")
    }
}
