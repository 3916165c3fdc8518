import DesktopDaemon
import Foundation
import GesturePage
import GestureTraces
import InputChecks
import TestSupport
import Testing

/// The recordings view's routes over real HTTP: an evemu file imported is
/// saved as a trace that reads back the same, listed, and replayed through
/// the engine with the configuration's verdicts; names that could leave
/// the folder are refused; recording without a daemon says so.
@Suite struct PageRecordingsTests {
    let folder: String
    let server: PageServer

    init() throws {
        folder = NSTemporaryDirectory() + "gestures-page-recordings-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let configuration = folder + "/config.yaml"
        try """
        version: 1
        bindings:
          - name: left
            gesture: swipe
            fingers: 3
            direction: left
            action: {command: [touch, \(folder)/ran]}
        """.write(toFile: configuration, atomically: true, encoding: .utf8)
        server = try PageServer(
            settings: .init(socket: nil, configurationPath: configuration, recordingsFolder: folder + "/recordings"))
    }

    func post(_ path: String, _ body: String) throws -> PageServerTests.Reply {
        try PageServerTests.send(
            PageServerTests.request(
                "POST", path, server: server, origin: "http://127.0.0.1:\(server.pageGuard.port)", csrf: server.pageGuard.csrf, body: body),
            port: server.pageGuard.port)
    }

    func get(_ path: String) throws -> PageServerTests.Reply {
        try PageServerTests.send(PageServerTests.request("GET", path, server: server), port: server.pageGuard.port)
    }

    @Test func anImportedEvemuFileIsSavedListedAndReplayedThroughTheConfiguration() throws {
        defer { server.stop(); try? FileManager.default.removeItem(atPath: folder) }
        let original = try Trace.load(
            contentsOf: SharedData.repositoryRoot.appendingPathComponent("Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl"))
        let evemu = String(decoding: try original.encoded(as: .evemu), as: UTF8.self)
        let body = "{\"name\":\"my swipe.evemu\",\"text\":\(JSONText.quoted(evemu))}"
        let imported = try post("/api/recordings/import", body)
        #expect(imported.status == 200, "\(imported.body)")
        #expect(imported.body.contains("\"name\":\"my-swipe\""))
        let saved = try Trace.load(contentsOf: URL(fileURLWithPath: folder + "/recordings/my-swipe.jsonl"))
        #expect(saved.frames.map(\.events) == original.frames.map(\.events))
        // The same name again takes the next free number: nothing is replaced.
        let again = try post("/api/recordings/import", body)
        #expect(again.body.contains("\"name\":\"my-swipe-2\""))
        let list = try get("/api/recordings")
        #expect(list.body.contains("{\"name\":\"my-swipe\",") && list.body.contains("\"device\":\"SynPS/2 Synaptics TouchPad\""))
        let replay = try post("/api/recordings/replay", "{\"name\":\"my-swipe\"}")
        #expect(replay.status == 200)
        let lines = replay.body.components(separatedBy: "{\"frame\":").count - 1
        #expect(lines == 52)
        #expect(replay.body.contains("\"binding\":\"left\",\"path\":\"bindings[0]\",\"fired\":true"))
        // A replay runs nothing the verdicts say fired.
        #expect(!FileManager.default.fileExists(atPath: folder + "/ran"))
    }

    @Test(arguments: ["../config", "/etc/passwd", ".hidden", "", "a/b", String(repeating: "x", count: 101)])
    func aNameThatIsNotARecordingOfTheFolderIsRefused(_ name: String) throws {
        defer { server.stop(); try? FileManager.default.removeItem(atPath: folder) }
        let replay = try post("/api/recordings/replay", "{\"name\":\(JSONText.quoted(name))}")
        #expect(replay.status == 400 && replay.body.contains("names no recording of the folder"))
        let stopped = try post("/api/recordings/stop", "{\"name\":\(JSONText.quoted(name))}")
        #expect(stopped.status == 409 && stopped.body.contains("nothing is being recorded"))
    }

    @Test func aFileNoReaderTakesIsRefusedWithTheReadersSentenceAndNothingIsSaved() throws {
        defer { server.stop(); try? FileManager.default.removeItem(atPath: folder) }
        let imported = try post("/api/recordings/import", "{\"name\":\"notes.txt\",\"text\":\"shopping list\\n\"}")
        #expect(imported.status == 422 && imported.body.contains("cannot be imported"))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder + "/recordings"))?.isEmpty ?? true)
    }

    @Test func recordingWithoutADaemonSaysHowToStartOneAndLeavesNothingRunning() throws {
        defer { server.stop(); try? FileManager.default.removeItem(atPath: folder) }
        let started = try post("/api/recordings/start", "{\"device\":null}")
        #expect(started.status == 409 && started.body.contains("gestures run"))
        let stopped = try post("/api/recordings/stop", "{}")
        #expect(stopped.status == 409)
    }
}
