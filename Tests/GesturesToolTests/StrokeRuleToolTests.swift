import Foundation
import GestureRecognition
import TestSupport
import Testing

/// The one stroke rule, end to end through the tool: an "L" trained from
/// three samples beside the bundled "v" fires on a fourth with the default
/// rule (it is 0.88 nearer the L than the v, over the 0.2 margin); under a
/// margin of 0.95 (`strict`) it is recognised, yet the daemon would not
/// fire it, and train, recognize, replay and the daemon's log all say why.
@Suite("one stroke rule: train, recognize, replay and run agree (end to end)")
struct StrokeRuleToolTests {
    static let samples = "Recordings/strokes/L/samples.json"
    static let fourth = "Recordings/strokes/L/fourth.json"
    /// A configuration's engine section with a margin the L does not reach.
    static let strictEngine = "engine: {strokeMinimumMargin: 0.95}\n"

    /// A configuration file of `strictEngine` in `directory`.
    static func strictConfig(in directory: URL) throws -> String {
        let config = directory.appendingPathComponent("strict.yaml")
        try ("version: 1\n" + strictEngine).write(to: config, atomically: true, encoding: .utf8)
        return config.path
    }

    /// A library of the bundled shapes and the three L samples, in `directory`, and what train said
    /// (with the defaults, or under the strict margin).
    static func trainL(in directory: URL, strict: Bool = false) throws -> (library: String, run: ToolRunner.Run) {
        let library = directory.appendingPathComponent("lib.json").path
        let settings = strict ? ["--config", try strictConfig(in: directory)] : ["--no-config"]
        let run = try ToolRunner.run(["train", "--library", library, "--from-defaults"] + settings + [samples])
        return (library, run)
    }

    @Test("train takes the L samples without a warning; under a margin of 0.95 it warns they are within it of v, and says which")
    func trainWarns() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = TemplateLibrary.dollarShapes.templates.count
        let (plainLibrary, plain) = try Self.trainL(in: directory)
        #expect(plain.status == 0 && plain.stderr.isEmpty, "\(plain.stderr)")
        #expect(
            plain.stdout
                == "added 3 samples to \(plainLibrary), with 16 bundled shapes from the defaults (17 gestures, \(count + 3) samples)\n")
        try FileManager.default.removeItem(atPath: plainLibrary)
        let (library, run) = try Self.trainL(in: directory, strict: true)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout == "added 3 samples to \(library), with 16 bundled shapes from the defaults (17 gestures, \(count + 3) samples)\n")
        let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("gestures train: warning: \(Self.samples): L (template ") }
        #expect(!warnings.isEmpty, "\(run.stderr)")
        for warning in warnings {
            #expect(warning.contains("is within the 0.95 margin of v (template "), "\(warning)")
            #expect(warning.contains("so such strokes fire neither L nor v; it makes both ambiguous"), "\(warning)")
        }
        // The bundled shapes alone warn of nothing.
        let alone = try ToolRunner.run([
            "train", "--library", directory.appendingPathComponent("zz.json").path, "--no-config",
            "--name", "zigzag", "Recordings/strokes/zigzag.json",
        ])
        #expect(alone.status == 0 && alone.stderr.isEmpty, "\(alone.stderr)")
    }

    @Test("recognize takes the fourth L for an L the daemon fires; under a margin of 0.95 it says the daemon would not: too close to v")
    func recognizeSaysWhyNot() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (library, _) = try Self.trainL(in: directory)
        let fires = try ToolRunner.run(["recognize", "--no-config", "--explain", "--library", library, Self.fourth])
        #expect(fires.stdout.contains("  daemon       would fire it: L, score 0.99"), "\(fires.stdout)\(fires.stderr)")
        #expect(fires.stdout.contains(" ahead of v"), "\(fires.stdout)")
        let strict = try Self.strictConfig(in: directory)
        let plain = try ToolRunner.run(["recognize", "--config", strict, "--library", library, Self.fourth])
        #expect(plain.status == 0, "\(plain.stderr)")
        let line = plain.stdout.trimmingCharacters(in: .newlines)
        let pattern =
            #"^Recordings/strokes/L/fourth\.json: L \(score 0\.99\d*\), but the daemon would not fire it: too close to v: 0\.\d+ of the 0\.95 margin$"#
        #expect(line.range(of: pattern, options: .regularExpression) != nil, "\(line)")

        let explained = try ToolRunner.run(["recognize", "--config", strict, "--explain", "--library", library, Self.fourth])
        let lines = explained.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 5, "\(lines)")
        #expect(lines[1].hasPrefix("  best         L "))
        #expect(lines[2].hasPrefix("  second best  v "))
        #expect(lines[3].hasPrefix("  rule         as a touchscreen stroke: "), "\(lines[3])")
        #expect(lines[4].hasPrefix("  daemon       would not fire it: too close to v: 0."), "\(lines[4])")
        #expect(lines[4].hasSuffix(" of the 0.95 margin"))
        // The margin printed is how much nearer the L is than the v: the
        // difference of the two scores printed over the v's distance (1 - its score).
        let scores = try lines[1...2].map { line in try #require(Double(line.split(separator: " ").first { Double($0) != nil } ?? "")) }
        let margin = try #require(Double(lines[4].split(separator: " ")[9]), "\(lines[4])")
        #expect(abs(margin - (scores[0] - scores[1]) / (1 - scores[1])) < 0.01)
        #expect(margin < 0.95 && margin > 0.2)

        let json = try ToolRunner.run(["recognize", "--config", strict, "--format", "json", "--library", library, Self.fourth])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["template"] as? String == "L")
        #expect(object["fires"] as? Bool == false)
        #expect(object["rule"] as? String == "margin")
        #expect((object["reason"] as? String)?.hasPrefix("too close to v: ") == true)

    }

    @Test("a bundled shape recognize accepts is one the daemon would fire")
    func acceptedShapes() throws {
        let run = try ToolRunner.run(["recognize", "--no-config", "--explain", "Recordings/strokes/circle.json"])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Recordings/strokes/circle.json: circle (score") == true && lines.first?.contains("daemon") == false)
        #expect(lines.last?.hasPrefix("  daemon       would fire it: circle, score ") == true, "\(lines)")
        #expect(lines.last?.contains(" ahead of ") == true)
    }

    /// The L trained beside the bundled v, a recording of the fourth L, and a
    /// configuration with the strict margin, that library and `bindings`
    /// (YAML flow mappings), in `directory`.
    static func recordedLBound(_ bindings: [String], in directory: URL) throws -> (config: URL, recording: String) {
        let (library, _) = try trainL(in: directory)
        let config = directory.appendingPathComponent("config.yaml")
        let text = "version: 1\n" + strictEngine + "templates: \(library)\nbindings:\n" + bindings.map { "  - \($0)\n" }.joined()
        try text.write(to: config, atomically: true, encoding: .utf8)
        return (config, try recordedL(in: directory))
    }

    /// A recording of one finger drawing the fourth L on the Atmel touchscreen.
    static func recordedL(in directory: URL) throws -> String {
        let points = try #require(try StrokeFileReader.strokes(ToolRunner.repository.appendingPathComponent(fourth)).first)
        let trace = StrokeTraces.drawing(points, on: try RecordedDevices.named("atmel"), at: Point(x: 60, y: 20))
        let url = directory.appendingPathComponent("L.jsonl")
        try StrokeTraces.write(trace, to: url)
        return url.path
    }

    @Test("replay of a recorded L under a margin of 0.95 prints no stroke, and says on stderr why it fired nothing")
    func replaySaysWhy() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (library, _) = try Self.trainL(in: directory)
        let recording = try Self.recordedL(in: directory)
        let strict = try Self.strictConfig(in: directory)
        let run = try ToolRunner.run(["replay", "--config", strict, "--library", library, recording])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains(#""type":"stroke""#), "\(run.stdout)")
        let pattern =
            #"^gestures replay: .*/L\.jsonl: a stroke on 'Atmel maXTouch Touchscreen' at \d+(\.\d+)? ms fired nothing: too close to v: 0\.\d+ of the 0\.95 margin\.$"#
        #expect(run.stderr.split(separator: "\n").contains { $0.range(of: pattern, options: .regularExpression) != nil }, "\(run.stderr)")
        // With the margin off the same recording fires the L.
        let config = directory.appendingPathComponent("config.yaml")
        try "version: 1\nengine: {strokeMinimumMargin: 0}\n".write(to: config, atomically: true, encoding: .utf8)
        let loose = try ToolRunner.run(["replay", "--config", config.path, "--library", library, recording])
        #expect(loose.stdout.contains(#""type":"stroke""#) && loose.stdout.contains(#""template":"L""#), "\(loose.stdout)")
        // Stderr says only which configuration the engine's settings came from, and that its bindings do not apply here.
        #expect(
            loose.stderr.split(separator: "\n") == [
                "gestures replay: the engine's settings, sequences and templates from \(config.path); its devices: and bindings do not apply here (every device's gestures are printed): --explain judges the bindings"
            ], "\(loose.stderr)")
    }

    @Test("replay --explain and run --replay --explain name the margin rule in the L binding's verdict")
    func explainSaysWhy() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (config, recording) = try Self.recordedLBound(
            [
                "{name: the L, gesture: stroke, template: L, action: {command: [sh, -c, 'true']}}",
                "{name: three-finger shapes, gesture: stroke, fingers: 3, action: {command: [sh, -c, 'true']}}",
            ], in: directory)
        let margin = #"the stroke rule rejected the stroke: too close to v: 0\.\d+ of the 0\.95 margin$"#
        for command in [["replay", recording, "--explain"], ["run", "--replay", recording, "--explain"]] {
            let run = try ToolRunner.run(command + ["--config", config.path])
            #expect(run.status == 0, "\(command): \(run.stderr)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            let head = try #require(lines.firstIndex { $0.contains("stroke  1 finger") }, "\(command): \(run.stdout)")
            #expect(lines[head].hasSuffix("on 'Atmel maXTouch Touchscreen'"), "\(lines)")
            #expect(lines[head + 1].hasPrefix("  the stroke rule rejected it: too close to v: "), "\(lines)")
            #expect(
                lines[head + 2].hasPrefix("  the L: ") && lines[head + 2].range(of: margin, options: .regularExpression) != nil, "\(lines)")
            #expect(lines[head + 3] == "  three-finger shapes: not this finger count: it wants 3", "\(lines)")
            let json = try ToolRunner.run(command + ["--config", config.path, "--format", "json"])
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data((json.stdout.split(separator: "\n").first ?? "").utf8)) as? [String: Any])
            #expect((object["stroke_rejected"] as? String)?.hasPrefix("too close to v: ") == true, "\(json.stdout)")
        }
    }

    @Test("the daemon replaying the recorded L under a margin of 0.95 logs why its binding did not fire")
    func daemonLogsWhy() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (config, recording) = try Self.recordedLBound(
            ["{gesture: stroke, template: L, action: {command: [sh, -c, 'true']}}"], in: directory)
        let run = try ToolRunner.run(["run", "--config", config.path, "--replay", recording])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("gestures: done: 0 commands run"), "\(run.stderr)")
        let logged = run.stderr.split(separator: "\n").filter { $0.contains("a stroke on 'Atmel maXTouch Touchscreen' at ") }
        #expect(logged.count == 1, "\(run.stderr)")
        #expect(logged.first?.contains(" ms fired nothing: too close to v: 0.") == true, "\(run.stderr)")
        #expect(logged.first?.contains(" of the 0.95 margin") == true, "\(run.stderr)")
    }

    @Test("a recording whose only stroke is a drag along one line trains nothing, and says why")
    func trainRefusesADrag() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let drag = StrokeTraces.drawing(
            (0...20).map { Point(x: 2 * Double($0), y: 0) }, on: try RecordedDevices.named("atmel"), at: Point(x: 40, y: 40))
        let url = directory.appendingPathComponent("drag.jsonl")
        try StrokeTraces.write(drag, to: url)
        let library = directory.appendingPathComponent("lib.json").path
        let run = try ToolRunner.run(["train", "--library", library, "--no-config", "--name", "line", url.path])
        #expect(run.status == 1)
        #expect(
            run.stderr.hasPrefix(
                "gestures train: \(url.path) holds no stroke drawn with 1 finger (1 stroke drawn, not taken: too narrow: width 0"),
            "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: library))
    }
}

/// JSON stroke files read with Foundation, as the tool writes them.
enum StrokeFileReader {
    static func strokes(_ url: URL) throws -> [[Point]] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        let list: [[String: Any]]
        if let many = object as? [[String: Any]] { list = many } else { list = [try #require(object as? [String: Any])] }
        return try list.map { try #require($0["points"] as? [[Double]]).map { Point(x: $0[0], y: $0[1]) } }
    }
}
