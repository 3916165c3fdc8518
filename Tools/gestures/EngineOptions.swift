import CommandLineKit
import DesktopDaemon
import Foundation
import GestureRecognition
import GestureTraces
import InputChecks
import TouchInput

/// The options that set up the gesture engine, shared by `replay` and
/// `watch`: the configuration file (its `engine`, `sequences` and
/// `templates`), and a template library and swipe sequences that replace
/// the configuration's.
struct EngineOptions: OptionGroup {
    /// `--library LIB.json`.
    static let library = Option(
        "--library", valueName: "LIB.json", .file,
        help: "Templates for drawn strokes, instead of the configuration's (default: the bundled 16 shapes).")
    /// `--sequences SEQ.json`.
    static let sequences = Option(
        "--sequences", valueName: "SEQ.json", .file,
        help: "Swipe sequences, instead of the configuration's: {\"sequences\": [{\"name\": ..., \"directions\": [\"up\", ...]}]}.")

    static var options: [OptionSpec] { ConfigurationOptions.options + [library.spec, sequences.spec] }

    /// The configuration file to read.
    var configuration: ConfigurationOptions
    /// The template library given, if any.
    var libraryPath: String?
    /// The sequence file given, if any.
    var sequencesPath: String?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        configuration = try ConfigurationOptions(arguments)
        libraryPath = arguments[Self.library]
        sequencesPath = arguments[Self.sequences]
    }

    /// The engine's configuration and the templates: the configuration
    /// file's (or the defaults), with the library and sequences given
    /// instead; `options` is the command's table, for hints.
    func load(options: [OptionSpec]) throws -> (engine: GestureEngine.Configuration, templates: TemplateLibrary) {
        let setup = try pipelineSetup(options: options)
        return (setup.configuration, setup.templates)
    }

    /// What each device's pipeline is built with, as the daemon builds it
    /// (`EngineSetup.pipeline`): the engine and templates of ``load(options:)``,
    /// and for mice the configuration's `mouse` section (its defaults without
    /// one) with the button withheld unless `intercept: false`.
    func pipelineSetup(options: [OptionSpec]) throws -> GesturePipeline.Setup {
        // Without a file, the daemon's defaults: it intercepts.
        var setup = EngineSetup(configuration: GestureEngine.Configuration(), templates: .dollarShapes, intercept: true)
        if let file = try configuration.load(options: options) {
            setup = EngineSetup(configuration: file.engine, templates: file.templates, mouse: file.mouse, intercept: file.intercept)
        }
        if let sequencesPath { setup.configuration.sequences = try Self.loadSequences(sequencesPath, options: options) }
        if let libraryPath { setup.templates = try TemplateLibraryFile.load(libraryPath, options: options) }
        return setup.pipeline
    }

    /// The sequences of a `--sequences` file, checked by kind and with the
    /// limits of a configuration's `sequences` section.
    static func loadSequences(_ path: String, options: [OptionSpec] = []) throws -> [SwipeSequenceMatcher.NamedSequence] {
        try FileArgument.check(path, as: .sequences, options: options)
        let data = try readSmallFile(path, what: "sequence file")
        let file: SequenceFile
        do { file = try JSONText.decode(SequenceFile.self, from: data) } catch {
            throw CommandFailure("\(path): \(error.description)")
        }
        if let first = SwipeSequenceMatcher.problems(in: file.sequences).first { throw CommandFailure("\(path): \(first)") }
        return file.sequences
    }

    /// Reads a file of at most `limit` bytes, its size checked before reading, with one-sentence errors.
    static func readSmallFile(_ path: String, what: String, limit: Int = 1 << 20) throws -> Data {
        do { return try InputFile.read(path, maximumBytes: limit) } catch {
            throw CommandFailure("\(what) \(error.description)")
        }
    }
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
        guard let sequences = try SwipeSequenceMatcher.NamedSequence.decodeList(from: c, forKey: .sequences) else {
            throw InvalidValue(path: "sequences", message: "is required")
        }
        self.sequences = sequences
    }
}
