import Foundation
import TestSupport
import Testing

/// The pictures in Docs/images are made by Tools/make-doc-pictures with the
/// tool; these tests run the script with the tool just built, so a change to
/// what the tool draws shows up as a failure until the pictures are remade.
@Suite("Docs/images and Tools/make-doc-pictures")
struct DocPicturesTests {
    static let script = ToolRunner.repository.appendingPathComponent("Tools/make-doc-pictures")
    static let images = ToolRunner.repository.appendingPathComponent("Docs/images")
    static let page = ToolRunner.repository.appendingPathComponent("Docs/Pictures.md")

    /// The gestures commands the script runs, as Docs/Pictures.md shows them
    /// (its output folder written as Docs/images).
    static func scriptCommands() throws -> [String] {
        try String(contentsOf: script, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("picture ") }
            .map {
                "gestures "
                    + $0.dropFirst("picture ".count).replacingOccurrences(of: "\"$out/", with: "Docs/images/")
                    .replacingOccurrences(of: "\"", with: "")
            }
    }

    /// Runs the script into a new folder; returns the folder.
    static func runScript() throws -> URL {
        let directory = try ToolRunner.temporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, directory.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["GESTURES": ToolRunner.executable.path]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "Tools/make-doc-pictures failed: \(message)")
        return directory
    }

    @Test("the committed pictures are what Tools/make-doc-pictures makes now (if not, run it and commit them)")
    func picturesAreCurrent() throws {
        let directory = try Self.runScript()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(made == ["explanation.svg", "gallery.svg", "recording.svg"])
        // Beside them, the page's screenshots, which Tools/test-page makes in a real browser.
        let all = try FileManager.default.contentsOfDirectory(atPath: Self.images.path).sorted()
        let screenshots = all.filter { $0.hasPrefix("page-") && $0.hasSuffix(".png") }
        let committed = all.filter { !screenshots.contains($0) }
        #expect(committed == made, "Docs/images holds exactly the script's pictures and the page's screenshots")
        let pageTest = try String(
            contentsOf: ToolRunner.repository.appendingPathComponent("Tests/Page/page_test.py"), encoding: .utf8)
        for name in screenshots {
            #expect(pageTest.contains("\"\(name)\""), "Docs/images/\(name) is a screenshot Tests/Page/page_test.py makes")
        }
        for name in made {
            let fresh = try Data(contentsOf: directory.appendingPathComponent(name))
            #expect(try SVGInspector.parse(String(decoding: fresh, as: UTF8.self)).name == "svg", "\(name) parses")
            let old = try? Data(contentsOf: Self.images.appendingPathComponent(name))
            #expect(old == fresh, "Docs/images/\(name) is stale: run Tools/make-doc-pictures and commit it")
        }
    }

    @Test("Docs/Pictures.md shows each picture with the exact command that made it")
    func pageShowsTheCommands() throws {
        let page = try String(contentsOf: Self.page, encoding: .utf8)
        let commands = try Self.scriptCommands()
        #expect(commands.count == 3)
        for command in commands {
            #expect(page.contains("\n\(command)\n"), "Docs/Pictures.md shows `\(command)`")
            let picture = try #require(command.split(separator: " ").last.map { $0.dropFirst("Docs/".count) })
            #expect(page.contains("](\(picture))"), "Docs/Pictures.md shows \(picture)")
        }
    }
    // The text explanation the page shows is checked with every console block of Docs/ (DocumentationExamplesTests).
}
