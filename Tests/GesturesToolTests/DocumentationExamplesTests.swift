import Foundation
import Testing

@Suite("the README's commands and configuration work as written (end to end)")
struct ReadmeTests {
    static func readme() throws -> String {
        try String(contentsOf: ToolRunner.repository.appendingPathComponent("README.md"), encoding: .utf8)
    }

    /// The YAML block after the `readme-config` marker.
    static func firstConfiguration() throws -> String {
        let text = try readme()
        let marker = try #require(text.range(of: "<!-- readme-config"))
        let start = try #require(text.range(of: "```yaml\n", range: marker.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound]) + "\n"
    }

    @Test("the first configuration passes check-config as pasted, and fires as the README shows")
    func firstConfigurationWorks() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("gestures/config.yaml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Self.firstConfiguration().write(to: config, atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": directory.path]
        let check = try ToolRunner.run(["check-config"], environment: environment)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.hasPrefix("\(config.path): valid, version 1: 5 bindings"))
        let run = try ToolRunner.run(
            [
                "run", "--replay", "Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl",
                "Recordings/synthetic/rmi4.2-finger-pinch-out.jsonl",
                "Recordings/synthetic/atmel.1-finger-stroke-circle.jsonl",
            ], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let readme = try Self.readme()
        for line in ["3-finger swipe left", "pinch out to 2.75", "drew a circle", "gestures: done: 3 commands run, 0 failed, 0 dropped"] {
            #expect(run.stderr.contains(line + "\n"), "\(line): \(run.stderr)")
            #expect(readme.contains(line + "\n"), "the README shows \(line)")
        }
    }

    @Test("the two quick-start commands come first and exist")
    func quickStart() throws {
        let text = try Self.readme()
        let quickStart = try #require(text.range(of: "## Quick start"))
        let firstCommand = try #require(text.range(of: "Tools/demo"))
        #expect(firstCommand.lowerBound > quickStart.lowerBound)
        #expect(text[..<quickStart.lowerBound].components(separatedBy: "\n## ").count == 1, "Quick start is the first section")
        for tool in ["Tools/demo", "Tools/test-all", "Tools/install", "Tools/uninstall"] {
            #expect(FileManager.default.isExecutableFile(atPath: ToolRunner.repository.appendingPathComponent(tool).path), "\(tool)")
        }
    }

    @Test("every Docs page the README links to exists (pictures are made elsewhere)")
    func linkedPagesExist() throws {
        let text = try Self.readme()
        var rest = Substring(text)
        var links: Set<String> = []
        while let open = rest.range(of: "](") {
            let target = rest[open.upperBound...].prefix { $0 != ")" }
            links.insert(String(target))
            rest = rest[open.upperBound...]
        }
        #expect(links.contains("Docs/Measurements.md") && links.contains("Docs/Limits.md"))
        for link in links where !link.hasPrefix("http") && !link.hasSuffix(".svg") {
            let file = link.split(separator: "#", maxSplits: 1).first.map(String.init) ?? link
            #expect(FileManager.default.fileExists(atPath: ToolRunner.repository.appendingPathComponent(file).path), "\(link)")
        }
    }
}

@Suite("the README's train-a-shape route warns about what it switches off (end to end)")
struct ReadmeTrainRouteTests {
    @Test("adding the README's engine line to the first configuration warns at each 3-finger swipe binding; --strict fails")
    func trainRouteWarns() throws {
        let readme = try ReadmeTests.readme()
        // Step 1 of "Train a shape and bind it", word for word.
        let section = try #require(readme.range(of: "## Train a shape and bind it"))
        let step = try #require(readme.range(of: "add to the configuration:\n   `", range: section.upperBound..<readme.endIndex))
        let line = readme[step.upperBound...].prefix { $0 != "`" }
        #expect(line == "engine: {touchpadStrokeFingers: 3}")
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("gestures/config.yaml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (ReadmeTests.firstConfiguration() + line + "\n").write(to: config, atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": directory.path]
        let check = try ToolRunner.run(["check-config"], environment: environment)
        #expect(check.status == 0, "warnings never stop the daemon")
        let warnings = check.stderr.split(separator: "\n")
        #expect(
            warnings == [
                "\(config.path): warning: bindings[0].fingers: engine.touchpadStrokeFingers: 3 makes every 3-finger motion on touchpads a drawn stroke, so this 3-finger swipe never fires there",
                "\(config.path): warning: bindings[1].fingers: engine.touchpadStrokeFingers: 3 makes every 3-finger motion on touchpads a drawn stroke, so this 3-finger swipe never fires there",
            ], "\(check.stderr)")
        let strict = try ToolRunner.run(["check-config", "--strict"], environment: environment)
        #expect(strict.status == 1 && strict.stderr == check.stderr)
    }

    @Test("config.json and config.yaml side by side: check-config says which one is ignored")
    func twoFilesWarn() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("gestures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{"version": 1, "bindings": []}"#.write(to: folder.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)
        try "version: 1\nbindings: []\n".write(to: folder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        let check = try ToolRunner.run(["check-config"], environment: ["XDG_CONFIG_HOME": directory.path])
        #expect(check.status == 0)
        #expect(check.stderr == "\(folder.path)/config.json: warning: \(folder.path)/config.yaml is there too and ignored: keep one file\n")
    }
}
