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
    static let abstract = "Add stroke samples to a template library: from files (XML logs, JSON strokes) or drawn live (--device)."
    static var usage: String {
        usageText(options: [library.spec, gestureName.spec], arguments: [ArgumentSpec("FILE", count: .oneOrMore)])
            + "\n--library LIB.json --name NAME --device D "
            + usageText(options: [samples.spec, button.spec, InputDevices.directoryOption.spec] + ConfigurationOptions.options)
    }
    static let discussion = """
    Each FILE adds its strokes as samples. Without --name, the name comes from
    the file (an XML log's gesture name, a JSON stroke's "name"). The library is
    created if it does not exist and rewritten atomically.
    With --device, the samples are drawn live instead, with a prompt and progress
    for each: on a touchscreen with one finger, on a touchpad with the
    configuration's engine.touchpadStrokeFingers (the configuration file is the
    daemon's, --config or the default one when it exists; strokes are off on
    touchpads by default), in millimetres as the gesture engine sees them; or
    with a mouse, the button held as in 'gestures strokes' (D may be 'any' for
    every mouse). Ctrl-C keeps the samples drawn so far (and exits with status 1).
    """

    static let library = Option("--library", valueName: "LIB.json", .file,
                                help: "The template library to add to (created if missing).").required()
    static let gestureName = Option("--name", valueName: "NAME", .text, help: "The gesture name for every sample.")
    static let device = Option("--device", valueName: "D", .text,
                               help: "Draw the samples live on D: a touchpad, touchscreen or mouse (node, eventN, part of its name; 'any' mouse).")
    static let samples = Option("--samples", valueName: "N", .integer(in: 1...), default: 5, help: "With --device: how many samples to draw.")
    static let button = MouseButton.option(help: "With --device on a mouse: the button that draws.")

    static var options: [OptionSpec] {
        [library.spec, gestureName.spec, device.spec, samples.spec, button.spec, InputDevices.directoryOption.spec] + ConfigurationOptions.options
    }
    static let arguments = [ArgumentSpec("FILE", count: .any, kind: .file, help: "A $1 XML log or a JSON stroke file.")]

    /// Where the samples come from and where they go.
    struct Options {
        /// Stroke files, or samples drawn live.
        enum Source {
            /// Stroke files, their samples named `name` or by the file.
            case files([String], name: String?)
            /// `samples` strokes named `name` drawn on `device`.
            case device(String, name: String, samples: Int, button: MouseButton, directory: String, configuration: ConfigurationOptions)
        }

        var libraryPath: String
        var source: Source
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        let source: Options.Source
        if let device = arguments[device] {
            guard arguments.positionals.isEmpty else { throw UsageError("give either stroke files or --device, not both") }
            guard let name = arguments[gestureName] else { throw UsageError("--device needs --name NAME") }
            source = .device(device, name: name, samples: arguments[samples], button: arguments[button],
                             directory: arguments[InputDevices.directoryOption], configuration: try ConfigurationOptions(arguments))
        } else {
            guard !arguments.positionals.isEmpty else { throw UsageError("no stroke files given") }
            source = .files(arguments.positionals, name: arguments[gestureName])
        }
        return Options(libraryPath: arguments[library], source: source)
    }

    static func run(_ options: Options) throws -> Int32 {
        let path = options.libraryPath
        switch options.source {
        case .files(let files, let name):
            return try trainFromFiles(files, library: path, name: name)
        case .device(let device, let name, let samples, let button, let directory, let configuration):
            if device != "any" {
                let chosen = try InputDevices.choose(device, in: directory)
                if chosen.description.kind == .touchpad || chosen.description.kind == .touchscreen {
                    return try trainTouch(library: path, device: chosen, name: name, samples: samples, configuration: configuration)
                }
            }
            return try trainMouse(library: path, device: device == "any" ? nil : device, name: name, samples: samples,
                                  button: button, directory: directory)
        }
    }

    /// Adds every stroke of `files`, named `name` or by the file.
    static func trainFromFiles(_ files: [String], library path: String, name: String?) throws -> Int32 {
        var library = try TemplateLibraryFile.load(path, createIfMissing: true)
        var added = 0
        for file in files {
            for stroke in try StrokeFile.load(contentsOf: URL(fileURLWithPath: file)) {
                guard let name = name ?? stroke.name else {
                    throw CommandFailure("\(file) does not name its gesture; give --name NAME")
                }
                do { try library.add(name: name, points: stroke.points) } catch {
                    throw CommandFailure("\(file): \(error.description)")
                }
                added += 1
            }
        }
        try TemplateLibraryFile.save(library, to: path)
        print("added \(added) sample\(added == 1 ? "" : "s") to \(path) (\(library.templates.count) templates, \(library.names.count) gestures)")
        return 0
    }

    /// `train --device` with a mouse: prompts for and records strokes drawn with `button` held.
    static func trainMouse(library path: String, device: String?, name: String, samples: Int,
                           button: MouseButton, directory: String) throws -> Int32 {
        let collector = SampleCollector(name: name, samples: samples, path: path)
        let live = try MouseStrokeSession(device: device, directory: directory, button: button.code, commandName: self.name)
        try collector.start(drawing: "with the \(button.rawValue) button held")
        let status = try live.run { event in
            switch event {
            case .cancelled(let why): collector.retry("cancelled (\(why))")
            case .stroke(let points): collector.take(points)
            }
            return collector.wantsMore
        }
        return try collector.finish(status: status)
    }

    /// `train --device` on a touchpad or touchscreen: strokes drawn with the
    /// engine's stroke finger count (one on touchscreens by default;
    /// `touchpadStrokeFingers` from the configuration on touchpads), in millimetres.
    static func trainTouch(library path: String, device: EvdevDevice, name: String, samples: Int,
                           configuration file: ConfigurationOptions) throws -> Int32 {
        let configuration = try file.load()?.engine ?? GestureEngine.Configuration()
        let fingers = try LiveTouchStrokes.strokeFingers(device.description, configuration)
        let collector = SampleCollector(name: name, samples: samples, path: path)
        let live = try LiveTouchStrokes(device: device, fingers: fingers,
                                        minimumLengthMillimeters: configuration.strokeMinimumLengthMillimeters)
        try collector.start(drawing: "with \(fingers) finger\(fingers == 1 ? "" : "s") on \(device.path) (\(device.description.name))")
        let status = try live.run { event in
            switch event {
            case .cancelled: collector.retry("cancelled (the finger count changed or events were lost)")
            case .tooShort: collector.retry("too short for a stroke (under \(rounded(configuration.strokeMinimumLengthMillimeters)) mm)")
            case .ended(let points): collector.take(points)
            }
            return collector.wantsMore
        }
        return try collector.finish(status: status)
    }
}
