import Foundation
import Testing

/// Inputs at the edges (issue 16): each class of input that once trapped,
/// hung or exhausted the tool now gives a result or one short sentence.
/// Every test runs the built executable, as a user would.
@Suite("hardening (end to end)")
struct HardeningTests {
    // MARK: Helpers

    /// Writes `files` into a new directory and runs `arguments` there.
    static func run(_ arguments: [String], files: [String: Data] = [:]) throws -> (ToolRunner.Run, URL) {
        let directory = try ToolRunner.temporaryDirectory()
        for (name, content) in files { try content.write(to: directory.appendingPathComponent(name)) }
        return (try ToolRunner.run(arguments, in: directory), directory)
    }

    static func run(_ arguments: [String], text files: [String: String]) throws -> ToolRunner.Run {
        let (run, directory) = try run(arguments, files: files.mapValues { Data($0.utf8) })
        try? FileManager.default.removeItem(at: directory)
        return run
    }

    /// The tool ended normally: success, or one short sentence on stderr.
    static func expectNoCrash(_ run: ToolRunner.Run, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 0 || run.status == 1, "status \(run.status): \(run.stderr.prefix(500))", sourceLocation: sourceLocation)
        #expect(!run.stderr.contains("Fatal error"), sourceLocation: sourceLocation)
        #expect(!run.stderr.contains("Stack dump"), sourceLocation: sourceLocation)
        if run.status == 1 { expectOneSentence(run, sourceLocation: sourceLocation) }
    }

    /// The tool failed with one line of at most 300 characters on stderr.
    static func expectOneSentence(_ run: ToolRunner.Run, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 1, "status \(run.status): \(run.stderr.prefix(500))", sourceLocation: sourceLocation)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "\(lines.count) lines: \(run.stderr.prefix(500))", sourceLocation: sourceLocation)
        #expect(run.stderr.count <= 301, "\(run.stderr.count) characters: \(run.stderr.prefix(500))", sourceLocation: sourceLocation)
        #expect(
            !run.stderr.contains("\r") && !run.stderr.contains("\u{0C}") && !run.stderr.contains("\u{2028}"),
            sourceLocation: sourceLocation)
    }

    // MARK: 1. Timestamps at the edges of Int64

    static let edgeTimes: [[Int64]] = [
        [Int64.max - 10, Int64.max - 5, Int64.max],
        [Int64.min, Int64.min + 5, Int64.min + 10],
        [Int64.max, 0, Int64.min],
        [Int64.min, 0, Int64.max],
        [Int64.max, Int64.min, Int64.max],
    ]

    @Test(
        "JSON traces with times at the edges of Int64: info, info --frames, replay and convert do not trap",
        arguments: edgeTimes)
    func jsonTraceEdgeTimes(times: [Int64]) throws {
        let files = ["t.jsonl": ToolRunner.touchscreenTrace(times: times)]
        for arguments in [
            ["info", "t.jsonl"], ["info", "t.jsonl", "--frames"], ["info", "t.jsonl", "--format", "json"],
            ["replay", "t.jsonl"], ["replay", "t.jsonl", "--format", "text"],
            ["convert", "t.jsonl", "-o", "t.yml"], ["convert", "t.jsonl", "-o", "t.events"],
            ["convert", "t.jsonl", "-o", "t2.jsonl"],
        ] {
            Self.expectNoCrash(try Self.run(arguments, text: files), "\(arguments)")
        }
    }

    @Test(
        "evemu E: lines at the edges of Int64 do not trap",
        arguments: ["-9223372036854.775807", "-9223372036854.775808", "9223372036854.775807", "-0.000001"])
    func evemuEdgeTimes(time: String) throws {
        let (converted, directory) = try Self.run(
            ["convert", "t.jsonl", "-o", "t.events"], files: ["t.jsonl": Data(ToolRunner.touchscreenTrace(times: [0, 1000, 2000]).utf8)])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(converted.status == 0)
        var text = try String(contentsOf: directory.appendingPathComponent("t.events"), encoding: .utf8)
        text += "E: \(time) 0003 0035 0500\nE: \(time) 0000 0000 0000\nE: 0.000000 0003 0035 0500\nE: 0.000000 0000 0000 0000\n"
        try text.write(to: directory.appendingPathComponent("edge.events"), atomically: true, encoding: .utf8)
        for arguments in [
            ["info", "edge.events"], ["info", "edge.events", "--frames"], ["replay", "edge.events"],
            ["convert", "edge.events", "-o", "edge.yml"], ["convert", "edge.events", "-o", "edge.jsonl"],
        ] {
            Self.expectNoCrash(try ToolRunner.run(arguments, in: directory), "\(arguments)")
        }
    }

    @Test(
        "libinput YAML times at the edges of Int64 do not trap",
        arguments: ["[9223372036854, 775807", "[-9223372036854, 0", "[-9223372036854, 999999"])
    func libinputEdgeTimes(time: String) throws {
        let (converted, directory) = try Self.run(
            ["convert", "t.jsonl", "-o", "t.yml"], files: ["t.jsonl": Data(ToolRunner.touchscreenTrace(times: [0, 1000, 2000]).utf8)])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(converted.status == 0)
        var text = try String(contentsOf: directory.appendingPathComponent("t.yml"), encoding: .utf8)
        text += "  - evdev:\n    - \(time), 3, 53, 500]\n    - \(time), 0, 0, 0]\n"
        try text.write(to: directory.appendingPathComponent("edge.yml"), atomically: true, encoding: .utf8)
        for arguments in [
            ["info", "edge.yml"], ["info", "edge.yml", "--frames"], ["replay", "edge.yml"],
            ["convert", "edge.yml", "-o", "edge.events"], ["convert", "edge.yml", "-o", "again.yml"],
        ] {
            Self.expectNoCrash(try ToolRunner.run(arguments, in: directory), "\(arguments)")
        }
    }

    // MARK: 2. Bit masks longer than the codes they can name

    @Test("evemu P: and B: masks of more than 8,192 bytes are refused in one sentence", arguments: ["P:", "B: 01", "B: 03", "B: 00"])
    func longBitMasks(prefix: String) throws {
        let mask = prefix + String(repeating: " ff", count: 8_200)
        let text = "N: pad\nI: 0018 0000 0000 0000\n\(mask)\nE: 0.000000 0000 0000 0000\n"
        let run = try Self.run(["info", "long.events"], text: ["long.events": text])
        Self.expectOneSentence(run)
        #expect(run.stderr.contains("line 3"))
    }

    @Test("evemu masks split over many lines are bounded too")
    func longBitMasksOverManyLines() throws {
        let line = "B: 01" + String(repeating: " 01", count: 8) + "\n"
        let text = "N: pad\nI: 0018 0000 0000 0000\n" + String(repeating: line, count: 1_100) + "E: 0.000000 0000 0000 0000\n"
        let run = try Self.run(["info", "long.events"], text: ["long.events": text])
        Self.expectOneSentence(run)
    }

    // MARK: 3. Configuration numbers out of range

    static let badEngineSettings: [String] = [
        #"{"holdDelayMilliseconds": 1e13}"#,
        #"{"tapMaximumDurationMilliseconds": 1e400}"#,
        #"{"sequenceTimeoutMilliseconds": -1e19}"#,
        #"{"fingerChangeDebounceMilliseconds": 99999999999999999999}"#,
        #"{"strokeRecognition": {"resampleCount": 0}}"#,
        #"{"strokeRecognition": {"resampleCount": 1}}"#,
        #"{"strokeRecognition": {"resampleCount": -5}}"#,
        #"{"strokeRecognition": {"resampleCount": 100000000}}"#,
        #"{"strokeRecognition": {"maximumPoints": 0}}"#,
        #"{"strokeRecognition": {"matcher": "elastic", "orientation": {"invariant": {}}, "rejectionThreshold": 0.75, "resampleCount": 0, "maximumPoints": 100000}}"#,
        #"{"strokeRecognition": {"matcher": "elastic", "orientation": {"invariant": {}}, "rejectionThreshold": 0.75, "resampleCount": 100000000, "maximumPoints": 100000}}"#,
        #"{"swipeThresholdMillimeters": 1e308}"#,
        #"{"swipeDirection": {"ways": 5}}"#,
        #"{"touchscreenStrokeFingers": 1000000}"#,
        #"{"holdDelayMilliseconds": 00}"#,
        #"{"holdDelayMilliseconds": [1]}"#,
    ]

    @Test("replay --config refuses engine numbers out of range in one sentence, check-config's", arguments: badEngineSettings)
    func replayConfigOutOfRange(settings: String) throws {
        let config = #"{"version": 1, "engine": \#(settings)}"#
        let run = try Self.run(
            ["replay", "--config", "config.json", "t.jsonl"],
            text: ["config.json": config, "t.jsonl": ToolRunner.touchscreenTrace(times: [0, 1000, 2000])])
        Self.expectOneSentence(run)
        #expect(run.stderr.contains("config.json"))
        #expect(!run.stderr.contains("Double") && !run.stderr.contains("Int64") && !run.stderr.contains("DecodingError"))
        let check = try Self.run(["check-config", "config.json"], text: ["config.json": config])
        #expect(run.stderr == check.stderr)
    }

    @Test("check-config refuses engine numbers out of range, in JSON and YAML", arguments: badEngineSettings)
    func checkConfigOutOfRange(settings: String) throws {
        let json = #"{"version": 1, "engine": \#(settings)}"#
        let run = try Self.run(["check-config", "config.json"], text: ["config.json": json])
        Self.expectOneSentence(run)
        // 1e400 and 00 are not JSON numbers: the syntax error says where.
        let notJSON = settings.contains("1e400") || settings.contains(" 00")
        #expect(run.stderr.contains(notJSON ? "line 1, column " : "engine."), "\(run.stderr)")
        #expect(!run.stderr.contains("Double") && !run.stderr.contains("Debug description"))
        // The same setting in YAML (flow style is YAML too), where 00 is the number 0.
        let yaml = "version: 1\nengine: \(settings)\n"
        let yamlRun = try Self.run(["check-config", "config.yaml"], text: ["config.yaml": yaml])
        if settings.contains(" 00") {
            #expect(yamlRun.status == 0, "\(yamlRun.stderr)")
        } else {
            Self.expectOneSentence(yamlRun)
            #expect(yamlRun.stderr.contains("engine."), "\(yamlRun.stderr)")
        }
    }

    @Test("an engine number out of range gets the same message from replay --config and check-config")
    func sameMessageEverywhere() throws {
        let config = #"{"version": 1, "engine": {"swipeThresholdMillimeters": 1000}}"#
        let replay = try Self.run(
            ["replay", "--config", "config.json", "t.jsonl"],
            text: ["config.json": config, "t.jsonl": ToolRunner.touchscreenTrace(times: [0, 1, 2])])
        let check = try Self.run(["check-config", "config.json"], text: ["config.json": config])
        #expect(check.stderr.contains("config.json: engine.swipeThresholdMillimeters: must be a number between"), "\(check.stderr)")
        #expect(replay.stderr == check.stderr)
    }

    @Test("run refuses a configuration whose engine numbers are out of range, before reading input")
    func runRefusesOutOfRange() throws {
        let config =
            #"{"version": 1, "engine": {"strokeRecognition": {"matcher": "elastic", "orientation": {"invariant": {}}, "rejectionThreshold": 0.75, "resampleCount": 1, "maximumPoints": 100000}}}"#
        let run = try Self.run(
            ["run", "--config", "config.json", "--replay", "t.jsonl"],
            text: ["config.json": config, "t.jsonl": ToolRunner.touchscreenTrace(times: [0, 1000, 2000])])
        Self.expectOneSentence(run)
    }

    @Test(
        "daemon numbers out of range are refused",
        arguments: [
            #"{"version": 1, "actions": {"timeoutSeconds": 1e300}}"#,
            #"{"version": 1, "mouse": {"minimumLengthCounts": 1e300}}"#,
            #"{"version": 1, "bindings": [{"gesture": "swipe", "minimumDistanceMillimeters": 1e300, "action": {"command": ["true"]}}]}"#,
            #"{"version": 1, "bindings": [{"gesture": "pinch", "direction": "out", "action": {"command": ["true"], "phase": "continuous", "every": 1e300}}]}"#,
            #"{"version": 1e300}"#,
        ])
    func daemonNumbersOutOfRange(config: String) throws {
        let run = try Self.run(["check-config", "config.json"], text: ["config.json": config])
        Self.expectOneSentence(run)
        #expect(run.stderr.contains("must be") || run.stderr.contains("unsupported version"), "\(run.stderr)")
    }

    // MARK: 4. XML that is not UTF-8

    static let notUTF8: [[UInt8]] = [
        Array("<G\u{0}".utf8.dropLast()) + [0xFF, 0x2F, 0x3E],  // <G\xff/>
        Array(#"<Gesture N"#.utf8) + [0xC3, 0x28] + Array(#"="a"/>"#.utf8),  // a broken two-byte sequence in an attribute name
        Array(#"<Gesture Name=""#.utf8) + [0xFE] + Array(#""/>"#.utf8),  // in an attribute value
        [0x3C, 0xC0, 0x80, 0x2F, 0x3E],  // an overlong NUL as an element name
        Array(#"<a>"#.utf8) + [0xED, 0xA0, 0x80] + Array(#"</a>"#.utf8),  // a UTF-16 surrogate in text
    ]

    @Test("$1 logs that are not UTF-8 are refused in one sentence", arguments: notUTF8)
    func xmlNotUTF8(bytes: [UInt8]) throws {
        for command in [["recognize", "log.xml"], ["train", "--library", "lib.json", "log.xml"]] {
            let (run, directory) = try Self.run(command, files: ["log.xml": Data(bytes)])
            try? FileManager.default.removeItem(at: directory)
            Self.expectOneSentence(run)
            #expect(run.stderr.contains("UTF-8"))
        }
    }

    // MARK: 5. Quadratic sequences

    @Test("replay --sequences refuses a sequence longer than 32 directions in one sentence")
    func longSequenceIsRefused() throws {
        let directions = Array(repeating: #""up""#, count: 20_000).joined(separator: ",")
        let sequences = #"{"sequences": [{"name": "long", "directions": [\#(directions)]}]}"#
        let run = try Self.run(
            ["replay", "--sequences", "seq.json", "t.jsonl"],
            text: ["seq.json": sequences, "t.jsonl": ToolRunner.touchscreenTrace(times: [0, 1000, 2000])])
        Self.expectOneSentence(run)
        #expect(run.stderr.contains("over the limit of 32"))
        // The daemon says the same.
        let config = #"{"version": 1, "sequences": [{"name": "long", "directions": [\#(directions)]}]}"#
        let check = try Self.run(["check-config", "config.json"], text: ["config.json": config])
        Self.expectOneSentence(check)
        #expect(check.stderr.contains("over the limit of 32"))
    }

    // MARK: 6. A pinch scale that ratchets

    /// Two contacts on a touchscreen: one still, the other going far away,
    /// back onto it, and one unit off it, over and over.
    static func ratchetingTrace(cycles: Int) -> String {
        var lines = [ToolRunner.touchscreenHeader()]
        var time: Int64 = 0
        var events = 0
        func frame(_ body: String) {
            lines.append(#"{"d":0,"t":\#(time),"e":[\#(body),[0,0,0]]}"#)
            events += body.components(separatedBy: "],[").count + 1
            time += 10_000
        }
        frame("[3,47,0],[3,57,1],[3,53,400],[3,54,240],[3,47,1],[3,57,2],[3,53,410],[3,54,240],[1,330,1]")
        for _ in 0..<cycles {
            frame("[3,47,1],[3,53,799],[3,54,479]")
            frame("[3,47,1],[3,53,400],[3,54,240]")
            frame("[3,47,1],[3,53,401],[3,54,240]")
        }
        frame("[3,47,0],[3,57,-1],[3,47,1],[3,57,-1],[1,330,0]")
        lines.append(#"{"end":{"frames":\#(lines.count - 1),"events":\#(events)}}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("a continuous pinch binding survives contacts whose spread alternates between tiny and huge")
    func ratchetingPinch() throws {
        let config =
            #"{"version": 1, "bindings": [{"gesture": "pinch", "direction": "out", "action": {"command": ["true"], "phase": "continuous", "every": 0.01}}, {"gesture": "pinch", "direction": "in", "action": {"command": ["true"], "phase": "continuous", "every": 0.01}}]}"#
        let trace = Self.ratchetingTrace(cycles: 40)
        let run = try Self.run(["run", "--config", "config.json", "--replay", "t.jsonl"], text: ["config.json": config, "t.jsonl": trace])
        #expect(run.status == 0, "\(run.stderr.suffix(800))")
        #expect(!run.stderr.contains("Fatal error"))
        let replay = try Self.run(["replay", "t.jsonl"], text: ["t.jsonl": trace])
        #expect(replay.status == 0)
        for line in replay.stdout.split(separator: "\n") where line.contains("\"scale\"") {
            let scale = try #require(line.split(separator: "\"scale\":").last?.prefix { $0 != "," && $0 != "}" }).description
            let value = try #require(Double(scale))
            #expect(value <= 100 && value >= 0.01, "\(line)")
        }
    }

    // MARK: 7. Files read whole before their size check

    /// A sparse file of `bytes` bytes: nothing is written, so its size costs no disk.
    static func sparseFile(_ url: URL, bytes: UInt64) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: Data("{".utf8))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: bytes)
        try handle.close()
    }

    @Test(
        "template libraries, stroke files, logs and configurations over their limit are refused by size",
        arguments: [
            (["templates", "big.json"], "big.json"),
            (["recognize", "--library", "big.json", "small.json"], "big.json"),
            (["recognize", "big.json"], "big.json"),
            (["recognize", "big.xml"], "big.xml"),
            (["train", "--library", "lib.json", "big.json"], "big.json"),
            (["replay", "--config", "big.json", "small.json"], "big.json"),
            (["replay", "--sequences", "big.json", "small.json"], "big.json"),
            (["check-config", "big.json"], "big.json"),
        ])
    func sizeIsCheckedFirst(arguments: [String], big: String) throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.sparseFile(directory.appendingPathComponent(big), bytes: 64 << 30)
        try Data(#"{"name": "x", "points": [[0, 0], [10, 10], [20, 0]]}"#.utf8).write(to: directory.appendingPathComponent("small.json"))
        let run = try ToolRunner.run(arguments, in: directory)
        Self.expectOneSentence(run)
        #expect(run.stderr.contains("limit"))
    }

    // MARK: Messages in our own words

    /// A megabyte of text, and text with control characters, line and paragraph separators.
    static let longField = String(repeating: "x", count: 1_000_000)
    static let controlField = "a\r\nb\u{0C}c\u{2028}d\u{2029}e\u{0B}f\u{1B}[31mg\u{85}h"

    /// For each reader: a file that puts `field` where the message must echo
    /// or name it, and the command that reads the file.
    static func readerCases(_ field: String) -> [(name: String, arguments: [String], file: String, content: String)] {
        let json = String(decoding: try! JSONEncoder().encode(field), as: UTF8.self)
        let header = ToolRunner.touchscreenHeader().replacingOccurrences(of: #""codes":{"0""#, with: #""codes":{\#(json):[1],"0""#)
        return [
            ("JSON trace", ["info", "t.jsonl"], "t.jsonl", header + "\n"),
            (
                "JSON trace frame", ["info", "t.jsonl"], "t.jsonl",
                ToolRunner.touchscreenHeader() + "\n{\"d\":0,\"t\":0,\"e\":[[3,47,\(field)]]}\n"
            ),
            (
                "libinput YAML", ["info", "t.yml"], "t.yml",
                "version: 1\ndevices:\n- evdev:\n    name: x\n    id: [1, 2, 3, 4]\n    codes:\n      \(json): [1]\n"
            ),
            ("evemu", ["info", "t.events"], "t.events", "N: pad\nI: 0018 0000 0000 0000\nE: \(field) 0000 0000 0000\n"),
            ("evemu type", ["info", "t.events"], "t.events", "N: pad\nI: \(field) 0000 0000 0000\n"),
            ("$1 XML", ["recognize", "t.xml"], "t.xml", "<Gesture Name=\"a\"><Point X=\"1\" Y=\"2\"/><\(field)</Gesture>"),
            ("stroke file", ["recognize", "t.json"], "t.json", #"{"name": "a", "points": \#(json)}"#),
            (
                "stroke file name", ["train", "--library", "lib.json", "t.json"], "t.json",
                #"{"name": \#(json), "points": [[0, 0], [5, 5], [9, 1]]}"#
            ),
            ("template library", ["templates", "t.json"], "t.json", #"{"format": \#(json), "version": 1, "templates": []}"#),
            (
                "template library name", ["templates", "t.json"], "t.json",
                #"{"format": "gestures-templates", "version": 1, "templates": [{"name": \#(json), "points": [[0, 0], [5, 5], [9, 1]]}]}"#
            ),
            ("daemon JSON key", ["check-config", "c.json"], "c.json", #"{"version": 1, \#(json): 1}"#),
            (
                "daemon JSON value", ["check-config", "c.json"], "c.json",
                #"{"version": 1, "bindings": [{"gesture": \#(json), "action": {"command": ["true"]}}]}"#
            ),
            ("daemon YAML key", ["check-config", "c.yaml"], "c.yaml", "version: 1\n\(json): 1\n"),
            (
                "daemon YAML value", ["check-config", "c.yaml"], "c.yaml",
                "version: 1\nbindings:\n- gesture: \(json)\n  action: {command: [\"true\"]}\n"
            ),
            (
                "sequences file", ["replay", "--sequences", "s.json", "t.jsonl"], "s.json",
                #"{"sequences": [{"name": "a", "directions": [\#(json)]}]}"#
            ),
            (
                "engine configuration", ["replay", "--config", "e.json", "t.jsonl"], "e.json",
                #"{"version": 1, "engine": {"swipeDirection": {"ways": \#(json)}}}"#
            ),
            (
                "engine configuration key", ["replay", "--config", "e.json", "t.jsonl"], "e.json",
                #"{"version": 1, "engine": {"strokeRecognition": {"matcher": \#(json)}}}"#
            ),
        ]
    }

    @Test(
        "every reader quotes at most a short excerpt of a megabyte field, on one line",
        arguments: readerCases(longField).map(\.name))
    func longFieldsAreShortened(name: String) throws {
        let entry = try #require(Self.readerCases(Self.longField).first { $0.name == name })
        var files = ["t.jsonl": ToolRunner.touchscreenTrace(times: [0, 1000, 2000])]
        files[entry.file] = entry.content
        let run = try Self.run(entry.arguments, text: files)
        Self.expectOneSentence(run)
    }

    @Test(
        "every reader escapes control characters and separators it quotes",
        arguments: readerCases(controlField).map(\.name))
    func controlCharactersAreEscaped(name: String) throws {
        let entry = try #require(Self.readerCases(Self.controlField).first { $0.name == name })
        var files = ["t.jsonl": ToolRunner.touchscreenTrace(times: [0, 1000, 2000])]
        files[entry.file] = entry.content
        let run = try Self.run(entry.arguments, text: files)
        Self.expectOneSentence(run)
        #expect(!run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{85}") && !run.stderr.contains("\u{0B}"))
    }

    @Test(
        "messages never name Swift types or quote Foundation's decoding wording",
        arguments: [
            ("replay", #"{"sequences": [{"name": "a", "directions": ["le]ft"]}]}"#),
            ("replay", #"{"sequences": [{"name": "a", "directions": [["up"]]}]}"#),
            ("replay", #"{"sequences": {"a": 1}}"#),
            ("config", #"{"version": 1, "engine": {"holdDelayMilliseconds": [1]}}"#),
            ("config", #"{"version": 1, "engine": {"strokeRecognition": {"matcher": "best"}}}"#),
            ("config", #"{"version": 1, "engine": {"strokeRecognition": {"orientation": 3}}}"#),
            ("config", #"{"version": 1, "engine": {"twoFingerSwipes": "yes"}}"#),
            ("config", #"{"version": 1, "engine": {"touchpadStrokeFingers": 2.5}}"#),
            ("config", #"{"version": 1, "sequences": [{"name": 3, "directions": ["up"]}]}"#),
        ])
    func messagesInOurWords(kind: String, content: String) throws {
        let option = kind == "replay" ? "--sequences" : "--config"
        let run = try Self.run(
            ["replay", option, "f.json", "t.jsonl"],
            text: ["f.json": content, "t.jsonl": ToolRunner.touchscreenTrace(times: [0, 1000, 2000])])
        Self.expectOneSentence(run)
        for leak in [
            "Double", "String", "Int", "Swift", "DecodingError", "Debug description", "Cannot initialize", "Expected to decode",
            "CodingKeys",
        ] {
            #expect(!run.stderr.contains(leak), "\(leak) in \(run.stderr)")
        }
    }

    @Test("a header nested 100,000 deep says it is too deep, with the limit")
    func deepHeader() throws {
        let header = String(repeating: "[", count: 100_000)
        let run = try Self.run(
            ["info", "t.jsonl"], text: ["t.jsonl": "{\"format\":\"gestures-trace\",\"version\":1,\"devices\":" + header + "\n"])
        Self.expectOneSentence(run)
        #expect(run.stderr.contains("64"))
        #expect(run.stderr.contains("deep"))
        #expect(!run.stderr.contains("not a gestures-trace header"))
    }

    @Test("a configuration nested 600 deep says it is too deep, with the limit and where", arguments: ["c.json", "c.yaml"])
    func deepConfiguration(file: String) throws {
        let nested = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let run = try Self.run(["check-config", file], text: [file: #"{"version": 1, "devices": \#(nested)}"#])
        Self.expectOneSentence(run)
        #expect(run.stderr.contains("64"))
        #expect(run.stderr.contains("line 1"))
        #expect(!run.stderr.contains("not valid JSON"))
    }

    @Test("engine and sequence files nested too deep say so", arguments: ["--config", "--sequences"])
    func deepEngineFiles(option: String) throws {
        let nested = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let run = try Self.run(
            ["replay", option, "f.json", "t.jsonl"], text: ["f.json": nested, "t.jsonl": ToolRunner.touchscreenTrace(times: [0, 1, 2])])
        Self.expectOneSentence(run)
        #expect(run.stderr.contains("deeper than the limit of 64"))
    }
}
