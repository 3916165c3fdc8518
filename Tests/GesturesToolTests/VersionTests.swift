import Foundation
import Testing

/// Runs `program` with `arguments` in the repository; stdout and status.
private func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.currentDirectoryURL = ToolRunner.repository
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
}

/// The checkout's commit as Tools/stamp-commit writes it, or nil outside a git checkout.
private let checkoutCommit: String? = {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git"),
        let head = try? run("/usr/bin/git", ["rev-parse", "--short=12", "HEAD"]), head.status == 0
    else { return nil }
    return head.output
}()

@Suite("The version: one place, in --version, the changelog and the stamped commit")
struct VersionTests {
    /// "gestures 0.4.0" from a plain build: the version alone.
    static let plainVersion: String = (try? ToolRunner.run(["--version"]).stdout.trimmingCharacters(in: .newlines)) ?? ""

    @Test("a plain build prints the name and a dotted version, and no commit")
    func plainBuild() throws {
        let words = Self.plainVersion.split(separator: " ")
        #expect(words.count == 2 && words[0] == "gestures", "\(Self.plainVersion)")
        #expect(words.last?.split(separator: ".").count == 3, "\(Self.plainVersion)")
    }

    @Test("CHANGELOG.md's newest entry is the version --version prints")
    func changelogNamesTheVersion() throws {
        let changelog = try String(contentsOf: ToolRunner.repository.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
        let version = Self.plainVersion.split(separator: " ").last.map(String.init) ?? "?"
        #expect(newest?.hasPrefix("## \(version) ") == true || newest == "## \(version)", "\(newest ?? "no entry")")
    }

    @Test(
        "Tools/stamp-commit writes the checkout's commit into a copy of the binary, and --version prints it after the version",
        .enabled(
            if: checkoutCommit != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/objcopy"),
            "needs a git checkout, git and objcopy (binutils)"))
    func stampedBuild() throws {
        let folder = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("gestures")
        try FileManager.default.copyItem(at: ToolRunner.executable, to: copy)
        let stamp = try run("/bin/bash", [ToolRunner.repository.appendingPathComponent("Tools/stamp-commit").path, copy.path])
        #expect(stamp.status == 0)
        let stamped = try run(copy.path, ["--version"])
        #expect(stamped.status == 0)
        #expect(stamped.output.hasPrefix("\(Self.plainVersion) (commit \(checkoutCommit!)"), "\(stamped.output)")
        #expect(stamped.output.hasSuffix(")") && stamped.output.split(separator: "\n").count == 1, "\(stamped.output)")
        // Stamping again replaces the section rather than adding a second one.
        #expect(try run("/bin/bash", [ToolRunner.repository.appendingPathComponent("Tools/stamp-commit").path, copy.path]).status == 0)
        #expect(try run(copy.path, ["--version"]).output == stamped.output)
    }
}
