import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The files of issue 37 under hostile paths: FIFOs that hung, one-character
/// outputs that trapped, outputs renamed over links and special files,
/// conversions that wrote what no reader takes, and render's own sniffing.
/// Every test runs the built executable, as a user would; a run that hangs is
/// killed at a generous deadline and fails.
@Suite("hardening, round 3: files (end to end)")
struct HardeningRound3Tests {
    static let deadline: Duration = .seconds(60)
    static let tap = ToolRunner.repository.appendingPathComponent("Recordings/synthetic/x1carbon.3-finger-tap.jsonl").path
    static let circle = ToolRunner.repository.appendingPathComponent("Recordings/strokes/circle.json").path

    static func type(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    /// One line on standard error, no trap.
    static func isOneSentence(_ run: ToolRunner.Run) -> Bool {
        !run.stderr.contains("Fatal error") && run.stderr.split(separator: "\n").count == 1
    }

    // MARK: 2. FIFOs end at once

    @Test("doctor with a FIFO for the configuration ends, naming it as a pipe")
    func doctorConfigurationFIFO() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("config/gestures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #require(mkfifo(folder.appendingPathComponent("config.yaml").path, 0o600) == 0)
        let run = try ToolRunner.run(
            ["doctor"], environment: ["XDG_CONFIG_HOME": directory.appendingPathComponent("config").path], deadline: Self.deadline)
        #expect(!run.timedOut, "doctor waited on the FIFO")
        #expect(run.stdout.contains("config.yaml is a pipe (FIFO), not a regular file"), "\(run.stdout)")
    }

    @Test("doctor --root with FIFOs for /etc/group, /etc/passwd and the configuration there ends")
    func doctorRootFIFOs() throws {
        let root = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in ["etc", "home/u/.config/gestures", "dev/input", "proc"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for fifo in ["etc/group", "etc/passwd", "home/u/.config/gestures/config.yaml", "dev/input/event0"] {
            try #require(mkfifo(root.appendingPathComponent(fifo).path, 0o600) == 0)
        }
        let run = try ToolRunner.run(
            ["doctor", "--root", root.path], environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "/home/u/.config"],
            deadline: Self.deadline)
        #expect(!run.timedOut, "doctor waited on a FIFO")
        #expect(run.stdout.contains("config.yaml is a pipe (FIFO), not a regular file"), "\(run.stdout)")
        #expect(!run.stderr.contains("Fatal error"))
    }

    @Test("render of a FIFO ends at once with 'is not a regular file'")
    func renderFIFO() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #require(mkfifo(directory.appendingPathComponent("in").path, 0o600) == 0)
        let run = try ToolRunner.run(["render", "in", "-o", "out.svg"], in: directory, deadline: Self.deadline)
        #expect(!run.timedOut)
        #expect(run.status == 1 && run.stderr.contains("in is not a regular file"), "\(run.stderr)")
        #expect(Self.isOneSentence(run))
    }

    // MARK: 7. Paths that trapped

    static let oneCharacterOutputs: [[String]] = [
        ["templates", "default", "--export", "l"],
        ["train", "--library", "l", circle],
        ["convert", tap, "-o", "t", "--to", "json"],
        ["render", tap, "-o", "p", "--format", "svg", "--no-config"],
        ["render", "default", "-o", "p", "--format", "svg"],
    ]

    @Test("a one-character output path is written, not trapped on", arguments: oneCharacterOutputs)
    func oneCharacterOutput(arguments: [String]) throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try ToolRunner.run(arguments, in: directory, deadline: Self.deadline)
        #expect(run.status == 0, "\(run.stderr)")
        let written = arguments[arguments.firstIndex { $0 == "-o" || $0 == "--export" || $0 == "--library" }! + 1]
        #expect(Self.type(directory.appendingPathComponent(written).path) == S_IFREG)
    }

    /// Generated output paths: dots, slashes, 4,096 bytes, the replacement character.
    static let generatedPaths: [String] = [
        ".", "..", "/", "//", "./", "../", "a/", "a//", "x/.", "x/..", "/.", String(repeating: "a", count: 4_096),
        String(repeating: "a/", count: 2_048) + "b", "\u{FFFD}", "\u{FFFD}/\u{FFFD}", "é", "-x", " ", "/\u{0301}",
    ]

    @Test("generated output paths end in a file or one sentence", arguments: generatedPaths)
    func generatedOutputPaths(path: String) throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for arguments in [
            ["templates", "default", "--export", path], ["render", "default", "-o", path, "--format", "svg"],
            ["convert", Self.tap, "-o", path, "--to", "json"],
        ] {
            let run = try ToolRunner.run(arguments, in: directory, deadline: Self.deadline)
            #expect(
                !run.timedOut && [0, 1, 64].contains(run.status),
                "\(arguments[0]) \(path.prefix(20)): \(run.status) \(run.stderr.prefix(300))")
            #expect(!run.stderr.contains("Fatal error") && run.stderr.split(separator: "\n").count <= 1, "\(run.stderr.prefix(300))")
        }
    }

    @Test(
        "output paths of invalid UTF-8 bytes end in a file or one sentence",
        arguments: [#"\377"#, #"a/\377"#, #"\377/x.svg"#, #"\300\257"#, #"x\355\240\200.svg"#])
    func invalidUTF8OutputPaths(bytes: String) throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The shell makes the bytes: an argument of Process must be a Swift string.
        for command in ["templates default --export", "render default --format svg -o", "convert \(Self.tap) --to json -o"] {
            let run = try ToolRunner.run(
                ["-c", #"exec "$0" \#(command) "$(printf '\#(bytes)')""#, ToolRunner.executable.path], in: directory,
                executable: URL(fileURLWithPath: "/bin/sh"), deadline: Self.deadline)
            #expect(!run.timedOut && [0, 1, 64].contains(run.status), "\(command) \(bytes): \(run.status) \(run.stderr.prefix(300))")
            #expect(!run.stderr.contains("Fatal error") && run.stderr.split(separator: "\n").count <= 1, "\(run.stderr.prefix(300))")
        }
    }

    // MARK: 9. One output writer

    @Test("an exported library through a symbolic link replaces the file it names and keeps the link")
    func exportThroughLink() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("dotfiles"), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: directory.appendingPathComponent("dotfiles/library.json"))
        #expect(symlink("dotfiles/library.json", directory.appendingPathComponent("library.json").path) == 0)
        let run = try ToolRunner.run(["templates", "default", "--export", "library.json"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.type(directory.appendingPathComponent("library.json").path) == S_IFLNK, "the link stays a link")
        let listed = try ToolRunner.run(["templates", "dotfiles/library.json"], in: directory)
        #expect(listed.stdout.contains("16 gestures"), "the file the link names is the library: \(listed.stdout) \(listed.stderr)")
    }

    @Test("train --library takes a symbolic link to a library and adds to the file it names")
    func trainThroughLink() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("dotfiles"), withIntermediateDirectories: true)
        let made = try ToolRunner.run(["templates", "default", "--export", "dotfiles/library.json"], in: directory)
        try #require(made.status == 0, "\(made.stderr)")
        #expect(symlink("dotfiles/library.json", directory.appendingPathComponent("linked.json").path) == 0)
        let run = try ToolRunner.run(["train", "--library", "linked.json", "--name", "ring", Self.circle], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.type(directory.appendingPathComponent("linked.json").path) == S_IFLNK)
        let listed = try ToolRunner.run(["templates", "dotfiles/library.json"], in: directory)
        #expect(listed.stdout.contains("ring"), "\(listed.stdout)")
    }

    @Test("render -o through a symbolic link keeps the link")
    func renderThroughLink() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("old".utf8).write(to: directory.appendingPathComponent("real.svg"))
        #expect(symlink("real.svg", directory.appendingPathComponent("picture.svg").path) == 0)
        let run = try ToolRunner.run(["render", "default", "-o", "picture.svg"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.type(directory.appendingPathComponent("picture.svg").path) == S_IFLNK)
        #expect(try String(contentsOf: directory.appendingPathComponent("real.svg"), encoding: .utf8).hasPrefix("<?xml"))
    }

    @Test("outputs over a FIFO end at once with one sentence, and the FIFO stays a FIFO")
    func outputsOverAFIFO() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("pipe.svg").path
        try #require(mkfifo(fifo, 0o600) == 0)
        for arguments in [
            ["templates", "default", "--export", "pipe.svg"], ["render", "default", "-o", "pipe.svg"],
            ["convert", Self.tap, "-o", "pipe.svg", "--to", "json"], ["train", "--library", "pipe.svg", Self.circle],
        ] {
            let run = try ToolRunner.run(arguments, in: directory, deadline: Self.deadline)
            #expect(!run.timedOut, "\(arguments[0]) waited on the FIFO")
            #expect(run.status == 1 && Self.isOneSentence(run), "\(arguments[0]): \(run.stderr)")
            #expect(Self.type(fifo) == S_IFIFO, "\(arguments[0]) left the FIFO a FIFO")
        }
    }

    @Test("/dev/null named on purpose is written as a stream and stays a device")
    func characterDeviceOutput() throws {
        let run = try ToolRunner.run(["render", "default", "-o", "/dev/null", "--format", "svg"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.type("/dev/null") == S_IFCHR)
        for name in ["/dev/stdout", "-"] {
            let export = try ToolRunner.run(["templates", "default", "--export", name])
            #expect(export.status == 0, "\(export.stderr)")
            // The library alone, as a whole JSON document: no table after it.
            let object = try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any]
            #expect(object?["format"] as? String == "gestures-templates")
        }
    }

    // MARK: 5. What convert writes reads back

    @Test("a trace with empty frames converts to every format, and each reads back to the same trace")
    func convertEmptyFrames() throws {
        var lines = ToolRunner.touchscreenTrace(times: [1_000, 2_000, 3_000]).split(separator: "\n").map(String.init)
        // An empty frame before, between and after the frames: "e": [].
        lines.insert(#"{"d":0,"t":500,"e":[]}"#, at: 1)
        lines.insert(#"{"d":0,"t":2500,"e":[]}"#, at: 4)
        lines.insert(#"{"d":0,"t":3500,"e":[]}"#, at: 6)
        lines[lines.count - 1] = lines[lines.count - 1].replacingOccurrences(of: #""frames":3"#, with: #""frames":6"#)
        let directory = try ToolRunner.directory(holding: ["in.jsonl": lines.joined(separator: "\n") + "\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = try ToolRunner.run(["convert", "in.jsonl", "-o", "plain.jsonl"], in: directory)
        try #require(plain.status == 0, "\(plain.stderr)")
        for output in ["out.yml", "out.events", "out.jsonl"] {
            let run = try ToolRunner.run(["convert", "in.jsonl", "-o", output], in: directory)
            #expect(run.status == 0, "\(output): \(run.stderr)")
            let back = try ToolRunner.run(["convert", output, "-o", "back-\(output).jsonl"], in: directory)
            #expect(back.status == 0, "\(output) reads back: \(back.stderr)")
            #expect(
                try Data(contentsOf: directory.appendingPathComponent("back-\(output).jsonl"))
                    == Data(contentsOf: directory.appendingPathComponent("plain.jsonl")), "\(output) reads back to the same trace")
            let info = try ToolRunner.run(["info", output], in: directory)
            #expect(info.status == 0, "\(output): \(info.stderr)")
        }
    }

    // MARK: 6 and 8. render decides by the readers every command uses

    /// A JSON trace header of `devices` touchscreens named `name`, and the tap's frames on device 0.
    static func trace(devices: Int, name: String) -> Data {
        let header = ToolRunner.touchscreenHeader()
        let device = String(header[header.range(of: "[{")!.upperBound...].dropLast(3))
        let named = device.replacingOccurrences(of: "\"Atmel maXTouch Touchscreen\"", with: "\"\(name)\"")
        let all =
            #"{"format":"gestures-trace","version":1,"devices":["#
            + Array(repeating: "{" + named + "}", count: devices).joined(separator: ",") + "]}"
        let frames = ToolRunner.touchscreenTrace(times: [0, 10_000, 20_000, 30_000]).split(separator: "\n").dropFirst()
        return Data((all + "\n" + frames.joined(separator: "\n") + "\n").utf8)
    }

    @Test(
        "render draws a recording whose header line is over 64 KiB, as replay reads it",
        arguments: [(1, String(repeating: "Long Touchscreen ", count: 4_500)), (64, String(repeating: "Touchscreen ", count: 100))])
    func renderLongHeader(devices: Int, name: String) throws {
        let data = Self.trace(devices: devices, name: name)
        #expect(data.prefix { $0 != 0x0A }.count > 64 * 1024)
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try data.write(to: directory.appendingPathComponent("long.jsonl"))
        let replay = try ToolRunner.run(["replay", "long.jsonl", "--no-config"], in: directory)
        try #require(replay.status == 0, "replay reads it: \(replay.stderr)")
        let run = try ToolRunner.run(["render", "long.jsonl", "--no-config", "-o", "long.svg"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test("render of a trace with an invalid UTF-8 name says it is not UTF-8 text, as replay does")
    func renderInvalidUTF8() throws {
        var data = Self.trace(devices: 1, name: "Pad")
        let name = data.firstRange(of: Data("\"Pad\"".utf8))!
        data.replaceSubrange(name, with: Data([0x22, 0x50, 0xFF, 0xFE, 0x22]))
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try data.write(to: directory.appendingPathComponent("bad.jsonl"))
        let run = try ToolRunner.run(["render", "bad.jsonl", "-o", "bad.svg"], in: directory)
        let replay = try ToolRunner.run(["replay", "bad.jsonl"], in: directory)
        #expect(run.status == 1 && run.stderr.contains("is not UTF-8 text"), "\(run.stderr)")
        #expect(replay.stderr.contains("is not UTF-8 text"), "\(replay.stderr)")
    }

    @Test("render refuses a 16 MB one-template library with the sentence templates gives")
    func renderHugeLibrary() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = #"{"format":"gestures-templates","version":1,"templates":[{"name":"big","points":["#
        text += Array(repeating: "[1,2]", count: 2_700_000).joined(separator: ",")
        text += "]}]}"
        try Data(text.utf8).write(to: directory.appendingPathComponent("big.json"))
        let run = try ToolRunner.run(["render", "big.json", "-o", "big.svg"], in: directory, deadline: Self.deadline)
        let templates = try ToolRunner.run(["templates", "big.json"], in: directory)
        #expect(run.status == 1 && Self.isOneSentence(run), "\(run.stderr)")
        #expect(
            run.stderr.replacingOccurrences(of: "gestures render", with: "")
                == templates.stderr.replacingOccurrences(of: "gestures templates", with: ""))
    }

    // MARK: 10. Smaller

    @Test("convert -o with no extension names the path, not '.'")
    func convertWithoutExtension() throws {
        let run = try ToolRunner.run(["convert", Self.tap, "-o", "x"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("cannot tell the output format from 'x', which has no extension"), "\(run.stderr)")
    }

    @Test("recognize refuses a stroke with no points", arguments: [#"{"points": []}"#, #"[{"name": "a", "points": []}]"#])
    func recognizeEmptyStroke(text: String) throws {
        let directory = try ToolRunner.directory(holding: ["empty.json": text])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try ToolRunner.run(["recognize", "empty.json"], in: directory)
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("a stroke needs at least one point to be recognised") && Self.isOneSentence(run), "\(run.stderr)")
    }
}
