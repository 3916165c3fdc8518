import Foundation
import Testing

@Suite("gestures run says what in its configuration will not work (end to end)")
struct ConfigurationWarningsCommandTests {
    @Test("run --replay warns at start of bindings that fire together, and at the end of a device filter no recording matched")
    func replayWarnings() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.yaml")
        try """
        version: 1
        bindings:
          - {name: left, gesture: swipe, fingers: 3, direction: left, action: {command: [echo, left]}}
          - {name: any, gesture: swipe, fingers: 3, action: {command: [echo, any]}}
          - {name: screen, gesture: swipe, fingers: 3, device: {name: ".*Touchscreen.*"}, action: {command: [echo, screen]}}
        """.write(to: config, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run([
            "run", "--config", config.path, "--replay", "Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        let together =
            "gestures: warning: \(config.path): bindings[1]: fires together with bindings[0] ('left') for one 3-finger swipe left; bindings[0] fires first, being earlier in the file"
        let noDevice =
            "gestures: warning: \(config.path): bindings[2].device: matches no device gestures can come from (there are 'SynPS/2 Synaptics TouchPad'), so 'screen' never fires"
        #expect(lines.firstIndex(of: together) == 1, "\(run.stderr)")
        let fired = try #require(lines.lastIndex { $0.hasPrefix("gestures: fired any") }, "\(run.stderr)")
        #expect(lines.firstIndex(of: noDevice).map { $0 > fired } == true, "\(run.stderr)")
    }
}
