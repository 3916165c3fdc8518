import DesktopDaemon
import Foundation
import Testing

@Suite("ActionRunner: background commands with a cap, a bounded queue and a timeout")
struct ActionRunnerTests {
    private func action(_ words: String..., timeout: Duration = .seconds(30), environment: [String: String] = [:]) -> FiredAction {
        FiredAction(binding: "b", command: words, environment: environment, timeout: timeout, gesture: "test")
    }

    @Test("at most maximumConcurrent run; the queue keeps order; beyond it actions are dropped and logged")
    func capAndQueue() {
        let launcher = RecordingLauncher(holding: true)
        let lines = LogLines()
        var settings = DaemonConfiguration.ActionSettings()
        settings.maximumConcurrent = 2
        settings.queueLimit = 2
        let runner = ActionRunner(settings: settings, launcher: launcher, log: lines.log)
        for index in 1...6 { runner.submit(action("cmd\(index)")) }
        #expect(launcher.launched == [["cmd1"], ["cmd2"]])
        launcher.finishAll()
        runner.waitUntilIdle()
        #expect(launcher.launched == [["cmd1"], ["cmd2"], ["cmd3"], ["cmd4"]])
        #expect(runner.counts.dropped == 2)
        #expect(lines.all.filter { $0.hasPrefix("dropped b: 2 commands running and 2 waiting") }.count == 2)
        #expect(lines.all.filter { $0.hasPrefix("fired b (test): cmd") }.count == 4)
    }

    @Test(
        "a failing command is logged and the runner goes on",
        arguments: [
            (["sh", "-c", "exit 3"], "exited with status 3"),
            (["/no/such/program"], "could not be started: No such file or directory"),
            (["sh", "-c", "kill -9 $$"], "was ended by signal 9"),
        ])
    func failures(command: [String], message: String) {
        let lines = LogLines()
        let runner = ActionRunner(settings: .init(), launcher: SpawnLauncher(), log: lines.log)
        runner.submit(FiredAction(binding: "bad", command: command, gesture: "test"))
        runner.submit(action("true"))
        runner.waitUntilIdle()
        #expect(runner.counts.finished == 2 && runner.counts.failed == 1)
        #expect(lines.all.contains { $0.hasPrefix("failed bad: ") && $0.hasSuffix(message) }, "\(lines.all)")
    }

    @Test("a command past its timeout is killed with everything it started")
    func timeout() throws {
        let lines = LogLines()
        let runner = ActionRunner(settings: .init(), launcher: SpawnLauncher(), log: lines.log)
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: marker) }
        // The shell's child `sleep` is in its process group, so it dies too and
        // the `touch` after it never runs.
        runner.submit(action("sh", "-c", "sleep 600; touch \(marker.path)", timeout: .milliseconds(200)))
        runner.waitUntilIdle()
        #expect(lines.all.contains { $0.hasSuffix("ran longer than its timeout of 0.2 s and was killed") }, "\(lines.all)")
        #expect(!FileManager.default.fileExists(atPath: marker.path))
    }

    @Test("commands get the gesture's variables and run without a shell")
    func environmentAndNoShell() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let runner = ActionRunner(settings: .init(), launcher: SpawnLauncher(), log: LogLines().log)
        runner.submit(
            action(
                "sh", "-c", "printf '%s %s' \"$GESTURE_TYPE\" \"$1\" > \(file.path)", "sh", "$HOME;*",
                environment: ["GESTURE_TYPE": "swipe"]))
        runner.waitUntilIdle()
        #expect(try String(contentsOf: file, encoding: .utf8) == "swipe $HOME;*")
    }
}
