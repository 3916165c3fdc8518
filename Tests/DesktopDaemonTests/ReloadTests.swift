import DesktopDaemon
import Foundation
import GestureRecognition
import Testing

@Suite("Reload: a bad file keeps the old configuration; a gesture in progress is never dropped")
struct ReloadTests {
    private static func document(_ label: String) -> String {
        withBindings(#"{"gesture": "swipe", "direction": "left", "action": {"command": ["\#(label)"]}}"#)
    }

    private static let device = InputDevice(id: 1, name: "pad")
    private static let swipe = Stream.swipe(fingers: 3, steps: [(-10, 0), (-20, 0)], direction: .left)

    private func temporaryFile(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString).json")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    static let brokenFiles = [
        "{\"version\": 1, \"bindings\": [",  // malformed
        "{\"version\": 2}",  // wrong version
        withBindings(#"{"gesture": "swipe", "action": {"command": []}}"#),  // invalid binding
        "",  // emptied
    ]

    @Test("a broken new file keeps the old bindings and says why", arguments: brokenFiles)
    func brokenFileKeepsOld(broken: String) throws {
        let url = try temporaryFile(Self.document("old"))
        defer { try? FileManager.default.removeItem(at: url) }
        let launcher = RecordingLauncher()
        let lines = LogLines()
        let daemon = GestureDaemon(configuration: try DaemonConfiguration.load(contentsOf: url.path), launcher: launcher, log: lines.log)
        var reloader = ConfigurationReloader(path: url.path)
        #expect(!reloader.fileChanged())

        try broken.write(to: url, atomically: true, encoding: .utf8)
        #expect(reloader.fileChanged())
        #expect(!daemon.reload(&reloader, reason: "test"))
        #expect(!reloader.fileChanged())
        #expect(lines.all.last?.hasPrefix("kept the old configuration (test): \(url.path) has 1 error: ") == true, "\(lines.all)")

        try daemon.run(ClosureGestureSource { sink in Self.swipe.forEach { sink.deliver($0, Self.device) } })
        #expect(launcher.launched == [["old"]])
    }

    @Test("a reload error that lists only some errors says which command lists every one")
    func manyErrorsPointAtCheckConfig() throws {
        let url = try temporaryFile(Self.document("old"))
        defer { try? FileManager.default.removeItem(at: url) }
        let lines = LogLines()
        let daemon = GestureDaemon(
            configuration: try DaemonConfiguration.load(contentsOf: url.path), launcher: RecordingLauncher(), log: lines.log)
        var reloader = ConfigurationReloader(path: url.path)
        let bad = #"{"gesture": "swipe", "action": {"command": []}}"#
        try withBindings([bad, bad, bad, bad].joined(separator: ",")).write(to: url, atomically: true, encoding: .utf8)
        #expect(!daemon.reload(&reloader, reason: "test"))
        let line = try #require(lines.all.last)
        #expect(line.hasPrefix("kept the old configuration (test): \(url.path) has 4 errors: "), "\(line)")
        #expect(line.hasSuffix("; and 1 more: 'gestures check-config \(url.path)' lists every error"), "\(line)")
    }

    @Test("the reload decision, without files: kept on errors, replaced on success")
    func pureDecision() throws {
        let broken = ConfigurationErrors(file: "x", [.init("bindings[0].gesture", "is required")])
        var failing = ConfigurationReloader(path: "/nonexistent") { (_: String) throws(ConfigurationErrors) in throw broken }
        guard case .kept(let errors) = failing.reload() else { Issue.record("a bad file was used"); return }
        #expect(errors == broken)
        let replacement = try configuration(Self.document("new"))
        var succeeding = ConfigurationReloader(path: "/nonexistent") { (_: String) throws(ConfigurationErrors) in replacement }
        guard case .reloaded(let loaded) = succeeding.reload() else { Issue.record("a good file was refused"); return }
        #expect(loaded.bindings.map(\.action.command) == [["new"]])
    }

    @Test("a gesture in progress ends under the configuration it began with; the next uses the new one")
    func gestureInProgressSurvives() throws {
        let launcher = RecordingLauncher()
        let daemon = GestureDaemon(configuration: try configuration(Self.document("old")), launcher: launcher, log: LogLines().log)
        daemon.handle(Self.swipe[0], from: Self.device)
        daemon.handle(Self.swipe[1], from: Self.device)
        daemon.apply(try configuration(Self.document("new")))
        for event in Self.swipe.dropFirst(2) { daemon.handle(event, from: Self.device) }
        for event in Self.swipe { daemon.handle(event, from: Self.device) }
        daemon.runner.waitUntilIdle()
        #expect(launcher.launched == [["old"], ["new"]])
    }
}
