import Foundation
import Testing

/// The examples of one Markdown page (README.md or a page of Docs/): its
/// fenced blocks in order, each with the HTML comment just before it.
///
/// What the documentation tests make of them (see DocumentationExamplesTests):
/// - a ```yaml block that starts with `version:` is a whole configuration, and
///   passes `gestures check-config` as pasted into an empty home, with no warning;
/// - a ```yaml block that does not is a fragment: with `version: 1` before it,
///   it passes `check-config` in the page's home, where the commands of the
///   page's earlier ```console blocks have run (a library they trained);
/// - a ```console block is a terminal session: each line `$ COMMAND` (a
///   trailing `\` continues it) runs under bash in the repository, in the
///   page's home, and the lines after it are what it prints, standard output
///   and standard error interleaved as a terminal shows them; a line `...`
///   stands for any number of lines;
/// - `<!-- config NAME ... -->` before a whole configuration also writes it to
///   the page's home as `~/.config/gestures/config.yaml`, where the later
///   commands of the page find it.
struct MarkdownPage {
    /// One fenced block.
    struct Block {
        /// The word after the opening fence (`yaml`, `console`, `sh`...).
        var language: String
        /// The lines between the fences, their common indentation removed.
        var lines: [String]
        /// The HTML comment on the last non-blank line before the fence, without `<!--` and `-->`.
        var marker: String?
        /// The line of the opening fence (1-based), for messages.
        var line: Int

        /// The block's text, ending with a newline.
        var text: String { lines.joined(separator: "\n") + "\n" }
    }

    /// The page's path in the repository (`README.md`, `Docs/Configuration.md`).
    var path: String
    /// The page's text.
    var text: String
    /// Its fenced blocks, in order.
    var blocks: [Block]

    /// The page at `path` in the repository.
    init(_ path: String) throws {
        self.path = path
        text = try String(contentsOf: ToolRunner.repository.appendingPathComponent(path), encoding: .utf8)
        blocks = Self.blocks(of: text)
    }

    /// The pages the documentation tests read: README.md, Recordings/README.md
    /// and every page of Docs/ (none of Docs/ when it cannot be listed, which
    /// `DocumentationExamplesTests.examplesAreFound` catches).
    static func paths() -> [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: ToolRunner.repository.appendingPathComponent("Docs").path)) ?? []
        return ["README.md", "Recordings/README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }
    }

    /// Every page of `paths()`.
    static func all() throws -> [MarkdownPage] { try paths().map(MarkdownPage.init) }

    static func blocks(of text: String) -> [Block] {
        var blocks: [Block] = []
        var open: (language: String, indent: Int, marker: String?, line: Int)?
        var lines: [String] = []
        var lastText: String?
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.drop { $0 == " " }
            if let current = open {
                if trimmed.hasPrefix("```") && trimmed.allSatisfy({ $0 == "`" }) {
                    blocks.append(Block(language: current.language, lines: lines, marker: current.marker, line: current.line))
                    open = nil
                    lastText = nil
                } else {
                    lines.append(String(line.dropFirst(min(current.indent, line.prefix { $0 == " " }.count))))
                }
            } else if trimmed.hasPrefix("```") {
                let marker = lastText.flatMap { text -> String? in
                    guard text.hasPrefix("<!--") && text.hasSuffix("-->") else { return nil }
                    return text.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
                }
                open = (String(trimmed.dropFirst(3)), line.count - trimmed.count, marker, index + 1)
                lines = []
            } else if !trimmed.isEmpty {
                lastText = String(trimmed)
            }
        }
        return blocks
    }
}

/// One page's examples run in order, in a home of their own.
struct MarkdownSession {
    let page: MarkdownPage
    /// The page's home (`$HOME`), empty at the start.
    let home: URL
    /// What stands for `home` in the output the page shows.
    static let shownHome = "/home/me"

    init(_ page: MarkdownPage) throws {
        self.page = page
        home = try ToolRunner.temporaryDirectory()
    }

    /// The folder of the default configuration, `~/.config/gestures`.
    var configurationFolder: URL { home.appendingPathComponent(".config/gestures") }

    /// Runs every example of the page and records each difference as an issue.
    func check() throws {
        for block in page.blocks {
            let place = "\(page.path):\(block.line)"
            switch block.language {
            case "yaml" where block.lines.first?.hasPrefix("version:") == true:
                let pasted = try Self.checkConfiguration(block.text, home: try ToolRunner.temporaryDirectory(), removing: true)
                #expect(
                    pasted.status == 0, "\(place): this configuration fails check-config as pasted into an empty home: \(pasted.stderr)")
                #expect(pasted.stderr.isEmpty, "\(place): check-config warns about this configuration as pasted: \(pasted.stderr)")
                if let marker = block.marker, marker.hasPrefix("config ") {
                    try FileManager.default.createDirectory(at: configurationFolder, withIntermediateDirectories: true)
                    try block.text.write(to: configurationFolder.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
                }
            case "yaml":
                let fragment = try Self.checkConfiguration("version: 1\n" + block.text, home: home, removing: false)
                #expect(fragment.status == 0, "\(place): this fragment, after 'version: 1', fails check-config: \(fragment.stderr)")
            case "console":
                for example in Self.commands(in: block) {
                    let run = try self.run(example.command)
                    let shown = example.output
                    let printed =
                        "on standard output:\n\(run.stdout.joined(separator: "\n"))\nand on standard error:\n\(run.stderr.joined(separator: "\n"))"
                    #expect(
                        Self.matches(shown[...], run.stdout[...], run.stderr[...]),
                        "\(place): '$ \(example.command)' printed, \(printed)\nbut the page shows:\n\(shown.joined(separator: "\n"))")
                }
            default: break
            }
        }
    }

    /// Writes `configuration` to a file in `home`'s configuration folder and runs `check-config` on it there.
    static func checkConfiguration(_ configuration: String, home: URL, removing: Bool) throws -> ToolRunner.Run {
        defer { if removing { try? FileManager.default.removeItem(at: home) } }
        let folder = home.appendingPathComponent(".config/gestures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("example-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try configuration.write(to: file, atomically: true, encoding: .utf8)
        return try ToolRunner.run(
            ["check-config", file.path], environment: ["HOME": home.path, "XDG_CONFIG_HOME": folder.deletingLastPathComponent().path])
    }

    /// The commands of a console block and the lines shown after each.
    static func commands(in block: MarkdownPage.Block) -> [(command: String, output: [String])] {
        var examples: [(command: String, output: [String])] = []
        var continuing = false
        for line in block.lines {
            if continuing, var last = examples.popLast() {
                last.command = String(last.command.dropLast()) + line.trimmingCharacters(in: .whitespaces)
                continuing = last.command.hasSuffix("\\")
                examples.append(last)
            } else if line.hasPrefix("$ ") {
                examples.append((String(line.dropFirst(2)), []))
                continuing = line.hasSuffix("\\")
            } else if !examples.isEmpty {
                examples[examples.count - 1].output.append(line)
            }
        }
        return examples
    }

    /// Runs `command` under bash in the repository with `gestures` the built
    /// tool, in a clean environment whose home is the page's; the output
    /// lines with the home written as `shownHome`.
    func run(_ command: String) throws -> (stdout: [String], stderr: [String]) {
        let environment = [
            "PATH=\(ToolRunner.executable.deletingLastPathComponent().path):/usr/local/bin:/usr/bin:/bin",
            "HOME=\(home.path)", "LANG=C.UTF-8", "TERM=dumb",
        ]
        let run = try ToolRunner.run(
            ["-i"] + environment + ["/bin/bash", "-c", command], executable: URL(fileURLWithPath: "/usr/bin/env"))
        func lines(_ text: String) -> [String] {
            let shown = text.replacingOccurrences(of: home.path, with: Self.shownHome)
            return shown.isEmpty
                ? []
                : shown.split(separator: "\n", omittingEmptySubsequences: false).dropLast(shown.hasSuffix("\n") ? 1 : 0).map(String.init)
        }
        return (lines(run.stdout), lines(run.stderr))
    }

    /// Whether `shown` is `stdout` and `stderr` interleaved (each in its own
    /// order), a line `...` standing for any number of lines of either.
    static func matches(_ shown: ArraySlice<String>, _ stdout: ArraySlice<String>, _ stderr: ArraySlice<String>) -> Bool {
        var memo: [[Int]: Bool] = [:]
        func match(_ i: Int, _ j: Int, _ k: Int) -> Bool {
            if let known = memo[[i, j, k]] { return known }
            let result: Bool
            if i == shown.endIndex {
                result = j == stdout.endIndex && k == stderr.endIndex
            } else if shown[i] == "..." {
                result =
                    match(i + 1, j, k) || (j < stdout.endIndex && match(i, j + 1, k)) || (k < stderr.endIndex && match(i, j, k + 1))
            } else {
                result =
                    (j < stdout.endIndex && stdout[j] == shown[i] && match(i + 1, j + 1, k))
                    || (k < stderr.endIndex && stderr[k] == shown[i] && match(i + 1, j, k + 1))
            }
            memo[[i, j, k]] = result
            return result
        }
        return match(shown.startIndex, stdout.startIndex, stderr.startIndex)
    }
}
