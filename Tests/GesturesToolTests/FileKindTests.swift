import Foundation
import Testing

/// A folder of one file of each kind the tool reads, made by the tool itself
/// where it can (a template library, an evemu description).
struct FileFixtures {
    let folder: URL

    init() throws {
        folder = try ToolRunner.temporaryDirectory()
        func write(_ name: String, _ text: String) throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try write("config.yaml", "version: 1\nbindings:\n  - {gesture: tap, action: {command: [\"true\"]}}\n")
        try write("sequences.json", #"{"sequences": [{"name": "zz", "directions": ["left", "right"]}]}"#)
        try write(
            "circle01.xml",
            """
            <?xml version="1.0" encoding="utf-8" standalone="yes"?>
            <Gesture Name="circle01" Subject="1" Speed="fast" NumPts="3">
              <Point X="10" Y="20" T="0" />
              <Point X="30" Y="40" T="10" />
              <Point X="50" Y="20" T="20" />
            </Gesture>
            """)
        try write("empty.jsonl", "")
        try Data([0, 1, 2, 0xff, 0xfe]).write(to: folder.appendingPathComponent("blob.bin"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("folder"), withIntermediateDirectories: true)
        let library = try ToolRunner.run(["templates", "default", "--export", path("library.json")])
        #expect(library.status == 0, "\(library.stderr)")
        let desc = try ToolRunner.run(["convert", "Recordings/devices/x1carbon.jsonl", "-o", path("Pad.desc"), "--to", "evemu"])
        #expect(desc.status == 0, "\(desc.stderr)")
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static let recording = "Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl"
    static let expectedOutput = "Recordings/synthetic/x1carbon.3-finger-swipe-left.expected.jsonl"
    static let strokes = "Recordings/strokes/check.json"

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

@Suite("a file of the wrong kind, a directory or a missing file: one sentence saying what it is and what to do (end to end)")
struct FileKindTests {
    /// (arguments with {NAME} for a fixture, the whole of stderr with {NAME} too).
    static let cases: [([String], String)] = [
        (
            ["replay", "{folder}"],
            "gestures replay: {folder} is a directory, not a recording: name the files in it ({folder}/*)."
        ),
        (
            ["replay", "{circle01.xml}"],
            "gestures replay: {circle01.xml} is a $1 stroke log, not a recording: use 'gestures recognize', or 'gestures train' to add it to a library."
        ),
        (
            ["replay", FileFixtures.strokes],
            "gestures replay: Recordings/strokes/check.json is a JSON stroke file, not a recording: use 'gestures recognize', or 'gestures train' to add it to a library."
        ),
        (
            ["replay", "{config.yaml}"],
            "gestures replay: {config.yaml} is a gestures configuration file, not a recording: give it with --config {config.yaml}."
        ),
        (
            ["info", "{config.yaml}"],
            "gestures info: {config.yaml} is a gestures configuration file, not a recording: use 'gestures check-config' to check it."
        ),
        (
            ["replay", "{library.json}"],
            "gestures replay: {library.json} is a template library, not a recording: give it with --library {library.json}."
        ),
        (
            ["convert", "{library.json}", "-o", "x.jsonl"],
            "gestures convert: {library.json} is a template library, not a recording: use 'gestures templates' to list or edit it."
        ),
        (
            ["replay", "{sequences.json}"],
            "gestures replay: {sequences.json} is a file of swipe sequences, not a recording: give it with --sequences {sequences.json}."
        ),
        (
            ["replay", "{Pad.desc}"],
            "gestures replay: {Pad.desc} is an evemu device description without events, not a recording: give the .events recording made on that device (its .desc is found beside it by name), or give this one with --desc."
        ),
        (
            ["replay", FileFixtures.expectedOutput],
            "gestures replay: \(FileFixtures.expectedOutput) is gesture output (one event a line, as 'gestures replay' prints), not a recording: give the recording it came from."
        ),
        (
            ["replay", "Recordings/synthetic/mouse.click.expected.jsonl"],
            "gestures replay: Recordings/synthetic/mouse.click.expected.jsonl is gesture output (one event a line, as 'gestures replay' prints), not a recording: give the recording it came from."
        ),
        (["replay", "{empty.jsonl}"], "gestures replay: {empty.jsonl} is empty, not a recording."),
        (["replay", "{blob.bin}"], "gestures replay: {blob.bin} is a binary file, not a recording."),
        (
            ["replay", "Recordings/synthetic/x1carbon.3-finger-swipe-lft.jsonl"],
            "gestures replay: Recordings/synthetic/x1carbon.3-finger-swipe-lft.jsonl: no such file; did you mean 'Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl'?"
        ),
        (["info", "/no/such/trace.jsonl"], "gestures info: /no/such/trace.jsonl: no such file (there is no folder /no/such)."),
        (
            ["recognize", FileFixtures.recording],
            "gestures recognize: \(FileFixtures.recording) is a touch recording (JSON trace), not a stroke file: use 'gestures replay' for its gestures, or 'gestures train --name NAME' to take the strokes drawn in it as samples."
        ),
        (["recognize", "{folder}"], "gestures recognize: {folder} is a directory, not a stroke file: name the files in it ({folder}/*)."),
        (
            ["recognize", "{config.yaml}"],
            "gestures recognize: {config.yaml} is a gestures configuration file, not a stroke file: give it with --config {config.yaml}."
        ),
        (
            ["recognize", "--library", FileFixtures.strokes, FileFixtures.strokes],
            "gestures recognize: Recordings/strokes/check.json is a JSON stroke file, not a template library: add it to a library with 'gestures train'."
        ),
        (
            ["check-config", FileFixtures.recording],
            "gestures check-config: \(FileFixtures.recording) is a touch recording (JSON trace), not a configuration file: use 'gestures replay'."
        ),
        (
            ["check-config", "{library.json}"],
            "gestures check-config: {library.json} is a template library, not a configuration file: name it in the configuration's templates key."
        ),
        (
            ["check-config", "{folder}"],
            "gestures check-config: {folder} is a directory, not a configuration file: name the files in it ({folder}/*)."
        ),
        (
            ["templates", FileFixtures.recording],
            "gestures templates: \(FileFixtures.recording) is a touch recording (JSON trace), not a template library: use 'gestures replay'."
        ),
        (
            ["train", "--library", "{new.json}", "{config.yaml}"],
            "gestures train: {config.yaml} is a gestures configuration file, not a stroke file or a recording: give it with --config {config.yaml}."
        ),
        (
            ["eval", FileFixtures.strokes],
            "gestures eval: Recordings/strokes/check.json is a JSON stroke file, not a folder: eval reads a folder of $1 logs laid out as <subject>/<speed>/<gesture><NN>.xml."
        ),
        (
            ["eval", "{circle01.xml}"],
            "gestures eval: {circle01.xml} is a $1 stroke log, not a folder: eval reads a folder of $1 logs laid out as <subject>/<speed>/<gesture><NN>.xml (use 'gestures recognize' for one log)."
        ),
        (
            ["replay", "--config", FileFixtures.strokes, FileFixtures.recording],
            "gestures replay: Recordings/strokes/check.json is a JSON stroke file, not a configuration file: use 'gestures recognize', or 'gestures train' to add it to a library."
        ),
        (
            ["replay", "--library", "{folder}", FileFixtures.recording],
            "gestures replay: {folder} is a directory, not a template library: name the files in it ({folder}/*)."
        ),
        (
            ["replay", "--sequences", "{config.yaml}", FileFixtures.recording],
            "gestures replay: {config.yaml} is a gestures configuration file, not a sequence file: give it with --config {config.yaml}."
        ),
        (
            ["replay", "--desc", FileFixtures.recording, FileFixtures.recording],
            "gestures replay: \(FileFixtures.recording) is a touch recording (JSON trace), not an evemu device description: use 'gestures replay'."
        ),
        (
            ["templates", "default", "--export", "{folder}"],
            "gestures templates: {folder} is a directory: give the name of a file to write ({folder}/NAME)."
        ),
        (
            ["bench-patterns", "{folder}"],
            "gestures bench-patterns: {folder} is a directory, not a pattern corpus: name the files in it ({folder}/*)."
        ),
    ]

    /// `text` with each `{name}` replaced by the fixture's path.
    static func filled(_ text: String, _ fixtures: FileFixtures) -> String {
        var text = text
        while let open = text.firstIndex(of: "{"), let close = text[open...].firstIndex(of: "}"),
            !text[text.index(after: open)..<close].contains(" "), text[text.index(after: open)..<close].contains(where: \.isLetter)
        {
            let name = String(text[text.index(after: open)..<close])
            text.replaceSubrange(open...close, with: fixtures.path(name))
        }
        return text
    }

    @Test("each gets one sentence naming the file, what it is and what to do, and status 1", arguments: cases)
    func oneSentence(arguments: [String], message: String) throws {
        let fixtures = try FileFixtures()
        defer { fixtures.remove() }
        let run = try ToolRunner.run(arguments.map { Self.filled($0, fixtures) })
        #expect(run.status == 1)
        #expect(run.stderr == Self.filled(message, fixtures) + "\n")
    }

    @Test("a directory given as convert's output is a usage error naming it")
    func convertIntoADirectory() throws {
        let fixtures = try FileFixtures()
        defer { fixtures.remove() }
        let run = try ToolRunner.run(["convert", FileFixtures.recording, "-o", fixtures.path("folder")])
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("gestures convert: \(fixtures.path("folder")) is a directory; give -o the name of a file to write"))
    }

    @Test("a symbolic link to a recording is a recording")
    func symbolicLinks() throws {
        let fixtures = try FileFixtures()
        defer { fixtures.remove() }
        let link = fixtures.path("link.jsonl")
        try FileManager.default.createSymbolicLink(
            atPath: link, withDestinationPath: ToolRunner.repository.appendingPathComponent(FileFixtures.recording).path)
        let run = try ToolRunner.run(["replay", "--ends", link])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""direction":"left""#))
    }

    @Test("the right kind of file still reaches its reader, whose error names the line")
    func readersStillReport() throws {
        let fixtures = try FileFixtures()
        defer { fixtures.remove() }
        let bad = fixtures.path("bad.jsonl")
        try #"{"format":"gestures-trace","version":1,"devices":[]}"#.appending("\nnot json\n").write(
            toFile: bad, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["replay", bad])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("gestures replay: \(bad) line "), "\(run.stderr)")
    }
}

/// The hints in messages name only what exists: each `--option` outside a
/// quoted command is one the failing command takes, and each quoted
/// `'gestures SUB ...'` is a real subcommand with options it takes.
@Suite("hints in messages match the commands' real options (end to end)")
struct HintTests {
    static let invocations: [[String]] =
        FileKindTests.cases.map(\.0) + [
            ["check-config"],
            ["run"],
            ["train", "--library", "{new.json}", "Recordings/strokes/zigzag.json"],
            ["train", "--library", "{new.json}", FileFixtures.recording],
            ["train", "--library", "{new.json}", "--name", "x", FileFixtures.recording],
            ["train", "--library", "{new.json}", "--device", "/no/such/event0"],
            ["convert", FileFixtures.recording, "-o", "x.unknown"],
            ["replay", "--uinput", "a", "b"],
            ["templates", "default", "--remove", "circle"],
        ]

    /// The options `gestures COMMAND --help` lists.
    static func options(of command: String) throws -> Set<String> {
        let help = try ToolRunner.run([command, "--help"]).stdout
        var options: Set<String> = []
        for line in help.split(separator: "\n") where line.hasPrefix("  -") {
            for label in line.dropFirst(2).split(separator: " ").prefix(3) where label.hasPrefix("-") {
                options.insert(String(label.trimmingCharacters(in: CharacterSet(charactersIn: ","))))
            }
        }
        return options
    }

    /// The `--words` in `text`.
    static func optionWords(_ text: some StringProtocol) -> [String] {
        var words: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: "--") {
            let word = rest[range.lowerBound...].prefix { $0 == "-" || $0.isLetter }
            if word.count > 2 { words.append(String(word)) }
            rest = rest[range.upperBound...]
        }
        return words
    }

    @Test("every hint names an option or a subcommand that exists", arguments: invocations)
    func hintsExist(arguments: [String]) throws {
        let fixtures = try FileFixtures()
        defer { fixtures.remove() }
        let environment = ["XDG_CONFIG_HOME": fixtures.path("no-config-here"), "HOME": fixtures.path("no-home")]
        let run = try ToolRunner.run(arguments.map { FileKindTests.filled($0, fixtures) }, environment: environment)
        #expect(run.status != 0)
        var message = run.stderr
        // Quoted commands: 'gestures SUB --option ...'.
        while let start = message.range(of: "'gestures "), let end = message[start.upperBound...].firstIndex(of: "'") {
            let quoted = message[start.upperBound..<end]
            let subcommand = String(quoted.split(separator: " ").first ?? "")
            let known = try Self.options(of: subcommand)
            #expect(!known.isEmpty, "'gestures \(quoted)' names no subcommand (\(run.stderr))")
            for option in Self.optionWords(quoted) { #expect(known.contains(option), "'gestures \(quoted)': \(option) (\(run.stderr))") }
            message.removeSubrange(start.lowerBound...end)
        }
        let own = try Self.options(of: arguments[0])
        for option in Self.optionWords(message) {
            #expect(own.contains(option), "\(arguments[0]) has no \(option): \(run.stderr)")
        }
    }
}
