import Foundation
import Testing

/// Pattern time does not add up (issue 37, item 4): forty bindings of 32
/// slow `apps` patterns each (1,280, past the slow-pattern memory's 1,024)
/// against a focused application that makes every one of them run its
/// full 20 ms would cost 25.6 s a gesture; the decision has one budget, and
/// a focus is matched once. The run is killed at a generous deadline, and
/// a killed run fails.
@Suite("pattern time a gesture is bounded (end to end)")
struct PatternTimeTests {
    @Test("three swipes explained against 1,280 slow apps patterns end, each binding refused as timed out")
    func slowPatternsAreBounded() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bindings = (0..<40).map { binding in
            let patterns = (0..<32).map { #""(a|a)+b\#(binding * 32 + $0)""# }.joined(separator: ", ")
            return "  - {name: b\(binding), gesture: swipe, fingers: 3, direction: left, apps: [\(patterns)], action: {command: [echo]}}"
        }
        let config = directory.appendingPathComponent("config.yaml")
        try ("version: 1\nbindings:\n" + bindings.joined(separator: "\n") + "\n").write(to: config, atomically: true, encoding: .utf8)
        let focus = directory.appendingPathComponent("focus.jsonl")
        try "{\"time_ms\":0,\"app\":\"\(String(repeating: "a", count: 40))!\"}\n".write(to: focus, atomically: true, encoding: .utf8)
        let trace = try FocusReplayCommandTests.swipes(3, into: directory)
        let run = try ToolRunner.run(
            ["run", "--config", config.path, "--explain", "--focus", focus.path, "--replay", trace.path], deadline: .seconds(60))
        #expect(!run.timedOut, "the patterns' time added up")
        #expect(run.status == 0, "\(run.stderr)")
        let refused = run.stdout.split(separator: "\n").filter { $0.contains("its apps pattern timed out against the focused window") }
        // Every binding, on each swipe's end.
        #expect(refused.count >= 3 * 40, "\(run.stdout.prefix(2000))")
        #expect(!run.stderr.contains("fired "))
    }
}
