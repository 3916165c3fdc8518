import Foundation
import TestSupport
import Testing

@Suite("gestures eval --confusion (end to end)")
struct EvalCommandTests {
    /// Writes $1-style logs under `directory`: two subjects, one speed, four
    /// samples each of a circle, a line and a dash drawn as the same line (so
    /// some answers are wrong), with a little seeded noise.
    static func writeLogs(in directory: URL) throws {
        var state: UInt64 = 12345
        func noise() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 40) / Double(1 << 24)
        }
        let circle = (0..<40).map { k -> (Double, Double) in
            let angle: Double = Double(k) / 39 * 2 * Double.pi
            let x: Double = 100 + 40 * cos(angle)
            let y: Double = 100 + 40 * sin(angle)
            return (x, y)
        }
        let line = (0..<30).map { k -> (Double, Double) in
            let t = Double(k) / 29
            return (80 * t, 30 * t)
        }
        for subject in ["s01", "s02"] {
            let folder = directory.appendingPathComponent(subject).appendingPathComponent("medium")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (gesture, shape) in [("circle", circle), ("line", line), ("dash", line)] {
                for number in 1...4 {
                    let points = shape.enumerated().map { t, p in
                        "  <Point X=\"\(p.0 + noise())\" Y=\"\(p.1 + noise())\" T=\"\(t * 10)\" />"
                    }
                    let xml = """
                        <?xml version="1.0" encoding="utf-8"?>
                        <Gesture Name="\(gesture)0\(number)" Number="\(number)" NumPts="\(points.count)">
                        \(points.joined(separator: "\n"))
                        </Gesture>
                        """
                    try Data(xml.utf8).write(to: folder.appendingPathComponent("\(gesture)0\(number).xml"))
                }
            }
        }
    }

    /// The cells of a confusion matrix picture: (expected, answer) -> count, from their titles.
    static func cells(of root: SVGNode) throws -> [String: [String: Int]] {
        var cells: [String: [String: Int]] = [:]
        for cell in root.all("g", class: "cell") {
            // "expected circle, recognised as line: 3 (25 % of 12)"
            let title = try #require(cell.title)
            let expected = try #require(title.split(separator: ",").first?.dropFirst("expected ".count))
            let rest = try #require(title.components(separatedBy: ", recognised as ").last)
            let answer = try #require(rest.split(separator: ":").first)
            let count = try #require(Int(rest.split(separator: ":")[1].split(separator: " ")[0]))
            cells[String(expected), default: [:]][String(answer)] = count
        }
        return cells
    }

    @Test("one picture per --templates value, every answer in it and the right ones on the diagonal")
    func onePicturePerTemplateCount() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let logs = directory.appendingPathComponent("logs")
        try Self.writeLogs(in: logs)
        let output = directory.appendingPathComponent("matrix.svg")
        let iterations = 5
        let run = try ToolRunner.run([
            "eval", logs.path, "--templates", "1,2", "--iterations", String(iterations), "--format", "json",
            "--confusion", output.path,
        ])
        try #require(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output.path), "several values: suffixed names only")
        let results = try #require(
            (try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]])
        for (result, suffix) in zip(results, ["E1", "E2"]) {
            let file = directory.appendingPathComponent("matrix-\(suffix).svg")
            #expect(run.stderr.contains("eval: wrote \(file.path)"))
            let root = try SVGInspector.parse(try String(contentsOf: file, encoding: .utf8))
            #expect(
                root.title?.hasSuffix("\(suffix.dropFirst()) template\(suffix == "E1" ? "" : "s") per gesture") == true,
                "\(root.title ?? "")")
            let cells = try Self.cells(of: root)
            #expect(root.all("g", class: "cell").count == 9, "3 gestures by 3 answers")
            // Every gesture is a candidate once per group (2 subjects) and iteration.
            for gesture in ["circle", "dash", "line"] {
                #expect(cells[gesture]?.values.reduce(0, +) == 2 * iterations, "row \(gesture): \(cells[gesture] ?? [:])")
            }
            let recognitions = try #require(result["recognitions"] as? Int)
            let accuracy = try #require(result["accuracy"] as? Double)
            let diagonal = cells.reduce(0) { $0 + ($1.value[$1.key] ?? 0) }
            #expect(cells.values.flatMap(\.values).reduce(0, +) == recognitions)
            #expect(diagonal == Int((accuracy * Double(recognitions)).rounded()))
            #expect(cells["circle"]?["circle"] == 2 * iterations, "a circle is never taken for a line")
            #expect((cells["line"]?["dash"] ?? 0) + (cells["dash"]?["line"] ?? 0) > 0, "lines and dashes are confused")
        }
    }

    @Test("with one --templates value the picture is OUT itself, and --confusions still lists the wrong answers")
    func oneValueWritesOut() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let logs = directory.appendingPathComponent("logs")
        try Self.writeLogs(in: logs)
        let output = directory.appendingPathComponent("matrix.svg")
        let run = try ToolRunner.run([
            "eval", logs.path, "--templates", "1", "--iterations", "3", "--confusions", "--confusion", output.path,
        ])
        try #require(run.status == 0, "\(run.stderr)")
        let cells = try Self.cells(of: try SVGInspector.parse(try String(contentsOf: output, encoding: .utf8)))
        for (expected, row) in cells {
            for (answer, count) in row where answer != expected && count > 0 {
                #expect(run.stdout.contains("  \(expected) -> \(answer): \(count)"), "\(run.stdout)")
            }
        }
        #expect(!run.stdout.contains("circle -> circle"), "the text list holds wrong answers only")
    }

    @Test("an output that cannot be written fails before the evaluation runs")
    func unwritableOutputFailsFirst() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let logs = directory.appendingPathComponent("logs")
        try Self.writeLogs(in: logs)
        let run = try ToolRunner.run([
            "eval", logs.path, "--templates", "1", "--confusion", directory.appendingPathComponent("no/matrix.svg").path,
        ])
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "gestures eval: cannot write \(directory.path)/no/matrix.svg: there is no folder \(directory.path)/no; create it first.\n"
        )
    }

    @Test("leave-one-subject-out reports every subject held out, cross-user and the bundled library, in JSON")
    func leaveOneSubjectOutReportsEverySubject() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let logs = directory.appendingPathComponent("logs")
        try Self.writeLogs(in: logs)
        let run = try ToolRunner.run([
            "eval", logs.path, "--protocol", "leave-one-subject-out", "--templates", "1,2", "--iterations", "3", "--format", "json",
        ])
        try #require(run.status == 0, "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(json["protocol"] as? String == "leave-one-subject-out")
        let subjects = try #require(json["subjects"] as? [[String: Any]])
        #expect(subjects.compactMap { $0["subject"] as? String } == ["s01", "s02"])
        for subject in subjects {
            // 3 gestures x 3 iterations for each E, and the subject's 12 strokes judged by the bundled library.
            let crossUser = try #require(subject["cross_user"] as? [[String: Any]])
            #expect(crossUser.compactMap { $0["templates"] as? Int } == [1, 2])
            #expect(crossUser.allSatisfy { $0["recognitions"] as? Int == 9 })
            #expect((subject["library"] as? [String: Any])?["strokes"] as? Int == 12)
        }
        #expect((json["library_whole_set"] as? [String: Any])?["strokes"] as? Int == 24)
        #expect(json["library_held_out"] as? Bool == false)

        let text = try ToolRunner.run(["eval", logs.path, "--protocol", "leave-one-subject-out", "--templates", "1", "--iterations", "2"])
        try #require(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("cross-user accuracy by held-out subject"), "\(text.stdout)")
        #expect(text.stdout.contains("no subject can be left out of it"), "\(text.stdout)")
    }
}
