import Foundation
import Testing

@Suite("gestures templates (end to end)")
struct TemplatesCommandTests {
    @Test(
        "a gesture name the library does not have gets the nearest name, or how to list them",
        arguments: [
            (["--remove", "cirle"], "default has no gesture named 'cirle'; did you mean 'circle'?"),
            (["--rename", "trinagle=tri"], "default has no gesture named 'trinagle'; did you mean 'triangle'?"),
            (["--remove", "zzzz"], "default has no gesture named 'zzzz'; 'gestures templates default' lists its gestures."),
        ])
    func unknownNamesGetTheSuggestion(edit: [String], expected: String) throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("out.json").path
        let run = try ToolRunner.run(["templates", "default"] + edit + ["--export", output])
        #expect(run.status == 1)
        #expect(run.stderr == "gestures templates: \(expected)\n", "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
