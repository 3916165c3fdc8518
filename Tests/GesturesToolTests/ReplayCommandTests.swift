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

    @Test(
        "without /dev/uinput the error says how to get it, in one sentence",
        .enabled(
            if: !FileManager.default.fileExists(atPath: "/dev/uinput"),
            "a machine with /dev/uinput cannot show the error; the VM suite covers uinput"))
    func noUinputIsOneSentence() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("empty.jsonl")
        let header =
            #"{"format":"gestures-trace","version":1,"devices":[{"name":"m","id":[3,1,1,1],"properties":[],"codes":{"1":[272],"2":[0,1]},"absinfo":{}}]}"#
        try (header + "\n" + #"{"end":{"frames":0,"events":0}}"# + "\n").write(to: file, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["replay", "--uinput", file.path])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("gestures replay: Cannot create a virtual device: /dev/uinput is unavailable"))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }
}

@Suite("gestures replay over many files, and evemu descriptions (end to end)")
struct ReplayManyFilesTests {
    static let left = "Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl"
    static let tap = "Recordings/synthetic/rmi4.2-finger-tap.jsonl"

    @Test("each bad file is reported, the others are replayed, and the status is 1 at the end")
    func badFilesAreReportedAndSkipped() throws {
        let run = try ToolRunner.run(["replay", "--ends", Self.tap, "/no/such.jsonl", "Recordings/strokes/check.json", Self.left])
        #expect(run.status == 1)
        let errors = run.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == 3, "\(run.stderr)")
        #expect(errors.first?.hasPrefix("gestures replay: /no/such.jsonl: no such file") == true)
        #expect(errors.dropFirst().first?.hasPrefix("gestures replay: Recordings/strokes/check.json is a JSON stroke file") == true)
        #expect(errors.last == "gestures replay: 2 of 4 files could not be replayed; the others were.")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"{"file":"Recordings/synthetic/rmi4.2-finger-tap.jsonl","type":"tap","time_ms":120,"fingers":2}"#,
                #"{"file":"Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl","type":"swipe","phase":"end","time_ms":510,"fingers":3,"cancelled":false,"direction":"left","dx_mm":-36.6,"dy_mm":0.103}"#,
            ])
    }

    @Test("one file's lines are the plain replay contract, without a file member")
    func oneFileHasNoFileMember() throws {
        let run = try ToolRunner.run(["replay", "--ends", Self.tap])
        #expect(run.status == 0)
        #expect(run.stdout == #"{"type":"tap","time_ms":120,"fingers":2}"# + "\n")
    }

    @Test("every line of many files parses as JSON and names its file")
    func everyLineNamesItsFile() throws {
        let run = try ToolRunner.run(["replay", Self.tap, Self.left])
        #expect(run.status == 0)
        for line in run.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect([Self.tap, Self.left].contains(object["file"] as? String ?? ""))
        }
    }

    /// A folder with Pad.desc (X1 Carbon), Pad.laptop.desc (RMI4) and the
    /// events of a 3-finger swipe without their header as `events`.
    static func evemuFolder(events: String) throws -> URL {
        let folder = try ToolRunner.temporaryDirectory()
        for (name, device) in [("Pad.desc", "x1carbon"), ("Pad.laptop.desc", "rmi4")] {
            let run = try ToolRunner.run([
                "convert", "Recordings/devices/\(device).jsonl", "-o", folder.appendingPathComponent(name).path, "--to", "evemu",
            ])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let full = try ToolRunner.run(["convert", "Recordings/synthetic/rmi4.3-finger-swipe-up-right.jsonl", "-o", "-", "--to", "evemu"])
        let eventsOnly = full.stdout.split(separator: "\n").filter { $0.hasPrefix("E:") }.joined(separator: "\n") + "\n"
        try eventsOnly.write(to: folder.appendingPathComponent(events), atomically: true, encoding: .utf8)
        return folder
    }

    @Test("beside Pad.desc and Pad.laptop.desc, Pad.laptop.scroll.events uses Pad.laptop.desc")
    func longestDescriptionNameWins() throws {
        let folder = try Self.evemuFolder(events: "Pad.laptop.scroll.events")
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = folder.appendingPathComponent("Pad.laptop.scroll.events").path
        let info = try ToolRunner.run(["info", "--format", "json", events])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("TM3053"), "\(info.stdout)")
        let replay = try ToolRunner.run(["replay", "--ends", events])
        let expected = try String(
            contentsOf: ToolRunner.repository.appendingPathComponent("Recordings/synthetic/rmi4.3-finger-swipe-up-right.expected.jsonl"),
            encoding: .utf8)
        #expect(
            replay.stdout
                == expected.split(separator: "\n").filter { !$0.contains("\"begin\"") && !$0.contains("\"update\"") }.map { $0 + "\n" }
                .joined())
    }

    @Test("--desc names the description outright")
    func descriptionGiven() throws {
        let folder = try Self.evemuFolder(events: "Pad.laptop.scroll.events")
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = folder.appendingPathComponent("Pad.laptop.scroll.events").path
        let info = try ToolRunner.run(["info", "--format", "json", "--desc", folder.appendingPathComponent("Pad.desc").path, events])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("TouchPad") && !info.stdout.contains("TM3053"), "\(info.stdout)")
    }

    @Test("events without any description say which names were tried and how to give one")
    func noDescription() throws {
        let folder = try Self.evemuFolder(events: "Other.scroll.events")
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = folder.appendingPathComponent("Other.scroll.events").path
        let run = try ToolRunner.run(["replay", events])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "gestures replay: \(events): the events have no device description and there is no Other.scroll.desc or Other.desc beside them; name one with --desc FILE.\n"
        )
    }
}
