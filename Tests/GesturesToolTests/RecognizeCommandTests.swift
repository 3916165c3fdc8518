import Foundation
import TestSupport
import Testing

@Suite("gestures train, templates, recognize (end to end)")
struct RecognizeCommandTests {
    @Test("the bundled strokes are recognised with the default library")
    func bundledStrokesAreRecognised() throws {
        let run = try ToolRunner.run([
            "recognize", "Recordings/strokes/circle.json", "Recordings/strokes/triangle.json", "Recordings/strokes/zigzag.json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("Recordings/strokes/circle.json: circle (score"))
        #expect(lines[1].hasPrefix("Recordings/strokes/triangle.json: triangle (score"))
        #expect(lines[2].hasPrefix("Recordings/strokes/zigzag.json: no match"))
    }

    @Test("JSON output gives the template and score")
    func jsonOutput() throws {
        let run = try ToolRunner.run(["recognize", "--format", "json", "Recordings/strokes/check.json"])
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(object?["template"] as? String == "check")
        #expect((object?["score"] as? Double ?? 0) > 0.75)
    }

    @Test(
        "a file with no stroke, or a stroke with no points, is an error in one sentence, not an empty success",
        arguments: ["[]", "{\"points\":[]}", "[{\"points\":[[1,2],[30,40]]},{\"points\":[]}]"])
    func nothingToRecognise(_ text: String) throws {
        let dir = try ToolRunner.temporaryDirectory()
        let file = dir.appendingPathComponent("strokes.json").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["recognize", file])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("gestures recognize: \(file)") && run.stderr.hasSuffix(".\n"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test("train creates a library, templates lists and edits it, recognize uses it")
    func trainListRecognise() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lib = dir.appendingPathComponent("lib.json").path
        let zigzag = ToolRunner.repository.appendingPathComponent("Recordings/strokes/zigzag.json").path
        let circle = ToolRunner.repository.appendingPathComponent("Recordings/strokes/circle.json").path
        var run = try ToolRunner.run(["train", "--library", lib, "--name", "zz", zigzag])
        #expect(run.status == 0 && run.stdout.contains("added 1 sample"), "\(run.stderr)")
        run = try ToolRunner.run(["train", "--library", lib, circle])
        #expect(run.status == 0)
        run = try ToolRunner.run(["templates", lib, "--format", "json"])
        #expect(run.stdout.contains(#"{"name":"zz","samples":1}"#) && run.stdout.contains(#"{"name":"circle","samples":1}"#))
        run = try ToolRunner.run(["recognize", "--library", lib, zigzag])
        #expect(run.stdout.contains(": zz (score"))
        run = try ToolRunner.run(["templates", lib, "--rename", "zz=zigzag", "--remove", "circle"])
        #expect(run.status == 0 && run.stdout.contains("1 gesture, 1 sample"))
    }

    @Test("a stroke file without a name and no --name fails and leaves the library untouched")
    func unnamedSampleFailsCleanly() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lib = dir.appendingPathComponent("lib.json").path
        let run = try ToolRunner.run([
            "train", "--library", lib, ToolRunner.repository.appendingPathComponent("Recordings/strokes/zigzag.json").path,
        ])
        #expect(run.status == 1)
        #expect(run.stderr.contains("does not name its gesture; give --name NAME."))
        #expect(!FileManager.default.fileExists(atPath: lib))
    }

    @Test("--explain gives the best and second-best templates of different names, their scores and the threshold")
    func explainText() throws {
        let run = try ToolRunner.run(["recognize", "--explain", "Recordings/strokes/circle.json", "Recordings/strokes/zigzag.json"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 10, "\(lines)")
        #expect(lines[0].hasPrefix("Recordings/strokes/circle.json: circle (score"))
        #expect(lines[1].hasPrefix("  best         circle "))
        #expect(lines[1].hasSuffix("at or above the threshold 0.75: a match"))
        #expect(lines[2].hasPrefix("  second best  ") && !lines[2].contains(" circle "), "another name: \(lines[2])")
        #expect(lines[3].hasPrefix("  rule         as a touchscreen stroke: the engine's stroke rule"), "which rule: \(lines[3])")
        #expect(lines[4].hasPrefix("  daemon       would fire it: circle, score "), "\(lines[4])")
        #expect(lines[5].hasPrefix("Recordings/strokes/zigzag.json: no match (best arrow"))
        #expect(lines[6].hasPrefix("  best         arrow") && lines[6].hasSuffix("below the threshold 0.75: no match"))
        // The best's score is the one the result line gives, and the second is behind it by the margin rule's lead
        // ((best - second) / (1 - second)), the figure the daemon's verdict says "ahead of" with.
        let scores = try lines[6...7].map { line in try #require(Double(line.split(separator: " ").first { Double($0) != nil } ?? "")) }
        #expect(lines[5].contains("score \(scores[0])"))
        let words = lines[7].split(separator: " ")
        let behind = try #require(words.firstIndex(of: "behind").flatMap { Double(words[$0 - 1]) }, "\(lines[7])")
        #expect(abs(behind - (scores[0] - scores[1]) / (1 - scores[1])) < 0.0002, "\(lines[7])")
        // One pair, one figure: the circle's second best is as far behind as the daemon says the circle is ahead.
        let circleBehind = try #require(lines[2].firstMatch(of: /([0-9.]+) behind/).map { String($0.1) }, "\(lines[2])")
        #expect(lines[4].contains(", \(circleBehind) ahead of "), "\(lines[2]) / \(lines[4])")
        #expect(
            lines[9] == "  daemon       would not fire it: below the threshold: arrow scores \(scores[0]) of 0.75", "\(lines[9])"
        )
    }

    /// Recordings/strokes/zigzag.json turned by `degrees` about its centre, written into `directory`.
    private func turnedZigzag(_ degrees: Double, in directory: URL) throws -> String {
        let data = try Data(contentsOf: ToolRunner.repository.appendingPathComponent("Recordings/strokes/zigzag.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let points = try #require(object["points"] as? [[Double]])
        let cx = points.map { $0[0] }.reduce(0, +) / Double(points.count), cy = points.map { $0[1] }.reduce(0, +) / Double(points.count)
        let a = degrees * .pi / 180
        let turned = points.map { p in [cx + (p[0] - cx) * cos(a) - (p[1] - cy) * sin(a), cy + (p[0] - cx) * sin(a) + (p[1] - cy) * cos(a)]
        }
        let file = directory.appendingPathComponent("turned.json")
        try JSONSerialization.data(withJSONObject: ["points": turned]).write(to: file)
        return file.path
    }

    @Test("--as judges a stroke by the daemon's rule for that input: a turned shape a touch surface fires, a mouse does not")
    func judgedAsTheInput() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lib = dir.appendingPathComponent("lib.json").path
        let zigzag = ToolRunner.repository.appendingPathComponent("Recordings/strokes/zigzag.json").path
        #expect(try ToolRunner.run(["train", "--library", lib, "--name", "zigzag", zigzag, "--no-config"]).status == 0)
        let turned = try turnedZigzag(90, in: dir)
        let touch = try ToolRunner.run(["recognize", "--library", lib, "--no-config", "--explain", turned])
        #expect(touch.stdout.hasPrefix("\(turned): zigzag (score 1)\n"), "\(touch.stdout)")
        #expect(
            touch.stdout.contains(
                "\n  rule         as a touchscreen stroke: the engine's stroke rule, lengths in mm, orientation invariant (--as for another input)\n"
            ), "\(touch.stdout)")
        let mouse = try ToolRunner.run(["recognize", "--library", lib, "--no-config", "--explain", "--as", "mouse", turned])
        #expect(mouse.stdout.hasPrefix("\(turned): no match (best zigzag"), "\(mouse.stdout)")
        #expect(
            mouse.stdout.contains(
                "\n  rule         as a mouse stroke: the mouse section's rule, lengths in counts, orientation sensitive (within 30°); "
                    + "the daemon reads no mouse (the configuration has no mouse section)\n"), "\(mouse.stdout)")
        #expect(mouse.stdout.contains("  daemon       would not fire it: "), "\(mouse.stdout)")
        let json = try ToolRunner.run(["recognize", "--library", lib, "--no-config", "--as", "mouse", "--format", "json", turned])
        #expect(json.stdout.contains(#""as":"mouse""#) && json.stdout.contains(#""fires":false"#), "\(json.stdout)")
    }

    @Test("by default a stroke is judged as the input the configuration draws strokes with")
    func judgedAsTheConfigurationDraws() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config.yaml")
        let circle = ToolRunner.repository.appendingPathComponent("Recordings/strokes/circle.json").path
        for (yaml, input) in [
            ("version: 1\n", "touchscreen"),
            ("version: 1\nengine: {touchscreenStrokeFingers: null, touchpadStrokeFingers: 3}\n", "touchpad"),
            ("version: 1\nengine: {touchscreenStrokeFingers: null}\nmouse: {}\n", "mouse"),
        ] {
            try yaml.write(to: config, atomically: true, encoding: .utf8)
            let run = try ToolRunner.run(["recognize", "--config", config.path, "--format", "json", circle])
            #expect(run.stdout.contains(#""as":"\#(input)""#), "\(yaml): \(run.stdout)")
        }
    }

    @Test("--threshold moves the verdict the explanation gives")
    func explainFollowsTheThreshold() throws {
        let run = try ToolRunner.run(["recognize", "--explain", "--threshold", "0.999", "Recordings/strokes/circle.json"])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("no match (best circle") == true, "\(lines)")
        #expect(lines.count > 1 && lines[1].hasSuffix("below the threshold 0.999: no match"), "\(lines)")
    }

    @Test("--explain --format json adds the threshold and the two contenders, best first")
    func explainJSON() throws {
        let run = try ToolRunner.run(["recognize", "--explain", "--format", "json", "Recordings/strokes/triangle.json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["template"] as? String == "triangle")
        #expect(object["threshold"] as? Double == 0.75)
        let contenders = try #require(object["contenders"] as? [[String: Any]])
        try #require(contenders.count == 2)
        #expect(contenders[0]["template"] as? String == "triangle")
        #expect(contenders[0]["score"] as? Double == object["score"] as? Double)
        #expect(contenders[1]["template"] as? String != "triangle")
        #expect((contenders[1]["score"] as? Double ?? 1) <= (contenders[0]["score"] as? Double ?? 0))
    }

    @Test("--explain -o draws the stroke, its two best templates and the verdict")
    func explainPicture() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("why.svg")
        let run = try ToolRunner.run(["recognize", "--explain", "-o", file.path, "Recordings/strokes/check.json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Recordings/strokes/check.json: check (score"), "the text result is printed too")
        let root = try SVGInspector.parse(try String(contentsOf: file, encoding: .utf8))
        #expect(root.title == "Recordings/strokes/check.json (check)")
        #expect(root.all("text", class: "verdict").first?.text.hasPrefix("Recognised as check") == true)
        #expect(root.all("g", class: "panel").count == 4, "as drawn, normalised, best, second best")
        #expect(root.all("path", class: "compared-path").count == 2)
        #expect(root.all("g", class: "scores").count == 1)
    }

    @Test(
        "--explain -o OUT.png is a PNG",
        .enabled(if: RenderCommandTests.rsvgConvert, "rsvg-convert is not installed (Debian: librsvg2-bin)"))
    func explainPNG() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("why.png")
        let run = try ToolRunner.run(["recognize", "--explain", "-o", file.path, "Recordings/strokes/zigzag.json"])
        #expect(run.status == 0, "\(run.stderr)")
        let image = try PNGImage(data: try Data(contentsOf: file))
        #expect(image.width > 400 && image.height > 300)
    }

    static let failingInvocations: [([String], Int32, String)] = [
        (["recognize"], 64, "no stroke files given"),
        (["recognize", "--bogus"], 64, "unknown option '--bogus'"),
        (["recognize", "/no/such/file.json"], 1, "gestures recognize: /no/such/file.json: no such file (there is no folder /no/such)."),
        (["recognize", "--threshold", "2", "x.json"], 64, "option '--threshold' expects a number from 0 to 1"),
        (["recognize", "--library", "Package.swift", "Recordings/strokes/circle.json"], 1, "not a template library"),
        (["eval", "/no/such/dir"], 1, "gestures eval: /no/such/dir: no such folder (there is no folder /no/such)."),
        (
            ["eval", "Recordings/strokes/check.json"], 1,
            "gestures eval: Recordings/strokes/check.json is a JSON stroke file, not a folder: eval reads a folder of $1 logs"
        ),
        (["eval", "x", "--templates", "1,a"], 64, "expects a comma-separated list"),
        (["nothing"], 64, "unknown subcommand 'nothing'"),
        (["recognize", "-o", "/tmp/x.svg", "Recordings/strokes/circle.json"], 64, "-o draws the explanation; add --explain"),
        (
            ["recognize", "--explain", "-o", "/tmp/x.gif", "Recordings/strokes/circle.json"], 64,
            "cannot tell the picture format from '.gif'"
        ),
        (
            ["recognize", "--explain", "-o", "/no/such/folder/x.svg", "Recordings/strokes/circle.json"], 1,
            "there is no folder /no/such/folder"
        ),
        (
            ["recognize", "--explain", "-o", "/tmp/x.svg", "Recordings/strokes/circle.json", "Recordings/strokes/check.json"], 1,
            "-o draws one stroke, and the files hold 2"
        ),
        (["eval", "x", "--confusion", "m.txt"], 64, "cannot tell the picture format from '.txt'; name the --confusion file .svg or .png"),
        (["eval", "x", "--confusion", "-"], 64, "--confusion needs a file"),
    ]

    @Test("bad invocations give one sentence and the right exit status", arguments: failingInvocations)
    func badInvocations(arguments: [String], status: Int32, message: String) throws {
        let run = try ToolRunner.run(arguments)
        #expect(run.status == status)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
    }

    @Test("every subcommand has help")
    func help() throws {
        let top = try ToolRunner.run(["--help"])
        for name in ["train", "templates", "recognize", "eval"] {
            #expect(top.stdout.contains("  \(name) "))
            let run = try ToolRunner.run([name, "--help"])
            #expect(run.status == 0 && run.stdout.contains("USAGE: gestures \(name)"))
        }
    }
}

@Suite("gestures eval on a small folder of logs (end to end)")
struct EvalOnSmallLogsTests {
    /// `<folder>/s01/fast/NAMEnn.xml`: three circles and three zigzags, drawn by the test.
    static func logs() throws -> URL {
        let folder = try ToolRunner.temporaryDirectory()
        let speed = folder.appendingPathComponent("s01/fast")
        try FileManager.default.createDirectory(at: speed, withIntermediateDirectories: true)
        for sample in 1...3 {
            let wobble = Double(sample)
            let circle = (0..<40).map { i -> (Double, Double) in
                let angle = Double(i) / 40 * 2 * Double.pi
                return (100 + (50 + wobble) * cos(angle), 100 + 50 * sin(angle))
            }
            let zigzag = (0..<40).map { i -> (Double, Double) in
                let step = Double(i % 5) * 10
                let y: Double = i / 5 % 2 == 0 ? step + wobble : 50 - step
                return (Double(i) * 5, y)
            }
            for (name, points) in [("circle", circle), ("zigzag", zigzag)] {
                let body = points.enumerated().map { #"  <Point X="\#($1.0)" Y="\#($1.1)" T="\#($0 * 10)" />"# }.joined(separator: "\n")
                try """
                <?xml version="1.0" encoding="utf-8" standalone="yes"?>
                <Gesture Name="\(name)0\(sample)" Subject="1" Speed="fast" NumPts="\(points.count)">
                \(body)
                </Gesture>
                """.write(to: speed.appendingPathComponent("\(name)0\(sample).xml"), atomically: true, encoding: .utf8)
            }
        }
        return folder
    }

    @Test("eval counts in the singular when there is one, and shows plain progress lines off a terminal")
    func singularAndProgress() throws {
        let folder = try Self.logs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try ToolRunner.run(["eval", folder.path, "--iterations", "2", "--templates", "1", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("eval: 6 strokes, 1 subject, 2 gestures"), "\(run.stderr)")
        #expect(lines.last?.hasPrefix("eval: elastic E=1: 1/1 groups (100%)") == true, "\(run.stderr)")
        #expect(!run.stderr.contains("\r"))
        #expect(run.stdout.hasPrefix(#"{"recognizer":"elastic","protocol":"user-dependent","results":[{"templates":1,"#))
    }
}
