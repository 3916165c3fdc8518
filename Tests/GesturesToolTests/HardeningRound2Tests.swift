import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The newer features under hostile input (issue 26): each class that once
/// trapped, hung, flooded or wrote what it should not now ends in a result
/// or one sentence. Every test runs the built executable, as a user would.
@Suite("hardening, round 2 (end to end)")
struct HardeningRound2Tests {
    /// Nothing but text: no control character except newlines.
    static func isText(_ text: String) -> Bool {
        !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F }
    }

    // MARK: 1. Times and windows in render

    @Test(
        "render over frame times at the ends of Int64 and any --from and --to ends normally",
        arguments: [
            ([Int64.max - 2_000, Int64.max - 1_000, Int64.max], ["--to", "5"]),
            ([Int64.min, 0, Int64.max], ["--from", "1"]),
            ([0, 1_000, 2_000], ["--to", "1e22"]),
            ([0, 1_000, 2_000], ["--from", "9.3e21"]),
            ([Int64.min, Int64.min + 1_000, Int64.min + 2_000], ["--from", "9e15", "--to", "9.2e15"]),
        ])
    func renderTimes(times: [Int64], window: [String]) throws {
        let directory = try ToolRunner.directory(holding: ["t.jsonl": ToolRunner.touchscreenTrace(times: times, step: 20)])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try ToolRunner.run(["render", "t.jsonl", "--no-config", "-o", "t.svg"] + window, in: directory)
        #expect(run.status == 0 || run.status == 1 || run.status == 64, "status \(run.status): \(run.stderr.prefix(300))")
        #expect(!run.stderr.contains("Fatal error") && run.stderr.split(separator: "\n").count <= 1, "\(run.stderr.prefix(300))")
    }

    // MARK: 2. A surface of absurd size

    @Test("render bounds what it draws of a surface of any size", arguments: [Int64(2_147_483_647), 100_000_000])
    func renderHugeSurface(maximum: Int64) throws {
        let directory = try ToolRunner.directory(holding: [
            "t.jsonl": ToolRunner.touchscreenTrace(times: [0, 10_000, 20_000], width: maximum, height: maximum, resolution: 1, step: 20)
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try ToolRunner.run(["render", "t.jsonl", "--no-config", "-o", "t.svg"], in: directory)
        #expect(run.status == 0, "\(run.stderr.prefix(300))")
        let size = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("t.svg").path)[.size] as? Int ?? 0
        #expect(size < 200_000, "the picture is \(size) bytes")
    }

    // MARK: 3. Limits while reading

    @Test(
        "a template library inside every limit (279 templates of 10,000 points, 16 MiB) is read in proportion to what it holds",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"),
            "/usr/bin/time measures the peak memory and is not installed (Debian: time)"))
    func libraryAtItsLimits() throws {
        let points = (0..<10_000).map { "[\($0 % 97),\($0 % 89)]" }.joined(separator: ",")
        var templates: [String] = []
        var bytes = 60
        while true {
            let template = #"{"name":"t\#(templates.count % 10)","points":[\#(points)]}"#
            guard bytes + template.utf8.count + 1 <= 16 << 20 else { break }
            templates.append(template)
            bytes += template.utf8.count + 1
        }
        let library = #"{"format":"gestures-templates","version":1,"templates":[\#(templates.joined(separator: ","))]}"#
        let directory = try ToolRunner.directory(holding: ["big.json": library])
        defer { try? FileManager.default.removeItem(at: directory) }
        // Peak memory (not time) of the process, from /usr/bin/time.
        let run = try ToolRunner.run(
            ["-f", "peak %M KB", ToolRunner.executable.path, "templates", "big.json"],
            in: directory, executable: URL(fileURLWithPath: "/usr/bin/time"))
        #expect(run.status == 0, "\(run.stderr.suffix(300))")
        let peak = run.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") }.flatMap { Int($0.split(separator: " ")[1]) } ?? .max
        #expect(peak < 400_000, "peak \(peak) KB for \(templates.count) templates")
    }

    // MARK: 5. recognize --explain -o -

    @Test("recognize --explain -o - writes only the SVG to standard output")
    func explainToStandardOutput() throws {
        let run = try ToolRunner.run(["recognize", "--explain", "-o", "-", "Recordings/strokes/check.json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("<?xml") || run.stdout.hasPrefix("<svg"))
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("</svg>"))
        #expect(XMLParser(data: Data(run.stdout.utf8)).parse(), "the SVG is well-formed XML")
        #expect(run.stderr.contains("best"))
    }

    // MARK: 6. eval with no possible trial

    @Test(
        "eval with no possible trial fails in one sentence with the figures, and writes no matrix",
        arguments: [
            ["--templates", "9"], ["--protocol", "user-independent", "--templates", "1"],
        ])
    func evalWithoutTrials(options: [String]) throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["circle01", "circle02", "check01", "check02"] {
            let folder = directory.appendingPathComponent("logs/s01/fast")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let xml =
                #"<?xml version="1.0" encoding="utf-8"?><Gesture Name="\#(name)" Number="1" NumPts="3"><Point X="1" Y="2" T="0" /><Point X="3" Y="5" T="10" /><Point X="6" Y="9" T="20" /></Gesture>"#
            try Data(xml.utf8).write(to: folder.appendingPathComponent("\(name).xml"))
        }
        let run = try ToolRunner.run(["eval", "logs", "--confusion", "m.svg"] + options, in: directory)
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("no trial is possible"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("m.svg").path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("m-E9.svg").path))
    }

    // MARK: 7. run --replay -

    @Test("run --replay - checks paths from standard input as it checks arguments, and fails for them")
    func replayPathsFromStandardInput() throws {
        let directory = try ToolRunner.directory(holding: ["config.json": #"{"version": 1, "bindings": []}"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let long = String(repeating: "a\u{1B}", count: 3_000_000)
        let list = [
            "/dev/zero", fifo, "missing\u{1B}]0;x\u{07}.jsonl", long,
            ToolRunner.repository.appendingPathComponent("Recordings/synthetic/atmel.1-finger-stroke-check.jsonl").path,
        ]
        let input = directory.appendingPathComponent("paths")
        try Data(list.joined(separator: "\n").utf8).write(to: input)
        let run = try ToolRunner.run(["run", "--config", "config.json", "--replay", "-"], in: directory, input: input)
        #expect(run.status == 1, "\(run.stderr.prefix(500))")
        #expect(Self.isText(run.stderr), "raw control characters in \(run.stderr.prefix(500))")
        #expect(run.stderr.utf8.count < 20_000, "\(run.stderr.utf8.count) bytes of log")
        #expect(run.stderr.contains("replayed "), "the good recording is still replayed")
        #expect(run.stderr.contains("longer than 4096 bytes"))
    }

    // MARK: 8. Control characters from files

    @Test(
        "a library whose names hold control characters is refused in one sentence, printed as text", arguments: ["templates", "recognize"])
    func controlCharactersInNames(command: String) throws {
        let library =
            #"{"format":"gestures-templates","version":1,"templates":[{"name":"x\u001b]0;pwned\u0007\u001b[2J","points":[[0,0],[5,5],[9,1]]}]}"#
        let directory = try ToolRunner.directory(holding: ["lib.json": library])
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments =
            command == "templates"
            ? ["templates", "lib.json"]
            : ["recognize", "--library", "lib.json", ToolRunner.repository.appendingPathComponent("Recordings/strokes/check.json").path]
        let run = try ToolRunner.run(arguments, in: directory)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(Self.isText(run.stdout + run.stderr), "\(run.stderr)")
    }

    // MARK: 10. bench's temporary files

    @Test("bench writes its traces into a private folder and removes it")
    func benchLeavesNothing() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try ToolRunner.run([
            "bench", "--only", "traces", "--trace-frames", "100", "--passes", "1", "--temporary-directory", directory.path,
        ])
        #expect(run.status == 0, "\(run.stderr.suffix(300))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("an interrupted bench --only memory removes its partly written trace", arguments: [SIGTERM, SIGINT])
    func interruptedBenchLeavesNothing(signal: Int32) throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = ToolRunner.executable
        process.arguments = ["bench", "--only", "memory", "--trace-size", "2000", "--temporary-directory", directory.path]
        process.currentDirectoryURL = ToolRunner.repository
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait (up to 60 s) for the trace to be started, then interrupt.
        var started = false
        for _ in 0..<600 where !started {
            let folders = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            started = folders.contains { folder in
                !((try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)) ?? []).isEmpty
            }
            if !started { usleep(100_000) }
        }
        #expect(started)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == 128 + signal)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    // MARK: 11. Smaller

    @Test("a picture path that names a folder is refused before anything is written")
    func pictureFolderPath() throws {
        let run = try ToolRunner.run(["render", "default", "-o", "m.svg/"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("names a folder"))
    }

    @Test("bench --only recognition reads no device description")
    func recognitionNeedsNoDevices() throws {
        let run = try ToolRunner.run(["bench", "--only", "recognition", "--quick", "--devices", "/nonexistent"])
        #expect(run.status == 0, "\(run.stderr.suffix(300))")
    }
}
