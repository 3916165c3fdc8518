import Foundation
import TestSupport
import Testing

/// What `gestures --help` and `gestures CMD --help` list: the truth the man
/// page and the completions must agree with.
enum HelpListing {
    /// The listed subcommands.
    static func subcommands() throws -> [String] {
        let help = try ToolRunner.run(["--help"]).stdout
        let section = help.components(separatedBy: "SUBCOMMANDS:\n")[1].components(separatedBy: "\n\n")[0]
        let names = section.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .map { String($0.split(separator: " ")[0]) }
        // A listing read wrong would leave every check over it passing on nothing.
        return try TestFiles.required(names, minimum: 10, "subcommands read from gestures --help")
    }

    /// Every name of every option of `command` (`-o` and `--output`), `--help` included.
    static func options(of command: String) throws -> [String] {
        try HintTests.options(of: command).sorted()
    }
}

/// Where `program` is installed, or nil.
private func installedProgram(_ program: String) -> String? {
    ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + program }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Runs `program` with `arguments`; nil when the program is not installed.
private func runProgram(_ program: String, _ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String)? {
    guard let path = installedProgram(program) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite("the man page and shell completions come from the option tables (end to end)")
struct DocumentationTests {
    static func generated(_ arguments: [String]) throws -> String {
        let run = try ToolRunner.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout
    }

    /// `text` as the man page escapes it.
    static func roff(_ text: String) -> String { text.replacingOccurrences(of: "-", with: "\\-") }

    @Test("the man page has a section for every subcommand and every option in it")
    func manualListsEverything() throws {
        let page = try Self.generated(["generate-manual"])
        #expect(page.hasPrefix(".TH GESTURES 1 "))
        let sections = page.components(separatedBy: "\n.SS ")
        for command in try HelpListing.subcommands() {
            let section = try #require(
                sections.first { $0.hasPrefix(Self.roff("gestures \(command)") + "\n") }, "no section for \(command)")
            for option in try HelpListing.options(of: command) where option != "--help" {
                #expect(section.contains("\\fB\(Self.roff(option))\\fR"), "\(command): \(option)")
            }
        }
        #expect(!page.contains("generate\\-manual"), "hidden commands stay hidden")
    }

    /// The man page's section `title`, up to the next one.
    static func manualSection(_ title: String) throws -> String {
        let page = try generated(["generate-manual"])
        let start = try #require(page.range(of: "\n.SH \(title)\n"), "no \(title) section")
        let rest = page[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n.SH ")?.lowerBound ?? rest.endIndex)])
    }

    @Test("the man page's CONFIGURATION has every top-level key the reader takes, and an example that passes check-config")
    func manualHasTheConfiguration() throws {
        let section = try Self.manualSection("CONFIGURATION")
        // The reader's own list of keys, as its error for an unknown one gives it.
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let probe = directory.appendingPathComponent("probe.json")
        try #"{"version": 1, "zzz": 1}"#.write(to: probe, atomically: true, encoding: .utf8)
        let error = try ToolRunner.run(["check-config", probe.path]).stderr
        let keys = try #require(error.components(separatedBy: "expected one of ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
            .components(separatedBy: ", ")
        #expect(keys.count >= 9, "\(error)")
        for key in keys { #expect(section.contains("\n\(key): "), "\(key)") }
        #expect(section.contains("\naction.every: ") && section.contains("\nfingers: "), "a binding's keys, from the reader's form")
        // The example, as the page shows it, pasted into a file.
        let literal = try #require(section.components(separatedBy: ".nf\n").last?.components(separatedBy: "\n.fi").first)
        let example = literal.split(separator: "\n").map { String($0.dropFirst(2)).replacingOccurrences(of: "\\-", with: "-") }
            .joined(separator: "\n")
        let file = directory.appendingPathComponent("config.yaml")
        try example.write(to: file, atomically: true, encoding: .utf8)
        let check = try ToolRunner.run(["check-config", file.path], environment: ["HOME": directory.path])
        #expect(check.status == 0 && check.stderr.isEmpty, "\(example)\n\(check.stderr)")
    }

    @Test("the man page's FILES puts config.json first, as it is read first, and names the package's paths; ENVIRONMENT has GESTURE_SOURCE")
    func manualFilesAndEnvironment() throws {
        let files = try Self.manualSection("FILES")
        let json = try #require(files.range(of: "config.json")), yaml = try #require(files.range(of: "config.yaml"))
        #expect(json.lowerBound < yaml.lowerBound)
        // Every file Tools/package installs under /usr/lib, named in the page.
        let package = try String(contentsOf: ToolRunner.repository.appendingPathComponent("Tools/package"), encoding: .utf8)
        let installed = package.matches(of: /"\$stage(\/usr\/lib\/[^"]+\.(?:rules|service))"/).map { String($0.1) }
        #expect(installed.count == 2, "\(installed)")
        for path in installed { #expect(files.contains(Self.roff(path)), "\(path)") }
        #expect(files.contains("/etc/udev/rules.d/70\\-gestures.rules"))
        #expect(try Self.manualSection("ENVIRONMENT").contains("GESTURE_SOURCE"))
    }

    @Test("man renders the page without warnings", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man")))
    func manRendersThePage() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("gestures.1")
        try Self.generated(["generate-manual"]).write(to: file, atomically: true, encoding: .utf8)
        let rendered = try #require(try runProgram("man", ["--warnings", "-l", "-P", "cat", file.path]))
        #expect(rendered.status == 0)
        // groff's own warnings (`troff:<file>:12: warning: ...`), not the word in the page's text.
        #expect(!rendered.output.contains(": warning"), "\(rendered.output)")
        #expect(rendered.output.contains("gestures replay"))
    }

    @Test("bash completes every subcommand and, after one, every option of it")
    func bashCompletesEverything() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("gestures.bash")
        try Self.generated(["generate-completion", "bash"]).write(to: script, atomically: true, encoding: .utf8)
        let commands = try HelpListing.subcommands()
        var probe = "source \(script.path)\n"
        probe += "COMP_WORDS=(gestures ''); COMP_CWORD=1; _gestures; echo \"top: ${COMPREPLY[*]}\"\n"
        for command in commands {
            probe += "COMP_WORDS=(gestures \(command) -); COMP_CWORD=2; _gestures; echo \"\(command): ${COMPREPLY[*]}\"\n"
        }
        probe += "COMP_WORDS=(gestures replay --format ''); COMP_CWORD=3; _gestures; echo \"format: ${COMPREPLY[*]}\"\n"
        let result = try #require(try runProgram("bash", ["-c", probe]))
        #expect(result.status == 0, "\(result.output)")
        var replies: [String: Set<String>] = [:]
        for line in result.output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            replies[String(parts[0])] = Set((parts.count > 1 ? parts[1] : "").split(separator: " ").map(String.init))
        }
        #expect(replies["top"] == Set(commands + ["help", "--help", "--version"]))
        for command in commands {
            #expect(replies[command] == Set(try HelpListing.options(of: command)), "\(command)")
        }
        #expect(replies["format"] == ["text", "json"])
    }

    @Test("zsh's script lists every subcommand and option")
    func zshListsEverything() throws {
        let script = try Self.generated(["generate-completion", "zsh"])
        #expect(script.hasPrefix("#compdef gestures\n"))
        for command in try HelpListing.subcommands() {
            #expect(script.contains("'\(command):"), "\(command) in the list")
            let start = try #require(script.range(of: "\n    \(command))\n"), "no case for \(command)")
            let end = try #require(script.range(of: " ;;\n", range: start.upperBound..<script.endIndex))
            let block = script[start.upperBound..<end.lowerBound]
            for option in try HelpListing.options(of: command) {
                #expect(
                    block.contains("\(option)[") || block.contains("{\(option),") || block.contains(",\(option)}"), "\(command): \(option)")
            }
        }
    }

    @Test("zsh parses its script", .enabled(if: installedProgram("zsh") != nil, "zsh is not installed (Debian: zsh)"))
    func zshParsesItsScript() throws {
        let script = try Self.generated(["generate-completion", "zsh"])
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("_gestures")
        try script.write(to: file, atomically: true, encoding: .utf8)
        let check = try #require(try runProgram("zsh", ["-n", file.path]))
        #expect(check.status == 0, "\(check.output)")
    }

    @Test("fish's script names every subcommand and, after one, every option of it")
    func fishScriptListsEverything() throws {
        let script = try Self.generated(["generate-completion", "fish"])
        for command in try HelpListing.subcommands() {
            for option in try HelpListing.options(of: command) where option != "--help" {
                let flag = option.hasPrefix("--") ? "-l \(option.dropFirst(2))" : "-s \(option.dropFirst())"
                #expect(script.contains("'__fish_seen_subcommand_from \(command)'") && script.contains(flag), "\(command): \(option)")
            }
        }
    }

    @Test(
        "fish completes every subcommand and, after one, every option of it",
        .enabled(if: installedProgram("fish") != nil, "fish is not installed (Debian: fish)"))
    func fishCompletesEverything() throws {
        let script = try Self.generated(["generate-completion", "fish"])
        let commands = try HelpListing.subcommands()
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("gestures.fish")
        try script.write(to: file, atomically: true, encoding: .utf8)
        // With fish installed, ask it: `complete -C` prints what it would offer.
        var probe = "source \(file.path)\n"
        for command in commands { probe += "echo \"@\(command)\"; complete -C 'gestures \(command) -'\n" }
        probe += "echo @top; complete -C 'gestures '\n"
        let result = try #require(try runProgram("fish", ["--no-config", "-c", probe]))
        #expect(result.status == 0, "\(result.output)")
        var offered: [String: Set<String>] = [:]
        var current = ""
        for line in result.output.split(separator: "\n") {
            if line.hasPrefix("@") { current = String(line.dropFirst()); continue }
            offered[current, default: []].insert(String(line.split(separator: "\t")[0]))
        }
        for command in commands {
            #expect(offered[command] == Set(try HelpListing.options(of: command)), "\(command)")
        }
        #expect(Set(commands + ["help"]).isSubset(of: offered["top"] ?? []))
    }

    @Test("generate-completion names the shells it knows")
    func unknownShell() throws {
        let run = try ToolRunner.run(["generate-completion", "tcsh"])
        #expect(run.status == 64)
        #expect(
            run.stderr
                == "gestures generate-completion: SHELL is bash, zsh or fish, not 'tcsh' (see 'gestures generate-completion --help').\n")
    }
}
