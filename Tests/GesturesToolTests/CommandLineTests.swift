import Foundation
import Testing

/// The argument layer as a user meets it in the built tool.
@Suite("gestures' command line: help, version, suggestions (end to end)")
struct CommandLineTests {
    @Test("'gestures help CMD' prints what 'gestures CMD --help' prints")
    func helpCommand() throws {
        let viaHelp = try ToolRunner.run(["help", "replay"])
        let viaFlag = try ToolRunner.run(["replay", "--help"])
        #expect(viaHelp.status == 0 && viaFlag.status == 0)
        #expect(viaHelp.stdout == viaFlag.stdout)
        #expect(viaHelp.stdout.contains("USAGE: gestures replay ") && viaHelp.stdout.contains("--no-config"))
    }

    @Test("--version prints the tool's name and a version")
    func version() throws {
        let run = try ToolRunner.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("gestures ") && run.stdout.split(separator: "\n").count == 1)
    }

    @Test(
        "a mistyped subcommand, option or choice suggests the nearest, in one line",
        arguments: [
            (["replya", "x"], "gestures: unknown subcommand 'replya'; did you mean 'replay'?"),
            (["recognize", "--formt", "json", "x.json"], "gestures recognize: unknown option '--formt'; did you mean '--format'?"),
            (["devices", "--format", "jsn"], "gestures devices: option '--format' expects text or json, got 'jsn'; did you mean 'json'?"),
            (
                ["record", "--format", "evmu"],
                "gestures record: option '--format' expects json, libinput or evemu, got 'evmu'; did you mean 'evemu'?"
            ),
            (
                ["eval", "x", "--recognizer", "dolar1"],
                "gestures eval: option '--recognizer' expects dollar1, protractor or elastic, got 'dolar1'; did you mean 'dollar1'?"
            ),
            (["version"], "gestures: unknown subcommand 'version'; did you mean '--version'?"),
            // An option that applies only with another, given alone.
            (
                ["run", "--format", "json", "--replay", "Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl"],
                "gestures run: --format applies only with --explain; add --explain or leave --format out (see 'gestures run --help')."
            ),
            (
                ["replay", "--speed", "2", "Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl"],
                "gestures replay: --speed applies only with --uinput; add --uinput or leave --speed out (see 'gestures replay --help')."
            ),
            (
                ["train", "--library", "x.json", "--samples", "3", "Recordings/strokes/circle.json"],
                "gestures train: --samples applies only with --device; add --device or leave --samples out (see 'gestures train --help')."
            ),
        ])
    func suggestions(arguments: [String], message: String) throws {
        let run = try ToolRunner.run(arguments)
        #expect(run.status == 64)
        #expect(run.stderr == message + "\n")
    }

    @Test("bare 'gestures' is a usage error: the help on stderr, status 64")
    func bare() throws {
        let run = try ToolRunner.run([])
        #expect(run.status == 64 && run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("OVERVIEW: gestures: ") && run.stderr.contains("\nSUBCOMMANDS:\n"), "\(run.stderr)")
    }

    @Test("a hidden command's help has a usage line")
    func hiddenCommandUsage() throws {
        let run = try ToolRunner.run(["generate-manual", "--help"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("\n\nUSAGE: gestures generate-manual\n"), "\(run.stdout)")
    }

    @Test("each subcommand's help lists every option it accepts, with the choices of --format")
    func helpListsChoices() throws {
        let replay = try ToolRunner.run(["replay", "--help"]).stdout
        for option in [
            "--ends", "--format text|json", "--config PATH", "--no-config", "--library LIB.json", "--sequences SEQ.json",
            "--uinput FILE", "--speed X", "--wait MS", "--linger MS",
        ] {
            #expect(replay.contains(option), "\(option)")
        }
        let record = try ToolRunner.run(["record", "--help"]).stdout
        #expect(record.contains("--format json|libinput|evemu") && record.contains("-o, --output FILE"))
    }
}

/// Every subcommand's parse step reads only options its table declares (reading
/// another traps): each invocation here gets through parsing to a failure of
/// its run step, one line with status 1.
@Suite("every subcommand's parse step (end to end)")
struct ParseStepTests {
    static let invocations: [[String]] = [
        ["replay", "--ends", "--format", "text", "--no-config", "--library", "default", "/no/such.jsonl"],
        ["replay", "--uinput", "/no/such.jsonl", "--speed", "2", "--wait", "0", "--linger", "0"],
        ["run", "--config", "/no/such.yaml", "--replay", "/no/such.jsonl"],
        ["run", "--config", "/no/such.yaml", "--no-intercept", "--device", "event0", "--dir", "/no/such"],
        ["check-config", "/no/such.yaml"],
        [
            "record", "--device", "/dev/null", "-o", "/no/such/out.jsonl", "--format", "evemu", "--frames", "1", "--grab", "--dir",
            "/no/such",
        ],
        ["watch", "--device", "/no/such/event0", "--ends", "--format", "text", "--no-config", "--dir", "/no/such"],
        ["strokes", "--device", "/dev/null", "--button", "left", "--count", "1", "--format", "json", "--dir", "/no/such"],
        ["train", "--library", "/no/such/lib.json", "--name", "x", "--device", "/dev/null", "--samples", "1", "--button", "middle"],
        ["train", "--library", "/no/such/lib.json", "--name", "x", "/no/such.json"],
        ["templates", "/no/such.json", "--remove", "a", "--rename", "b=c", "--export", "/no/such/out.json", "--format", "json"],
        [
            "recognize", "--library", "/no/such.json", "--recognizer", "protractor", "--orientation", "sensitive:20", "--threshold", "0.5",
            "x.json",
        ],
        [
            "eval", "/no/such", "--templates", "1,2", "--iterations", "1", "--seed", "2", "--resample", "32", "--protocol",
            "user-independent",
            "--format", "json", "--confusions",
        ],
        ["convert", "/no/such.jsonl", "-o", "out.yaml"],
        ["convert", "/no/such.jsonl", "--output", "-", "--to", "evemu"],
        ["info", "/no/such.jsonl", "--format", "json", "--frames"],
        [
            "bench", "--format", "json", "--quick", "--only", "pipeline", "--only", "memory", "--frames", "1000", "--trace-frames", "100",
            "--trace-size", "1", "--passes", "1", "--recordings", "/no/such", "--devices", "/no/such", "--temporary-directory", "/no/such",
        ],
        ["bench-patterns", "/no/such.json"],
    ]

    @Test("every option reaches the run step", arguments: invocations)
    func parseStepRuns(arguments: [String]) throws {
        let run = try ToolRunner.run(arguments)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
    }
}
