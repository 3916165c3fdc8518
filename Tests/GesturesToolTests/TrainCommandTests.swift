import Foundation
import GestureRecognition
import Testing

@Suite("gestures train from recordings, --from-defaults, plurals (end to end)")
struct TrainCommandTests {
    static let check = "Recordings/synthetic/atmel.1-finger-stroke-check.jsonl"
    static let circle = "Recordings/synthetic/atmel.1-finger-stroke-circle.jsonl"

    @Test("a mouse recording's strokes train as touch strokes do, and one without strokes says what was drawn")
    func mouseRecordingTrains() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("lib.json").path
        let train = try ToolRunner.run([
            "train", "--library", library, "--name", "round", "Recordings/synthetic/mouse.stroke-circle.jsonl", "--no-config",
        ])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stdout == "added 1 sample to \(library) (1 gesture, 1 sample)\n")
        // The sample is the stroke as the daemon draws it: recognised back at a perfect score.
        let replay = try ToolRunner.run(["replay", "--library", library, "Recordings/synthetic/mouse.stroke-circle.jsonl", "--no-config"])
        #expect(replay.stdout.contains(#""template":"round","score":1"#), "\(replay.stdout)")
        let click = try ToolRunner.run([
            "train", "--library", library, "--name", "round", "Recordings/synthetic/mouse.click.jsonl", "--no-config",
        ])
        #expect(click.status == 1)
        #expect(
            click.stderr == "gestures train: Recordings/synthetic/mouse.click.jsonl holds no stroke drawn with the mouse's right button.\n",
            "\(click.stderr)")
    }

    @Test("a recording's stroke becomes a sample as the engine sees it, in millimetres")
    func recordingStrokeIsTheEnginesStroke() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("lib.json").path
        let train = try ToolRunner.run(["train", "--library", library, "--name", "my-check", Self.check, "--no-config"])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stdout == "added 1 sample to \(library) (1 gesture, 1 sample)\n")
        // The engine, replaying the same recording with that library, takes it for the sample
        // at a perfect score: the sample is the very stroke it draws. (Beside the bundled
        // `check`, which it resembles, a touchscreen stroke is ambiguous and fires nothing:
        // Docs/GestureEngine.md, strokes.)
        let replay = try ToolRunner.run(["replay", "--no-config", "--library", library, Self.check])
        #expect(replay.stdout.contains(#""template":"my-check","score":1}"#), "\(replay.stdout)")
    }

    @Test("strokes of a recording are drawn with the configuration's finger count on touchpads, and judged by the stroke rule")
    func touchpadStrokesNeedTheConfiguration() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("lib.json").path
        let swipe = "Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl"  // the fingers land one by one
        let off = try ToolRunner.run(["train", "--library", library, "--name", "line", "--no-config", swipe])
        #expect(off.status == 1)
        #expect(
            off.stderr
                == "gestures train: \(swipe) was recorded on a touchpad, where strokes are off in the engine configuration; set engine.touchpadStrokeFingers (the finger count that draws) in the configuration file.\n"
        )
        #expect(!FileManager.default.fileExists(atPath: library))
        let config = directory.appendingPathComponent("config.yaml")
        try "version: 1\nengine: {touchpadStrokeFingers: 3}\n".write(to: config, atomically: true, encoding: .utf8)
        // With 3 fingers drawing, the engine draws the swipe as a stroke, and the
        // capture rule refuses it: a straight line never fires, so it is no sample.
        let on = try ToolRunner.run(["train", "--library", library, "--name", "line", "--config", config.path, swipe])
        #expect(on.status == 1)
        #expect(
            on.stderr
                == "gestures train: \(swipe) holds no stroke drawn with 3 fingers (1 stroke drawn, not taken: too narrow: width 0.01 of its length, under the minimum 0.1).\n"
        )
        #expect(!FileManager.default.fileExists(atPath: library))
    }

    @Test(
        "recordings without strokes or without --name say so, and the library is untouched",
        arguments: [
            (
                ["--name", "x", "Recordings/synthetic/atmel.1-finger-tap.jsonl"],
                "gestures train: Recordings/synthetic/atmel.1-finger-tap.jsonl holds no stroke drawn with 1 finger.\n"
            ),
            (
                [TrainCommandTests.check],
                "gestures train: \(TrainCommandTests.check) is a recording, which does not name its gesture; give --name NAME.\n"
            ),
        ])
    func noStrokes(arguments: [String], message: String) throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("lib.json").path
        let run = try ToolRunner.run(["train", "--library", library, "--no-config"] + arguments)
        #expect(run.status == 1)
        #expect(run.stderr == message)
        #expect(!FileManager.default.fileExists(atPath: library))
    }

    @Test("--from-defaults adds the bundled shapes an existing library lacks, and only those")
    func fromDefaultsOnAnExistingLibrary() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("lib.json").path
        var run = try ToolRunner.run(["train", "--library", library, "--name", "circle", "Recordings/strokes/circle.json"])
        #expect(run.stdout == "added 1 sample to \(library) (1 gesture, 1 sample)\n")
        run = try ToolRunner.run(["train", "--library", library, "--from-defaults", "--name", "zz", "Recordings/strokes/zigzag.json"])
        // The 15 other shapes come with all their templates, variants and all.
        let added = TemplateLibrary.dollarShapes.templates.filter { $0.name != "circle" }.count
        #expect(
            run.stdout == "added 1 sample to \(library), with 15 bundled shapes from the defaults (17 gestures, \(added + 2) samples)\n")
        let listing = try ToolRunner.run(["templates", library, "--format", "json"])
        #expect(listing.stdout.contains(#"{"name":"circle","samples":1}"#) && listing.stdout.contains(#"{"name":"zz","samples":1}"#))
    }

    @Test("training over many files shows plain progress lines when stderr is not a terminal")
    func plainProgress() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("lib.json").path
        let files = Array(repeating: "Recordings/strokes/check.json", count: 20)
        let run = try ToolRunner.run(["train", "--library", library] + files)
        #expect(run.status == 0)
        #expect(run.stdout == "added 20 samples to \(library) (1 gesture, 20 samples)\n")
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 10, "one line a tenth: \(run.stderr)")
        // A slow machine adds ", about N s left" after the first second.
        #expect(lines.first?.hasPrefix("gestures train: 2/20 files (10%)") == true, "\(run.stderr)")
        #expect(lines.last == "gestures train: 20/20 files (100%)")
        #expect(!run.stderr.contains("\r"))
    }

    @Test("on a terminal the progress is one line redrawn in place and cleared at the end")
    func terminalProgress() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("lib.json").path
        let files = Array(repeating: "Recordings/strokes/check.json", count: 20)
        let run = try PseudoTerminal.run(["train", "--library", library] + files)
        #expect(run.status == 0)
        #expect(run.stdout == "added 20 samples to \(library) (1 gesture, 20 samples)\n")
        #expect(run.terminal.hasPrefix("\r\u{1B}[Kgestures train: 1/20 files (5%)"), "\(run.terminal.debugDescription)")
        #expect(run.terminal.contains("\r\u{1B}[Kgestures train: 20/20 files (100%)"), "\(run.terminal.debugDescription)")
        #expect(run.terminal.hasSuffix("\r\u{1B}[K"), "cleared at the end: \(run.terminal.debugDescription)")
        #expect(!run.terminal.contains("\n"), "one line: \(run.terminal.debugDescription)")
    }
}

/// Runs the tool with standard error on a pseudo-terminal, as a user at a
/// terminal sees it, and standard output on a pipe.
enum PseudoTerminal {
    struct Run {
        var status: Int32
        var stdout: String
        /// What the tool wrote to the terminal (its standard error), as bytes.
        var terminal: String
    }

    static func run(_ arguments: [String]) throws -> Run {
        // posix_openpt and friends are hidden from Swift's Glibc: open the multiplexer and
        // unlock and number the terminal with its ioctls (the asm-generic numbers of Linux).
        let unlock: UInt = 0x4004_5431  // TIOCSPTLCK
        let number: UInt = 0x8004_5430  // TIOCGPTN
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var locked: CInt = 0
        var index: CInt = 0
        guard master >= 0, ioctl(master, unlock, &locked) == 0, ioctl(master, number, &index) == 0 else {
            throw CocoaError(.fileReadUnknown)
        }
        let slave = open("/dev/pts/\(index)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw CocoaError(.fileReadUnknown) }
        // Raw output: the terminal must not turn "\n" into "\r\n".
        var settings = termios()
        tcgetattr(slave, &settings)
        settings.c_oflag &= ~tcflag_t(OPOST)
        tcsetattr(slave, TCSANOW, &settings)

        let process = Process()
        process.executableURL = ToolRunner.executable
        process.arguments = arguments
        process.currentDirectoryURL = ToolRunner.repository
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        try process.run()
        close(slave)
        // Read the terminal until the child closes it (EIO), so it never blocks on a full buffer.
        nonisolated(unsafe) var bytes: [UInt8] = []
        let done = DispatchSemaphore(value: 0)
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count <= 0 { break }
                bytes += buffer[0..<count]
            }
            done.signal()
        }.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        done.wait()
        close(master)
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            terminal: String(decoding: bytes, as: UTF8.self))
    }
}
