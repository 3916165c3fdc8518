import Foundation
import Testing

/// The bash completion script `generate-completion bash` prints, run by bash
/// itself: what a TAB offers after each command line.
@Suite("gestures' bash completion, run by bash (end to end)")
struct CompletionScriptTests {
    /// The words bash's completion function offers for `line` (the last word being completed).
    private func offered(_ words: [String]) throws -> [String] {
        let script = try ToolRunner.run(["generate-completion", "bash"])
        try #require(script.status == 0, "\(script.stderr)")
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("gestures.bash")
        try script.stdout.write(to: file, atomically: true, encoding: .utf8)
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let probe =
            "source '\(file.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _gestures; printf '%s\\n' \"${COMPREPLY[@]}\""
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["--norc", "--noprofile", "-c", probe]
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("a hidden command completes its arguments once typed: generate-completion offers the shells")
    func hiddenCommandArguments() throws {
        #expect(try offered(["gestures", "generate-completion", ""]) == ["bash", "zsh", "fish"])
        #expect(!(try offered(["gestures", "gen"])).contains("generate-completion"), "hidden commands are not offered first")
    }

    @Test("a template library completes to 'default' as well as files, as argument and as --library")
    func libraryCompletesDefault() throws {
        #expect(try offered(["gestures", "templates", "d"]) == ["default"])
        #expect(try offered(["gestures", "recognize", "--library", "def"]) == ["default"])
    }
}
