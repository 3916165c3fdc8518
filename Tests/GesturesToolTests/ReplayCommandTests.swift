import Foundation
import Testing

// Playing into a virtual device is checked against a real kernel by Tools/vm-test;
// these cover the input checks and the error without /dev/uinput.
@Suite("gestures replay --uinput (end to end)")
struct ReplayCommandTests {
    @Test("replay with neither files nor --uinput is a usage error")
    func missingFileIsUsageError() throws {
        let run = try ToolRunner.run(["replay"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("no trace files given"))
        let both = try ToolRunner.run(["replay", "--uinput", "a.jsonl", "b.jsonl"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--uinput plays one recording"))
    }

    @Test("a file that is not a recording names the line and the problem")
    func badRecordingNamesTheLine() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bad.jsonl")
        try #"{"format":"gestures-trace","version":2}"#.write(to: file, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["replay", "--uinput", file.path])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("gestures replay: \(file.path) line 1: "))
        #expect(run.stderr.contains("version 2"))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test("without /dev/uinput the error says how to get it, in one sentence", .enabled(if: !FileManager.default.fileExists(atPath: "/dev/uinput"), "a machine with /dev/uinput cannot show the error; the VM suite covers uinput"))
    func noUinputIsOneSentence() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("empty.jsonl")
        let header = #"{"format":"gestures-trace","version":1,"devices":[{"name":"m","id":[3,1,1,1],"properties":[],"codes":{"1":[272],"2":[0,1]},"absinfo":{}}]}"#
        try (header + "\n" + #"{"end":{"frames":0,"events":0}}"# + "\n").write(to: file, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["replay", "--uinput", file.path])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("gestures replay: Cannot create a virtual device: /dev/uinput is unavailable"))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }
}
