import Foundation
import GestureRecognition
import GestureTraces

/// Reads a JSON file of at most `limit` bytes, its size checked before reading, with one-sentence errors.
func readSmallFile(_ path: String, what: String, limit: Int = 1 << 20) throws -> Data {
    do { return try InputFile.read(path, maximumBytes: limit) } catch {
        throw CommandFailure("\(what) \(error.description)")
    }
}

/// The engine configuration from `--config` and `--sequences`.
func engineConfiguration(_ arguments: Arguments) throws -> GestureEngine.Configuration {
    var configuration = GestureEngine.Configuration()
    if let path = arguments.value("--config") {
        let data = try readSmallFile(path, what: "engine configuration")
        do { configuration = try JSONText.decode(GestureEngine.Configuration.self, from: data) } catch {
            throw CommandFailure("\(path): \(error.description)")
        }
    }
    if let path = arguments.value("--sequences") {
        let data = try readSmallFile(path, what: "sequence file")
        let file: SequenceFile
        do { file = try JSONText.decode(SequenceFile.self, from: data) } catch {
            throw CommandFailure("\(path): \(error.description)")
        }
        let problems = SwipeSequenceMatcher.problems(in: file.sequences)
        if let first = problems.first { throw CommandFailure("\(path): \(first)") }
        configuration.sequences = file.sequences
    }
    return configuration
}

/// A `--sequences` file: `{"sequences": [{"name": ..., "directions": [...]}]}`, with
/// the same limits as the sequences of a configuration.
private struct SequenceFile: Decodable {
    var sequences: [SwipeSequenceMatcher.NamedSequence]

    private enum CodingKeys: String, CodingKey { case sequences }

    init(from decoder: any Decoder) throws {
        guard let c = try? decoder.container(keyedBy: CodingKeys.self) else {
            throw InvalidValue(path: "", message: #"must be an object: {"sequences": [...]}"#)
        }
        guard c.contains(.sequences) else { throw InvalidValue(path: "sequences", message: "is required") }
        guard var list = try? c.nestedUnkeyedContainer(forKey: .sequences) else {
            throw InvalidValue(path: "sequences", message: "must be a list of sequences")
        }
        if let count = list.count, count > SwipeSequenceMatcher.maximumCount {
            throw InvalidValue(path: "sequences", message: SwipeSequenceMatcher.countProblem(count: count))
        }
        var sequences: [SwipeSequenceMatcher.NamedSequence] = []
        while !list.isAtEnd { sequences.append(try list.decode(SwipeSequenceMatcher.NamedSequence.self)) }
        self.sequences = sequences
    }
}

struct ReplayCommand: Subcommand {
    static let name = "replay"
    static let abstract = "Run the gesture engine over recorded traces and print the gestures."
    static let usage = "FILE... [--ends] [--format json|text] [--library LIB.json] [--sequences SEQ.json] [--config CONFIG.json]\n       gestures replay --uinput FILE [--speed X] [--wait MS] [--linger MS]"
    static let discussion = """
    FILE is a trace in our JSON format, a `libinput record` YAML file or an
    evemu recording (a .events file finds its .desc beside it), detected from
    the content. One JSON object per line per gesture: type, phase, time_ms,
    fingers, and on ends cancelled, direction, dx_mm, dy_mm, edge, scale,
    angle_degrees, template, score, name where they apply.

    With --uinput, FILE (any of those formats, e.g. made by 'gestures record')
    is played into new virtual devices with its original timing instead, like
    evemu-play and libinput replay; the nodes are printed on stderr. Needs write access to
    /dev/uinput; Ctrl-C or SIGTERM stops it and removes the device.
    """
    static let options: [OptionSpec] = [
        .flag("--ends", "Print only completed gestures (ends and single events)."),
        .option("--format", "json|text", "JSON Lines (default) or a readable line per gesture."),
        .option("--library", "LIB.json", "Templates for drawn strokes (default: the bundled 16 shapes)."),
        .option("--sequences", "SEQ.json", "Swipe sequences: {\"sequences\": [{\"name\": ..., \"directions\": [\"up\", ...]}]}."),
        .option("--config", "CONFIG.json", "Engine thresholds (GestureEngine.Configuration as JSON)."),
        .option("--uinput", "FILE", "Play the recording into a virtual device instead (see above)."),
        .option("--speed", "X", "With --uinput: play X times faster (default 1)."),
        .option("--wait", "MS", "With --uinput: wait MS ms after creating the device, so readers can open it (default 500)."),
        .option("--linger", "MS", "With --uinput: keep the device MS ms after the last frame (default 500)."),
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        if arguments.value("--uinput") != nil {
            guard arguments.positionals.isEmpty else { throw UsageError("--uinput plays one recording; give it as --uinput FILE") }
            return try UinputReplay.run(arguments)
        }
        guard !arguments.positionals.isEmpty else { throw UsageError("no trace files given") }
        let text = try arguments.value("--format", default: false, "json or text") { $0 == "text" ? true : $0 == "json" ? false : nil }
        let replay = GestureReplay(configuration: try engineConfiguration(arguments),
                                   templates: try loadLibrary(arguments.value("--library") ?? "default"))
        let endsOnly = arguments.flag("--ends")
        for file in arguments.positionals {
            let trace: Trace
            do { trace = try Trace.load(contentsOf: URL(fileURLWithPath: file)) } catch {
                throw CommandFailure(sentence(for: error))
            }
            if arguments.positionals.count > 1 && text { print("# \(file)") }
            for event in replay.gestures(in: trace) where !endsOnly || event.isCompletion {
                print(text ? event.description : event.jsonLine)
            }
        }
        return 0
    }
}
