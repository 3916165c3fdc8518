import Foundation
import GestureRecognition
import TestSupport
import Testing

/// Pictures as the tool writes them: parsed back as XML and checked against
/// what the recordings hold, worked out here from their raw events and their
/// expected replay output.
@Suite("gestures render (end to end)")
struct RenderCommandTests {
    /// Recordings of each device and of every kind of gesture drawn differently.
    static let recordings = [
        "x1carbon.3-finger-swipe-left",
        "rmi4.3-finger-swipe-up-with-resting-thumb",
        "magic.5-finger-pinch-out.noisy",
        "atmel.1-finger-stroke-circle",
        "rmi4.3-finger-sequence-back-and-forth",
        "x1carbon.3-finger-tap",
    ]

    /// The three trace formats: our JSON, libinput record YAML, evemu.
    static let formats = ["jsonl", "yml", "events"]

    static func synthetic(_ name: String, _ ext: String = "jsonl") -> URL {
        ToolRunner.repository.appendingPathComponent("Recordings/synthetic/\(name).\(ext)")
    }

    /// The contacts of a JSON trace (distinct tracking ids, from its raw
    /// events) and its completed gestures (from NAME.expected.jsonl).
    static func expectedParts(of name: String) throws -> (contacts: Int, gestures: [[String: Any]]) {
        let lines = try String(contentsOf: synthetic(name), encoding: .utf8).split(separator: "\n").dropFirst()
        var trackingIDs = Set<Int>()
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            for event in object["e"] as? [[Int]] ?? [] where event[0] == 3 && event[1] == 57 && event[2] >= 0 {
                trackingIDs.insert(event[2])
            }
        }
        let expected = try String(contentsOf: synthetic(name, "expected.jsonl"), encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        return (trackingIDs.count, expected.filter { $0["phase"] == nil || $0["phase"] as? String == "end" })
    }

    /// `name` in format `ext`: the JSON trace itself, or converted by the tool into `directory`.
    static func recording(_ name: String, as ext: String, in directory: URL) throws -> URL {
        guard ext != "jsonl" else { return synthetic(name) }
        let converted = directory.appendingPathComponent("\(name).\(ext)")
        let run = try ToolRunner.run(["convert", synthetic(name).path, "-o", converted.path])
        try #require(run.status == 0, "convert: \(run.stderr)")
        return converted
    }

    /// Runs `render` and parses the picture it wrote.
    static func render(_ arguments: [String], into file: URL) throws -> SVGNode {
        let run = try ToolRunner.run(["render"] + arguments + ["-o", file.path])
        try #require(run.status == 0, "render \(arguments): \(run.stderr)")
        #expect(run.stderr.isEmpty && run.stdout.isEmpty, "render is quiet when it works")
        return try SVGInspector.parse(try String(contentsOf: file, encoding: .utf8))
    }

    @Test(
        "a recording in each trace format draws one path per contact and one label per gesture",
        arguments: recordings, formats)
    func recordingHasItsParts(name: String, format: String) throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = try Self.recording(name, as: format, in: directory)
        var arguments = [input.path, "--no-config"]
        let sequences = Self.synthetic(name, "sequences.json")
        if FileManager.default.fileExists(atPath: sequences.path) { arguments += ["--sequences", sequences.path] }
        let root = try Self.render(arguments, into: directory.appendingPathComponent("picture.svg"))
        let expected = try Self.expectedParts(of: name)

        #expect(root.name == "svg")
        #expect(root.title == input.lastPathComponent, "the file's name is the heading")
        #expect(root.children.contains { $0.name == "desc" && !$0.text.isEmpty }, "a description for screen readers")
        #expect(root.all("path", class: "contact-path").count == expected.contacts)
        let labels = root.all("text", class: "gesture-label").map(\.text)
        #expect(labels.count == expected.gestures.count, "\(labels)")
        for (label, gesture) in zip(labels, expected.gestures) {
            let type = try #require(gesture["type"] as? String)
            #expect(label.hasPrefix(type), "label '\(label)' for \(gesture)")
            #expect(label.contains("\(try #require(gesture["fingers"] as? Int)) finger"), "label '\(label)'")
            if let template = gesture["template"] as? String { #expect(label.contains("template \(template)")) }
            if let sequence = gesture["name"] as? String { #expect(label.contains(sequence)) }
        }
    }

    @Test("without --sequences the engine options give no sequence, as replay gives none")
    func engineOptionsReachTheReplay() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = try Self.render(
            [Self.synthetic("rmi4.3-finger-sequence-back-and-forth").path, "--no-config"],
            into: directory.appendingPathComponent("picture.svg"))
        let labels = root.all("text", class: "gesture-label").map(\.text)
        #expect(labels.count == 2 && labels.allSatisfy { $0.hasPrefix("swipe") }, "\(labels)")
    }

    @Test(
        "--from and --to draw only the gestures of the window",
        arguments: [
            (["--from", "600"], ["swipe", "sequence"]),
            (["--to", "600"], ["swipe"]),
            (["--from", "100", "--to", "1300"], ["swipe", "swipe", "sequence"]),
        ])
    func timeWindow(window: [String], types: [String]) throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = "rmi4.3-finger-sequence-back-and-forth"
        let root = try Self.render(
            [Self.synthetic(name).path, "--no-config", "--sequences", Self.synthetic(name, "sequences.json").path] + window,
            into: directory.appendingPathComponent("picture.svg"))
        let labels = root.all("text", class: "gesture-label").map(\.text)
        #expect(labels.map { String($0.prefix { $0 != " " }) } == types, "\(labels)")
    }

    @Test("the default library draws every template of its 16 shapes, normalised, with its start and direction")
    func defaultGallery() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = try Self.render(["default"], into: directory.appendingPathComponent("gallery.svg"))
        let names = root.all("g", class: "gesture-name")
        #expect(names.count == 16)
        #expect(names.contains { $0.title?.hasPrefix("circle:") == true })
        // One of each shape and their variants.
        let templates = TemplateLibrary.dollarShapes.templates.count
        #expect(templates > 16)
        #expect(root.all("g", class: "sample").count == templates)
        #expect(root.all("path", class: "sample-path").count == templates)
        #expect(root.allText.contains("elastic"), "says how the samples are normalised")
    }

    @Test("a trained library draws every sample of every name, normalised by the matcher chosen")
    func trainedGallery() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = directory.appendingPathComponent("mine.json").path
        let strokes = ToolRunner.repository.appendingPathComponent("Recordings/strokes")
        for (file, name) in [("circle", "circle"), ("triangle", "circle"), ("check", "check"), ("zigzag", "zz")] {
            let run = try ToolRunner.run([
                "train", "--library", library, "--name", name, strokes.appendingPathComponent("\(file).json").path,
            ])
            try #require(run.status == 0, "train: \(run.stderr)")
        }
        let root = try Self.render([library, "--recognizer", "protractor"], into: directory.appendingPathComponent("gallery.svg"))
        #expect(root.title == "Template library mine.json")
        let names = root.all("g", class: "gesture-name").compactMap(\.title)
        #expect(names == ["circle: 2 samples", "check: 1 sample", "zz: 1 sample"])
        #expect(root.all("path", class: "sample-path").count == 4)
        #expect(root.allText.contains("protractor"))
    }

    @Test("-o - writes the SVG to standard output")
    func standardOutput() throws {
        let run = try ToolRunner.run(["render", "default", "-o", "-"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try SVGInspector.parse(run.stdout).all("g", class: "sample").count == TemplateLibrary.dollarShapes.templates.count)
    }

    @Test(
        "PNG, from the extension or --format, is the SVG's size and not blank",
        .enabled(if: Self.rsvgConvert, "rsvg-convert is not installed (Debian: librsvg2-bin; Tools/test-all installs it)"),
        arguments: [
            (["-o", "picture.png"], 1), (["-o", "picture.png", "--zoom", "2"], 2), (["--format", "png", "-o", "picture.img"], 1),
        ])
    func png(arguments: [String], zoom: Int) throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = Self.synthetic("magic.5-finger-pinch-out.noisy").path
        let svgRun = try ToolRunner.run(["render", trace, "--no-config", "-o", "-"])
        let svg = try SVGInspector.parse(svgRun.stdout)
        let run = try ToolRunner.run(["render", trace, "--no-config"] + arguments, in: directory)
        try #require(run.status == 0, "\(run.stderr)")
        let file = directory.appendingPathComponent(arguments[arguments.firstIndex(of: "-o")! + 1])
        let image = try PNGImage(data: try Data(contentsOf: file))
        #expect(image.width == Int(try #require(svg.number("width")).rounded(.up)) * zoom)
        #expect(image.height == Int(try #require(svg.number("height")).rounded(.up)) * zoom)
        let background = image.pixel(x: 0, y: 0)
        var marked = 0
        for y in 0..<image.height { for x in 0..<image.width where image.pixel(x: x, y: y) != background { marked += 1 } }
        #expect(Double(marked) / Double(image.width * image.height) > 0.01, "\(marked) pixels drawn")
    }

    static let rsvgConvert = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .contains { FileManager.default.isExecutableFile(atPath: "\($0)/rsvg-convert") }

    @Test("without rsvg-convert, PNG is refused in one sentence that says what to install, and nothing is written")
    func pngWithoutConverter() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try ToolRunner.run(["render", "default", "-o", "gallery.png"], in: directory, environment: ["PATH": directory.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("rsvg-convert is not installed") && run.stderr.contains("librsvg2-bin"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("gallery.png").path))
    }

    static let strokeFile = "Recordings/strokes/circle.json"
    static let tap = "Recordings/synthetic/x1carbon.3-finger-tap.jsonl"

    static let failingInvocations: [([String], Int32, String)] = [
        (["render", "default"], 64, "missing --output OUT"),
        (
            ["render", "Recordings", "-o", "x.svg"], 1,
            "Recordings is a directory, not a recording or a template library: name the files in it"
        ),
        (["render", "/no/such/file", "-o", "x.svg"], 1, "/no/such/file: no such file"),
        (
            ["render", strokeFile, "-o", "x.svg"], 1,
            "\(strokeFile) is a JSON stroke file, not a recording or a template library: draw it with 'gestures recognize"
        ),
        // A file no sniffer places goes to the trace reader, as with every command that reads recordings.
        (["render", "Package.swift", "-o", "x.svg"], 1, "Package.swift line 1: malformed YAML"),
        (
            ["render", "Recordings/synthetic/rmi4.3-finger-sequence-back-and-forth.sequences.json", "-o", "x.svg"], 1,
            "is a file of swipe sequences, not a recording or a template library: give it with --sequences"
        ),
        (["render", "default", "-o", "x.gif"], 64, "cannot tell the picture format from '.gif'; name the -o file .svg or .png"),
        (["render", "default", "-o", "x.svg", "--format", "gif"], 64, "option '--format' expects svg or png"),
        (["render", "default", "-o", "x.svg", "--from", "10"], 1, "--from applies to a recording, and default is a template library"),
        (["render", tap, "-o", "x.svg", "--recognizer", "dollar1"], 1, "--recognizer applies to a template library"),
        (["render", tap, "-o", "x.svg", "--from", "100", "--to", "50"], 64, "--from 100 is not before --to 50"),
        (["render", tap, "-o", "x.svg", "--from", "5000"], 1, "lasts 140 ms, so --from 5000 leaves nothing to draw"),
        (["render", tap, "-o", "x.svg", "--device", "3"], 1, "the trace has 1 device, so there is no device 3"),
        (["render", tap, "-o", "/no/such/folder/x.svg"], 1, "cannot write /no/such/folder/x.svg: there is no folder /no/such/folder"),
        (["render", tap, "--config", "/no/such/config.json", "-o", "x.svg"], 1, "/no/such/config.json"),
    ]

    @Test("a wrong file or option gives one sentence, the right exit status, and no picture", arguments: failingInvocations)
    func badInvocations(arguments: [String], status: Int32, message: String) throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Paths in the repository, the picture in the temporary folder.
        let run = try ToolRunner.run(arguments.map { $0.hasPrefix("x.") ? directory.appendingPathComponent($0).path : $0 })
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "nothing written")
    }

    @Test("a mouse recording is drawn as a touch recording is: its strokes, in counts, and the gestures they made")
    func mouseRecording() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("mouse.svg").path
        let run = try ToolRunner.run(["render", "Recordings/synthetic/mouse.stroke-circle.jsonl", "-o", out, "--no-config"])
        #expect(run.status == 0, "\(run.stderr)")
        let svg = try String(contentsOfFile: out, encoding: .utf8)
        #expect(svg.contains("mouse 250 × 250 counts"), "the surface is the strokes' extent, in counts")
        #expect(svg.contains("class=\"contact-path\"") && svg.contains("stroke · mouse · template circle"))
    }

    @Test("a configuration given as FILE is named as one, with the option that takes it")
    func configurationIsNamed() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (file, text) in [("config.yaml", "version: 1\nbindings: []\n"), ("config.json", #"{"version": 1, "bindings": []}"#)] {
            let path = directory.appendingPathComponent(file).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let run = try ToolRunner.run(["render", path, "-o", directory.appendingPathComponent("x.svg").path])
            #expect(run.status == 1)
            #expect(
                run.stderr
                    == "gestures render: \(path) is a gestures configuration file, not a recording or a template library: give it with --config \(path).\n"
            )
        }
    }

    @Test("render has help and is listed")
    func help() throws {
        let top = try ToolRunner.run(["--help"])
        #expect(top.stdout.contains("  render "))
        let run = try ToolRunner.run(["render", "--help"])
        #expect(run.status == 0 && run.stdout.contains("USAGE: gestures render"))
        for option in ["--output", "--format", "--from", "--to", "--device", "--config", "--library", "--sequences", "--recognizer"] {
            #expect(run.stdout.contains(option), "help lists \(option)")
        }
    }
}
