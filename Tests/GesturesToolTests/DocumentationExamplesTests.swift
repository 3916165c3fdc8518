import Foundation
import Testing

@Suite("README.md and Docs/ show what the tool does: every configuration checks, every command prints what is shown (end to end)")
struct DocumentationExamplesTests {
    /// README.md, Recordings/README.md and every page of Docs/.
    static let pages = MarkdownPage.paths()

    @Test("each page's configurations pass check-config as pasted, and its console commands print what it shows", arguments: pages)
    func pageExamples(path: String) throws {
        let session = try MarkdownSession(MarkdownPage(path))
        defer { try? FileManager.default.removeItem(at: session.home) }
        try session.check()
    }

    @Test("the checks find the pages and the examples they are meant to check")
    func examplesAreFound() throws {
        #expect(Self.pages.count >= 14, "\(Self.pages)")
        let pages = Dictionary(uniqueKeysWithValues: try MarkdownPage.all().map { ($0.path, $0) })
        func count(_ path: String, _ language: String, whole: Bool? = nil) -> Int {
            (pages[path]?.blocks ?? []).filter {
                $0.language == language && (whole == nil || ($0.lines.first?.hasPrefix("version:") == true) == whole)
            }.count
        }
        #expect(count("README.md", "yaml", whole: true) == 1, "the README's first configuration")
        #expect(count("README.md", "console") >= 2, "check-config and run --replay --explain")
        #expect(count("Docs/Configuration.md", "yaml", whole: true) >= 2, "the fuller example and the mouse")
        #expect(count("Docs/Configuration.md", "yaml", whole: false) >= 1, "the per-application fragment")
        #expect(count("Docs/Recognizer.md", "console") >= 1 && count("Docs/Recognizer.md", "yaml", whole: false) >= 1)
        #expect(pages["README.md"]?.blocks.first { $0.language == "yaml" }?.marker?.hasPrefix("config first") == true)
    }

    @Test("every binding kind of the README's first configuration fires, and the lines its Try it leaves out are what it says")
    func firstConfigurationFires() throws {
        let readme = try MarkdownPage("README.md")
        let session = try MarkdownSession(readme)
        defer { try? FileManager.default.removeItem(at: session.home) }
        let first = try #require(readme.blocks.first { $0.marker?.hasPrefix("config first") == true })
        try FileManager.default.createDirectory(at: session.configurationFolder, withIntermediateDirectories: true)
        try first.text.write(to: session.configurationFolder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        let run = try session.run(
            "gestures run --replay Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl Recordings/synthetic/rmi4.2-finger-pinch-out.jsonl"
                + " Recordings/synthetic/atmel.1-finger-stroke-circle.jsonl")
        for line in ["3-finger swipe left", "pinch out to 2.75", "drew a circle", "gestures: done: 3 commands run, 0 failed, 0 dropped"] {
            #expect(run.stderr.contains(line), "\(line): \(run.stderr)")
        }
        #expect(run.stderr.contains("gestures: replayed Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl: 40 gesture events"))
        #expect(readme.text.contains("The lines left out are the command's own output, `3-finger swipe left`,\nand `gestures: replayed`"))
    }

    @Test("a console block matches stdout and stderr interleaved, '...' for any lines, and nothing else")
    func consoleMatching() {
        let out = ["a", "b"], err = ["x"]
        #expect(MarkdownSession.matches(["a", "x", "b"], out[...], err[...]))
        #expect(MarkdownSession.matches(["x", "a", "b"], out[...], err[...]))
        #expect(MarkdownSession.matches(["...", "b"], out[...], err[...]))
        #expect(MarkdownSession.matches(["a", "..."], out[...], err[...]))
        #expect(!MarkdownSession.matches(["b", "a", "x"], out[...], err[...]), "each stream keeps its order")
        #expect(!MarkdownSession.matches(["a", "b"], out[...], err[...]), "a line left out")
        #expect(!MarkdownSession.matches(["a", "x", "b", "c"], out[...], err[...]), "a line the tool did not print")
        #expect(!MarkdownSession.matches([], out[...], err[...]))
        let block = MarkdownPage.blocks(of: "<!-- m -->\n  ```console\n  $ one \\\n      two\n  out\n  $ three\n  ```\n")
        #expect(block.count == 1 && block[0].marker == "m")
        let commands = MarkdownSession.commands(in: block[0])
        #expect(commands.map(\.command) == ["one two", "three"] && commands.map(\.output) == [["out"], []])
    }

    @Test("the README is a short page in the order a user needs, with one picture")
    func readmeIsShort() throws {
        let readme = try MarkdownPage("README.md")
        #expect(readme.text.split(separator: "\n", omittingEmptySubsequences: false).count <= 250)
        let sections = readme.text.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) }
        // These, in this order; a short section may come between them (how to set it up in a page, say).
        let order = [
            "Install", "Permissions and `gestures doctor`", "A first configuration", "Try it: `gestures run --replay --explain`",
            "Start the service", "Read more", "For contributors",
        ]
        #expect(sections.first == order.first && sections.last == order.last, "\(sections)")
        #expect(sections.filter(order.contains) == order, "\(sections)")
        // What it is, with one picture; the page's section shows its screenshot.
        let intro = readme.text.components(separatedBy: "\n## ")[0]
        #expect(intro.components(separatedBy: "![").count == 2, "one picture in what it is")
        #expect(readme.text.components(separatedBy: "![").count <= 3, "one picture more at most, the page's")
    }

    @Test("the contributors' two commands exist, and CI runs the test command")
    func contributorsCommands() throws {
        let readme = try MarkdownPage("README.md")
        let section = try #require(readme.text.components(separatedBy: "\n## For contributors\n").dropFirst().first)
        let commands = try #require(MarkdownPage.blocks(of: section).first { $0.language == "sh" }).lines.map {
            $0.split(separator: " ")[0]
        }
        #expect(commands == ["Tools/demo", "Tools/test-all"])
        for tool in commands + ["Tools/install", "Tools/uninstall", "Tools/package"] {
            #expect(
                FileManager.default.isExecutableFile(atPath: ToolRunner.repository.appendingPathComponent(String(tool)).path), "\(tool)")
        }
        let ci = try String(contentsOf: ToolRunner.repository.appendingPathComponent(".ci/run"), encoding: .utf8)
        #expect(ci.split(separator: "\n").contains("Tools/test-all"))
        #expect(section.contains("](Docs/Architecture.md)"), "where the map is")
    }

    @Test("the commands Contributing.md says Tools/demo runs are the ones it runs")
    func demoCommands() throws {
        let demo = try String(contentsOf: ToolRunner.repository.appendingPathComponent("Tools/demo"), encoding: .utf8)
        let block = try #require(try MarkdownPage("Docs/Contributing.md").blocks.first { $0.language == "console" })
        let commands = MarkdownSession.commands(in: block).map(\.command)
        #expect(commands.count == 2)
        let replay = try #require(commands.first).split(separator: " ")
        #expect(
            replay.prefix(5) == ["gestures", "replay", "--ends", "--format", "text"]
                && demo.contains("\"$bin\" replay --ends --format text"))
        let traces = replay.dropFirst(5).map { $0.dropFirst("Recordings/synthetic/".count).dropLast(".jsonl".count) }
        #expect(traces.count == 5)
        for trace in traces { #expect(demo.contains(" \(trace)"), "Tools/demo replays \(trace)") }
        #expect(
            commands.last == "gestures recognize Recordings/strokes/*.json" && demo.contains("\"$bin\" recognize Recordings/strokes/*.json")
        )
    }

    @Test("every page the README and Docs/ link to exists", arguments: pages)
    func linkedPagesExist(path: String) throws {
        let page = try MarkdownPage(path)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().relativePath
        var rest = Substring(page.text)
        var links: Set<String> = []
        while let open = rest.range(of: "](") {
            links.insert(String(rest[open.upperBound...].prefix { $0 != ")" }))
            rest = rest[open.upperBound...]
        }
        for link in links where !link.hasPrefix("http") && !link.hasPrefix("#") {
            let parts = link.split(separator: "#", maxSplits: 1).map(String.init)
            let target = ToolRunner.repository.appendingPathComponent(folder == "." ? parts[0] : folder + "/" + parts[0])
            #expect(FileManager.default.fileExists(atPath: target.path), "\(path) links to \(link)")
            if parts.count == 2, let text = try? String(contentsOf: target, encoding: .utf8) {
                #expect(Self.anchors(of: text).contains(parts[1]), "\(path) links to \(link), a heading \(parts[0]) does not have")
            }
        }
        if path == "README.md" {
            for page in Self.pages where page.hasPrefix("Docs/") {
                #expect(links.contains(page), "the README links \(page)")
            }
        }
    }
}

extension DocumentationExamplesTests {
    /// The anchors GitHub gives the headings of a Markdown page: lower case,
    /// punctuation but `-` and `_` dropped, spaces made `-`.
    static func anchors(of text: String) -> Set<String> {
        Set(
            text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { heading in
                String(
                    heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
                        .filter { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" || $0 == "_" }
                        .map { $0 == " " ? "-" : $0 })
            })
    }
}

@Suite("the train-a-shape route warns about what it switches off (end to end)")
struct TrainRouteTests {
    @Test("adding Recognizer.md's engine line to the README's first configuration warns at each 3-finger swipe binding; --strict fails")
    func trainRouteWarns() throws {
        let page = try MarkdownPage("Docs/Recognizer.md").text
        // Step 1 of "Train a shape and bind it", word for word.
        let section = try #require(page.range(of: "## Train a shape and bind it"))
        let step = try #require(page.range(of: "add to the configuration:\n   `", range: section.upperBound..<page.endIndex))
        let line = page[step.upperBound...].prefix { $0 != "`" }
        #expect(line == "engine: {touchpadStrokeFingers: 3}")
        let first = try #require(try MarkdownPage("README.md").blocks.first { $0.marker?.hasPrefix("config first") == true })
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("gestures/config.yaml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (first.text + line + "\n").write(to: config, atomically: true, encoding: .utf8)
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
