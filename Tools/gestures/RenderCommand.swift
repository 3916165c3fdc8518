import CommandLineKit
import Foundation
import GesturePictures
import GestureRecognition
import GestureTraces
import InputChecks
import TouchInput

/// `gestures render FILE -o OUT`: draws a recording (its contacts and the
/// gestures `replay` gives) or a template library, as SVG or PNG.
enum RenderCommand: Command {
    static let name = "render"
    static let abstract = "Draw a recording or a template library as an SVG or PNG picture."
    static let discussion = """
        FILE is told apart by its content. A recording (JSON trace, libinput record
        YAML, or evemu: a .events file finds its .desc beside it) is drawn as its
        touch surface to scale in millimetres (a mouse's strokes, drawn with the
        mouse section's button, in counts), the path of every contact with dots
        at even times, touch-downs, lift-offs, palms and discarded jumps, and
        every gesture the engine recognises, numbered where it began and ended. The gestures are those 'gestures replay' prints with the same
        --config, --no-config, --library and --sequences.

        A template library (or 'default', the bundled 16 shapes of the $1 study)
        is drawn as a gallery of every sample, normalised as the recognizer
        chosen with --recognizer and --orientation compares it.

        The picture format comes from --format, else from OUT's extension (.svg
        or .png). PNG needs rsvg-convert (Debian: librsvg2-bin). OUT '-' writes to
        standard output.
        """

    static let output = Option(
        "--output", valueName: "OUT", .file, help: "The picture to write: .svg or .png ('-' for standard output).",
        aliases: ["-o"]
    ).required()
    static let format = Option("--format", .choice(PictureOutput.Format.self), help: "Picture format (default: from OUT's extension).")
    static let zoom = Option(
        "--zoom", valueName: "X", .number(above: 0), default: 1, help: "With png: pixels per SVG unit; 2 makes a sharper picture.")
    static let title = Option("--title", valueName: "TEXT", .text, help: "The heading (default: FILE's name).")
    static let from = Option(
        "--from", valueName: "MS", .number(in: 0...EventTime.maximumMilliseconds),
        help: "With a recording: draw from MS milliseconds after its first event.")
    static let to = Option(
        "--to", valueName: "MS", .number(in: 0...EventTime.maximumMilliseconds),
        help: "With a recording: draw up to MS milliseconds after its first event.")
    static let device = Option(
        "--device", valueName: "N", .integer(in: 0...),
        help: "With a recording of several devices: draw device N, 0 the first (default: the first touch device with events).")

    static let matcher = Option(
        "--recognizer", .choice(UnistrokeRecognizer.Matcher.self), default: .elastic,
        help: "With a template library: the matcher whose normalisation is drawn.")
    static let orientation = Option(
        "--orientation", valueName: "MODE", RecognizerOptions.orientationParser, default: .invariant,
        help: "With a template library: invariant (rotated to the indicative angle), or sensitive[:DEGREES].")

    /// The options that only a recording takes.
    static var recordingOptions: [OptionSpec] { [from.spec, to.spec, device.spec] + EngineOptions.options }
    /// The options that only a template library takes.
    static var libraryOptions: [OptionSpec] { [matcher.spec, orientation.spec] }

    static var options: [OptionSpec] {
        [output.spec, format.spec, zoom.spec, title.spec] + recordingOptions + libraryOptions
    }
    static let arguments = [
        ArgumentSpec(
            "FILE", kind: .file, help: "A recording, a template library JSON, or 'default'.",
            missing: "no file given: give a recording or a template library (or 'default')")
    ]

    /// What to draw and where.
    struct Options {
        var file: String
        var output: PictureOutput
        var title: String?
        /// Milliseconds from the recording's first event.
        var from: Double?
        var to: Double?
        var device: Int?
        var engine: EngineOptions
        var recognizer: UnistrokeRecognizer.Configuration
        /// The recording-only options given, as typed (for the error when FILE is a library).
        var recordingOptionsGiven: [String]
        /// The library-only options given.
        var libraryOptionsGiven: [String]
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        let window = (from: arguments[from], to: arguments[to])
        if let start = window.from, let end = window.to, start >= end {
            throw UsageError("--from \(Self.text(start)) is not before --to \(Self.text(end)); give a window that lasts")
        }
        return Options(
            file: arguments.positionals[0],
            output: try PictureOutput(path: arguments[output], format: arguments[format], zoom: arguments[zoom], option: "-o"),
            title: arguments[title], from: window.from, to: window.to, device: arguments[device],
            engine: try EngineOptions(arguments),
            recognizer: UnistrokeRecognizer.Configuration(matcher: arguments[matcher], orientation: arguments[orientation]),
            recordingOptionsGiven: recordingOptions.filter { arguments.isGiven($0) }.map(\.name),
            libraryOptionsGiven: libraryOptions.filter { arguments.isGiven($0) }.map(\.name))
    }

    static func run(_ options: Options) throws -> Int32 {
        try options.output.checkWritable()
        let name = options.file == "default" ? "default" : PathName.lastComponent(of: options.file)
        switch try RenderInput.load(options.file, options: Self.options) {
        case .recording(let trace):
            if let given = options.libraryOptionsGiven.first {
                throw CommandFailure("\(given) applies to a template library, and \(options.file) is a recording; leave it out")
            }
            // The daemon's pipelines, the mouse section's button included: a mouse's strokes are drawn with it.
            let replay = GestureReplay(setup: try options.engine.pipelineSetup(options: Self.options))
            let picture: TracePicture
            do {
                picture = try TracePicture(
                    trace: trace, device: options.device, window: try window(options, trace: trace),
                    replay: replay, title: options.title ?? name)
            } catch let error as PictureError {
                throw CommandFailure("\(options.file): \(error.description)")
            }
            try options.output.write(picture)
        case .templates(let library):
            if let given = options.recordingOptionsGiven.first {
                throw CommandFailure("\(given) applies to a recording, and \(options.file) is a template library; leave it out")
            }
            let title =
                options.title
                ?? (options.file == "default" ? "The default templates: the 16 shapes of the $1 study" : "Template library \(name)")
            try options.output.write(TemplateGallery(library, configuration: options.recognizer, title: title))
        }
        return 0
    }

    /// The time window asked for, as the picture takes it; nil for the whole recording.
    static func window(_ options: Options, trace: Trace) throws -> ClosedRange<Duration>? {
        guard options.from != nil || options.to != nil else { return nil }
        let times = trace.frames.compactMap { $0.events.last?.microseconds }
        let origin = trace.frames.lazy.compactMap { $0.events.first?.microseconds }.first ?? 0
        let length = Double(EventTime.microseconds(from: origin, to: times.max() ?? origin)) / 1000
        let start = options.from ?? 0
        guard start <= length else {
            throw CommandFailure("\(options.file) lasts \(text(length)) ms, so --from \(text(start)) leaves nothing to draw")
        }
        return EventTime.duration(milliseconds: start)...EventTime.duration(milliseconds: options.to ?? max(length, start + 1))
    }

    /// A number of milliseconds as typed: `500`, `12.5`.
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
