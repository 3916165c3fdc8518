import DesktopDaemon
import Foundation
import StructuredDocuments
import Testing

/// The page's edits of the configuration file: checked by the reader, and
/// written keeping what can be kept of the YAML the person wrote.
@Suite struct ConfigurationEditorTests {
    static let yaml = """
        # My gestures.
        version: 1
        bindings:
          # Workspaces.
          - name: next workspace
            gesture: swipe
            fingers: 3
            direction: left   # to the right-hand one
            action: {command: [sh, -c, 'echo next']}
          # The other way.
          - name: previous workspace
            gesture: swipe
            fingers: 3
            direction: right
            action: {command: [sh, -c, 'echo previous']}
        # Engine tuning, kept.
        engine:
          swipeThresholdMillimeters: 9
        """ + "\n"

    static func file(_ text: String, name: String = "config.yaml") throws -> String {
        let folder = NSTemporaryDirectory() + "gestures-editor-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func node(_ json: String) throws -> DocumentNode { try DocumentNode.parse(json: Data(json.utf8)) }

    func kept(_ editor: ConfigurationEditor) -> [ConfigurationEditor.Binding] {
        editor.bindings.enumerated().map { .init(origin: $0.offset, node: $0.element) }
    }

    @Test func unchangedBindingsGiveBackTheFileByteForByte() throws {
        let editor = try ConfigurationEditor(path: try Self.file(Self.yaml))
        #expect(editor.bindings.count == 2)
        let (text, notes) = editor.text(with: kept(editor))
        #expect(text == Self.yaml)
        #expect(notes.isEmpty)
    }

    @Test func reorderedBindingsMoveWithTheirCommentsAndTheRestStays() throws {
        let editor = try ConfigurationEditor(path: try Self.file(Self.yaml))
        let (text, _) = editor.text(with: kept(editor).reversed())
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "# My gestures.")
        let previous = try #require(lines.firstIndex(of: "  # The other way."))
        let next = try #require(lines.firstIndex(of: "  # Workspaces."))
        #expect(previous < next)
        #expect(lines.contains("    direction: left   # to the right-hand one"))
        #expect(text.hasSuffix("# Engine tuning, kept.\nengine:\n  swipeThresholdMillimeters: 9\n"))
        let reread = try DaemonConfiguration.decode(Data(text.utf8), format: .yaml)
        #expect(reread.bindings.map(\.name) == ["previous workspace", "next workspace"])
    }

    @Test func aChangedBindingIsWrittenAnewInTheReadersOrderAndSaysWhatItLost() throws {
        let editor = try ConfigurationEditor(path: try Self.file(Self.yaml))
        var bindings = kept(editor)
        bindings[0].node = try Self.node(
            #"{"action":{"command":["sh","-c","echo next"]},"fingers":4,"gesture":"swipe","direction":"left","name":"next workspace"}"#)
        let (text, notes) = editor.text(with: bindings)
        #expect(
            text.contains(
                "  # Workspaces.\n  - name: next workspace\n    gesture: swipe\n    fingers: 4\n    direction: left\n    action: "))
        #expect(notes == ["bindings[0] changed, so the comments inside it are not kept"])
        let reread = try DaemonConfiguration.decode(Data(text.utf8), format: .yaml)
        #expect(reread.bindings.first?.match.fingers == 4)
        #expect(reread.bindings.first?.action.command == ["sh", "-c", "echo next"])
    }

    @Test func aNewBindingGoesWhereItIsPutAndARemovedOneTakesItsComments() throws {
        let editor = try ConfigurationEditor(path: try Self.file(Self.yaml))
        let tap = try Self.node(#"{"gesture":"tap","fingers":3,"action":{"keys":["leftctrl","w"]}}"#)
        let (text, notes) = editor.text(with: [.init(origin: 1, node: editor.bindings[1]), .init(origin: nil, node: tap)])
        #expect(!text.contains("next workspace") && !text.contains("# Workspaces."))
        #expect(notes == ["the binding removed from bindings[0] took its comments with it"])
        let reread = try DaemonConfiguration.decode(Data(text.utf8), format: .yaml)
        #expect(reread.bindings.count == 2 && reread.bindings[1].match.gesture == .tap)
    }

    @Test func theCheckIsTheReadersWithKeyPathsAndWarnings() throws {
        let editor = try ConfigurationEditor(path: try Self.file(Self.yaml))
        var bindings = kept(editor)
        bindings[1].node = try Self.node(#"{"gesture":"swipe","fingers":3,"direction":"sideways","action":{"command":["true"]}}"#)
        let errors = editor.check(bindings).errors
        #expect(errors.map(\.path) == ["bindings[1].direction"])
        // Two bindings that fire together: a warning, and the file is valid.
        bindings[1].node = editor.bindings[0]
        let check = editor.check(bindings)
        #expect(check.errors.isEmpty && !check.warnings.isEmpty)
    }

    @Test func aSaveKeepsTheOldFileAsABackupAndNothingIsSavedWhenTheCheckFails() throws {
        let path = try Self.file(Self.yaml)
        let editor = try ConfigurationEditor(path: path)
        var bindings = kept(editor)
        bindings[0].node = try Self.node(#"{"gesture":"swipe","fingers":99,"action":{"command":["true"]}}"#)
        #expect(throws: ConfigurationEditor.Failure.self) { try editor.save(bindings, revision: editor.revision) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.yaml)
        #expect(!FileManager.default.fileExists(atPath: path + ".bak"))
        let saved = try editor.save(Array(kept(editor).prefix(1)), revision: editor.revision)
        #expect(saved.backup == path + ".bak")
        #expect(try String(contentsOfFile: path + ".bak", encoding: .utf8) == Self.yaml)
        #expect(try DaemonConfiguration.load(contentsOf: path).bindings.count == 1)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
        #expect(leftovers.sorted() == ["config.yaml", "config.yaml.bak"])
    }

    @Test func aFileChangedSinceThePageReadItIsNotOverwritten() throws {
        let path = try Self.file(Self.yaml)
        let editor = try ConfigurationEditor(path: path)
        let changed = Self.yaml.replacingOccurrences(of: "swipeThresholdMillimeters: 9", with: "swipeThresholdMillimeters: 10")
        try changed.write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try editor.save(kept(editor), revision: editor.revision)
        } throws: { error in
            (error as? ConfigurationEditor.Failure)?.description.contains("changed since the page read it") == true
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == changed)
    }

    @Test func aSymlinkedFileIsReplacedWhereItLivesAndTheLinkKept() throws {
        let real = try Self.file(Self.yaml)
        let link = (NSTemporaryDirectory() as NSString).appendingPathComponent("gestures-link-\(UUID().uuidString.prefix(8)).yaml")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        defer { try? FileManager.default.removeItem(atPath: link) }
        let editor = try ConfigurationEditor(path: link)
        _ = try editor.save(Array(kept(editor).prefix(1)))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == real)
        #expect(try DaemonConfiguration.load(contentsOf: real).bindings.count == 1)
    }

    @Test func aJSONFileIsWrittenAnewAndSaysSo() throws {
        let json = #"{"version":1,"bindings":[{"gesture":"tap","fingers":3,"action":{"command":["true"]}}]}"#
        let editor = try ConfigurationEditor(path: try Self.file(json, name: "config.json"))
        let (text, notes) = editor.text(with: kept(editor))
        #expect(notes.count == 1 && notes[0].contains("is JSON, which has no comments"))
        let reread = try DaemonConfiguration.decode(Data(text.utf8), format: .json)
        #expect(reread.bindings.count == 1)
    }

    @Test func aFileThatDoesNotExistYetStartsEmptyAndIsWrittenAsYAML() throws {
        let folder = NSTemporaryDirectory() + "gestures-editor-\(UUID().uuidString.prefix(8))"
        let path = folder + "/gestures/config.yaml"
        let editor = try ConfigurationEditor(path: path)
        #expect(editor.bindings.isEmpty)
        let tap = try Self.node(#"{"gesture":"tap","fingers":3,"action":{"command":["sh","-c","echo tapped"]}}"#)
        _ = try editor.save([.init(origin: nil, node: tap)])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "version: 1\nbindings:\n  - gesture: tap\n    fingers: 3\n    action: {command: [sh, \"-c\", echo tapped]}\n")
        #expect(try DaemonConfiguration.load(contentsOf: path).bindings.count == 1)
    }

    @Test(arguments: ["a: b", "yes", "3", "-c", "#x", "x #y", "trailing ", "", "null", "quote\"d", "tab\there", "line\nbreak"])
    func aScalarWrittenInYAMLReadsBackAsTheSameString(_ text: String) throws {
        let written = "value: " + DocumentNode.yamlScalar(text) + "\n"
        #expect(try DocumentNode.parse(yaml: Data(written.utf8))["value"] == .string(text))
    }
}
