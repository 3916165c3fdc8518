import CommandLineKit
import EvdevInput
import Foundation
import GestureRecognition
import GestureTraces
import TouchInput

/// `gestures train`: adds stroke samples to a template library, from files
/// or drawn live on a touch device or with a mouse.
enum TrainCommand: Command {
    static let name = "train"
    static let abstract = "Add stroke samples to a template library: from stroke files, recordings, or drawn live (--device)."
    static var usage: String {
        usageText(
            options: [library.spec, gestureName.spec, fromDefaults.spec, RecordingFile.descOption.spec] + ConfigurationOptions.options,
            arguments: [ArgumentSpec("FILE", count: .oneOrMore)])
            + "\n--library LIB.json --name NAME --device D "
            + usageText(
                options: [fromDefaults.spec, samples.spec, button.spec, InputDevices.directoryOption.spec] + ConfigurationOptions.options)
    }
    static let discussion = """
        Each FILE adds its strokes as samples: a $1 XML log or a JSON stroke file
        (named by the file: an XML log's gesture name, a JSON stroke's "name"), or
        a recording in any trace format (made by 'gestures record', say), whose
        strokes are taken as the daemon sees them: drawn with the engine's stroke
        finger count on touch surfaces (one on touchscreens; on touchpads the
        configuration's engine.touchpadStrokeFingers, off by default), in
        millimetres, and with the mouse section's button on mice, in counts. --name names every sample, and is needed for recordings.
        The library is created if it does not exist and rewritten atomically,
        only when every file could be read.

        A library of your own replaces the bundled 16 shapes of the $1 study
        wherever it is used (--library, or templates: in the configuration);
        --from-defaults starts a new library from those shapes (or adds to an
        existing one those it lacks), so the shapes you train come on top.

        With --device, the samples are drawn live instead, with a prompt and progress
        for each: on a touchscreen with one finger, on a touchpad with the
        configuration's engine.touchpadStrokeFingers (the configuration file is the
        daemon's, --config or the default one when it exists), in millimetres as
        the gesture engine sees them; or with a mouse, the button held as in
        'gestures strokes' (D may be 'any' for every mouse). Ctrl-C keeps the
        samples drawn so far (and exits with status 1).
        """

    static let library = Option(
        "--library", valueName: "LIB.json", .file,
        help: "The template library to add to (created if missing)."
    ).required()
    static let gestureName = Option("--name", valueName: "NAME", .text, help: "The gesture name for every sample.")
    static let fromDefaults = Flag(
        "--from-defaults",
        help: "Start a new library from the bundled 16 shapes (an existing one gets those it lacks).")
    static let device = Option(
        "--device", valueName: "D", .text,
        help: "Draw the samples live on D: a touchpad, touchscreen or mouse (node, eventN, part of its name; 'any' mouse).")
    static let samples = Option(
        "--samples", valueName: "N", .integer(in: 1...), default: 5, help: "With --device: how many samples to draw."
    ).requiring("--device")
    static let button = MouseButton.option(help: "With --device on a mouse: the button that draws.").requiring("--device")

    static var options: [OptionSpec] {
        [
            library.spec, gestureName.spec, fromDefaults.spec, device.spec, samples.spec, button.spec,
            InputDevices.directoryOption.spec, RecordingFile.descOption.spec,
        ] + ConfigurationOptions.options
    }
    static let arguments = [ArgumentSpec("FILE", count: .any, kind: .file, help: "A $1 XML log, a JSON stroke file or a touch recording.")]

    /// Where the samples come from and where they go.
    struct Options {
        /// Stroke files, or samples drawn live.
        enum Source {
            /// Stroke files and recordings, their samples named `name` or by the file.
            case files([String], name: String?, description: String?)
            /// `samples` strokes named `name` drawn on `device`.
            case device(String, name: String, samples: Int, button: MouseButton, directory: String)
        }

        var libraryPath: String
        var source: Source
        var fromDefaults: Bool
        var configuration: ConfigurationOptions
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        let source: Options.Source
        if let device = arguments[device] {
            guard arguments.positionals.isEmpty else { throw UsageError("give either stroke files or --device, not both") }
            guard let name = arguments[gestureName] else { throw UsageError("--device needs --name NAME") }
            source = .device(
                device, name: name, samples: arguments[samples], button: arguments[button],
                directory: arguments[InputDevices.directoryOption])
        } else {
            guard !arguments.positionals.isEmpty else { throw UsageError("no stroke files given") }
            source = .files(arguments.positionals, name: arguments[gestureName], description: arguments[RecordingFile.descOption])
        }
        return Options(
            libraryPath: arguments[library], source: source, fromDefaults: arguments[fromDefaults],
            configuration: try ConfigurationOptions(arguments))
    }

    static func run(_ options: Options) throws -> Int32 {
        let path = options.libraryPath
        try OutputFile.check(path)
        let start = try startingLibrary(path, fromDefaults: options.fromDefaults)
        switch options.source {
        case .files(let files, let name, let description):
            return try trainFromFiles(
                files, library: path, start: start, name: name, description: description,
                configuration: options.configuration)
        case .device(let device, let name, let samples, let button, let directory):
            let collector = SampleCollector(name: name, samples: samples, path: path, start: start)
            if device != "any" {
                let chosen = try InputDevices.choose(device, in: directory)
                if chosen.description.kind == .touchpad || chosen.description.kind == .touchscreen {
                    return try trainTouch(collector, device: chosen, configuration: options.configuration)
                }
            }
            return try trainMouse(collector, device: device == "any" ? nil : device, button: button, directory: directory)
        }
    }

    /// The library to add to: the file's, else an empty one (the bundled
    /// shapes with `fromDefaults`); with `fromDefaults`, an existing library
    /// gets the bundled shapes it lacks.
    static func startingLibrary(_ path: String, fromDefaults: Bool) throws -> (library: TemplateLibrary, note: String?) {
        let defaults = TemplateLibrary.dollarShapes
        var library = try TemplateLibraryFile.load(path, whenMissing: TemplateLibrary(), options: options)
        guard fromDefaults else { return (library, nil) }
        let missing = defaults.names.filter { !library.names.contains($0) }
        for name in missing {
            for sample in defaults.samples(named: name) { try? library.add(name: name, points: sample) }
        }
        return (library, missing.isEmpty ? nil : "with \(counted(missing.count, "bundled shape")) from the defaults")
    }

    /// The largest number of files trained from without a progress line.
    static let quietFileCount = 10

    /// Adds every stroke of `files` (stroke files and recordings), named
    /// `name` or by the file; saves only when every file was read.
    static func trainFromFiles(
        _ files: [String], library path: String, start: (library: TemplateLibrary, note: String?),
        name: String?, description: String?, configuration: ConfigurationOptions
    ) throws -> Int32 {
        var library = start.library
        try RecordingFile.checkDescription(description)
        // The daemon's engine section: how recordings are drawn, and the stroke rule new samples are checked by.
        let settings = try configuration.load(options: options)
        let engine = settings?.engine ?? GestureEngine.Configuration()
        var sources: [Int: String] = [:]
        let progress = files.count > quietFileCount ? Progress("gestures train", total: files.count, unit: "files") : nil
        defer { progress?.finish() }
        var added = 0
        for file in files {
            try FileArgument.check(file, as: .samples, options: options)
            let strokes: [StrokeFile]
            if case .recording = FileKind.of(file) {
                guard let name else {
                    throw CommandFailure("\(file) is a recording, which does not name its gesture; give --name NAME")
                }
                let trace = try RecordingFile.load(file, description: description, as: .samples, options: options)
                strokes = try RecordedStrokes.strokes(in: trace, file: file, configuration: engine, mouse: settings?.mouse).map {
                    StrokeFile(name: name, points: $0)
                }
            } else {
                strokes = try StrokeFile.load(contentsOf: URL(fileURLWithPath: file))
            }
            for stroke in strokes {
                guard let name = name ?? stroke.name else {
                    throw CommandFailure("\(file) does not name its gesture; give --name NAME")
                }
                do { try library.add(name: name, points: stroke.points) } catch {
                    throw CommandFailure("\(file): \(error.description)")
                }
                sources[library.templates.count - 1] = file
                added += 1
            }
            progress?.advance()
        }
        progress?.finish()
        for index in sources.keys.sorted() {
            if let warning = sampleWarning(index, in: library, by: engine) {
                printError("gestures train: warning: \(sources[index]!): \(warning).")
            }
        }
        try TemplateLibraryFile.save(library, to: path)
        let note = start.note.map { ", \($0)" } ?? ""
        print(
            "added \(counted(added, "sample")) to \(path)\(note) (\(library.summary))"
        )
        return 0
    }

    /// Why the sample at `index` of `library` will not work as the daemon
    /// judges strokes by `engine`'s stroke rule, or nil: a shape the rule
    /// rejects before any template (a drag along one line; lengths are left
    /// out, since a stroke file does not say its unit), or one within the
    /// margin of another name's templates (`StrokeRule.ambiguities`).
    static func sampleWarning(_ index: Int, in library: TemplateLibrary, by engine: GestureEngine.Configuration) -> String? {
        let template = library.templates[index]
        var shape = engine.strokeRule
        shape.minimumLength = 0
        if let rejection = shape.capture(template.points) {
            return "sample \(index + 1) of \(template.name) will never fire: \(rejection)"
        }
        guard let ambiguity = engine.strokeRule.ambiguities(of: [index], in: library, configuration: engine.strokeRecognition).first else {
            return nil
        }
        return "\(ambiguity); it makes both ambiguous (train them apart, or remove one with 'gestures templates LIB --remove NAME')"
    }

    /// `train --device` with a mouse: prompts for and records strokes drawn with `button` held.
    static func trainMouse(_ collector: SampleCollector, device: String?, button: MouseButton, directory: String) throws -> Int32 {
        // No templates: a sample is judged by the capture alone (as on touch surfaces).
        let live = try LiveStrokes(
            mice: device, directory: directory,
            settings: MouseStrokeEngine.Settings(strokes: StrokeButtonFilter.Settings(button: button.code)),
            templates: TemplateLibrary(), commandName: self.name)
        try collector.start(drawing: "with the \(button.rawValue) button held")
        return try collect(from: live, into: collector)
    }

    /// `train --device` on a touchpad or touchscreen: strokes drawn with the
    /// engine's stroke finger count (one on touchscreens by default;
    /// `touchpadStrokeFingers` from the configuration on touchpads), in millimetres.
    static func trainTouch(_ collector: SampleCollector, device: EvdevDevice, configuration file: ConfigurationOptions) throws -> Int32 {
        let configuration = try file.load(options: options)?.engine ?? GestureEngine.Configuration()
        let fingers = try LiveStrokes.strokeFingers(device.description, configuration)
        let live = try LiveStrokes(touch: device.path, configuration: configuration, commandName: self.name)
        collector.judge(by: configuration)
        try collector.start(drawing: "with \(counted(fingers, "finger")) on \(device.path) (\(device.description.name))")
        return try collect(from: live, into: collector)
    }

    /// Takes the strokes `live` gives as samples until `collector` has
    /// enough; one the stroke rule's capture refuses is drawn again.
    static func collect(from live: LiveStrokes, into collector: SampleCollector) throws -> Int32 {
        let status = try live.run { event in
            switch event {
            case .cancelled(let why): collector.retry("cancelled (\(why))")
            case .refused(let rejection): collector.retry("not taken: \(rejection)")
            case .stroke(let points, _): collector.take(points)
            }
            return collector.wantsMore
        }
        return try collector.finish(status: status)
    }
}
