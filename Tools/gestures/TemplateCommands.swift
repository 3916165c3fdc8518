import EvdevInput
import Foundation
import GestureRecognition
import TouchInput
import GestureTraces

/// Reads a template library, or an empty one when `createIfMissing` and the file is absent.
func loadLibrary(_ path: String, createIfMissing: Bool = false) throws -> TemplateLibrary {
    if path == "default" { return .dollarShapes }
    let url = URL(fileURLWithPath: path)
    if createIfMissing && !FileManager.default.fileExists(atPath: url.path) { return TemplateLibrary() }
    let data: Data
    do { data = try InputFile.read(url, maximumBytes: TemplateLibrary.Limits.standard.maximumBytes) } catch {
        throw CommandFailure("template library \(error.description)")
    }
    do { return try TemplateLibrary(jsonData: data) } catch {
        throw CommandFailure("\(path): \(error.description)")
    }
}

/// Writes `library` atomically, so an interrupted write never loses the old file.
func saveLibrary(_ library: TemplateLibrary, to path: String) throws {
    do { try library.jsonData().write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
        throw CommandFailure("cannot write template library \(path): \((error as NSError).localizedDescription)")
    }
}

struct TrainCommand: Subcommand {
    static let name = "train"
    static let abstract = "Add stroke samples to a template library: from files (XML logs, JSON strokes) or drawn live (--device)."
    static let usage = "--library LIB.json [--name NAME] FILE...\n       gestures train --library LIB.json --name NAME --device D [--samples N] [--button right|middle|left] [--config CONFIG.json]"
    static let discussion = """
    Each FILE adds its strokes as samples. Without --name, the name comes from
    the file (an XML log's gesture name, a JSON stroke's "name"). The library is
    created if it does not exist and rewritten atomically.
    With --device, the samples are drawn live instead, with a prompt and progress
    for each: on a touchscreen with one finger, on a touchpad with the
    configuration's touchpadStrokeFingers (--config; strokes are off on touchpads
    by default), in millimetres as the gesture engine sees them; or with a mouse,
    the button held as in 'gestures strokes' (D may be 'any' for every mouse).
    Ctrl-C keeps the samples drawn so far (and exits with status 1).
    """
    static let options: [OptionSpec] = [
        .option("--library", "LIB.json", "The template library to add to (created if missing)."),
        .option("--name", "NAME", "The gesture name for every sample."),
        .option("--device", "D", "Draw the samples live on D: a touchpad, touchscreen or mouse (node, eventN, part of its name; 'any' mouse)."),
        .option("--samples", "N", "With --device: how many samples to draw (default 5)."),
        .option("--button", "NAME", "With --device: the button that draws: right (default), middle or left."),
        .option("--dir", "DIR", "With --device: the directory of event nodes (default /dev/input)."),
        .option("--config", "CONFIG.json", "With --device on a touch device: engine configuration (stroke fingers, minimum length)."),
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        guard let path = arguments.value("--library") else { throw UsageError("missing --library LIB.json") }
        if let device = arguments.value("--device") { return try trainLive(arguments, library: path, device: device) }
        guard !arguments.positionals.isEmpty else { throw UsageError("no stroke files given") }
        var library = try loadLibrary(path, createIfMissing: true)
        var added = 0
        for file in arguments.positionals {
            for stroke in try StrokeFile.load(contentsOf: URL(fileURLWithPath: file)) {
                guard let name = arguments.value("--name") ?? stroke.name else {
                    throw CommandFailure("\(file) does not name its gesture; give --name NAME")
                }
                do { try library.add(name: name, points: stroke.points) } catch {
                    throw CommandFailure("\(file): \(error.description)")
                }
                added += 1
            }
        }
        try saveLibrary(library, to: path)
        print("added \(added) sample\(added == 1 ? "" : "s") to \(path) (\(library.templates.count) templates, \(library.names.count) gestures)")
        return 0
    }

    /// `train --device`: prompts for and records N strokes drawn on a touch device or with a mouse.
    static func trainLive(_ arguments: Arguments, library path: String, device: String) throws -> Int32 {
        guard arguments.positionals.isEmpty else { throw UsageError("give either stroke files or --device, not both") }
        guard let name = arguments.value("--name") else { throw UsageError("--device needs --name NAME") }
        let samples = try arguments.value("--samples", default: 5, "a positive number") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        let directory = arguments.value("--dir") ?? InputDevices.defaultDirectory
        if device != "any" {
            let chosen = try InputDevices.choose(device, in: directory)
            if chosen.description.kind == .touchpad || chosen.description.kind == .touchscreen {
                return try trainTouch(arguments, library: path, device: chosen, name: name, samples: samples)
            }
        }
        let button = try arguments.value("--button", default: BTN.RIGHT, "right, middle or left") { StrokesCommand.buttons[$0] }
        let collector = SampleCollector(name: name, samples: samples, path: path)
        let live = try MouseStrokeSession(device: device == "any" ? nil : device,
                                        directory: arguments.value("--dir") ?? InputDevices.defaultDirectory,
                                        button: button, commandName: self.name)
        let buttonName = StrokesCommand.buttons.first { $0.value == button }!.key
        try collector.start(drawing: "with the \(buttonName) button held")
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
    /// `touchpadStrokeFingers` from --config on touchpads), in millimetres.
    static func trainTouch(_ arguments: Arguments, library path: String, device: EvdevDevice, name: String, samples: Int) throws -> Int32 {
        let configuration = try engineConfiguration(arguments)
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

/// Prompts for `samples` strokes of gesture `name` drawn live, adds each to
/// the library at `path`, and saves it at the end if any was added.
final class SampleCollector {
    let name: String
    let samples: Int
    let path: String
    private var library = TemplateLibrary()
    private var how = ""
    private(set) var added = 0

    init(name: String, samples: Int, path: String) {
        self.name = name
        self.samples = samples
        self.path = path
    }

    var wantsMore: Bool { added < samples }

    /// Loads the library and prompts for the first sample, drawn `how`.
    func start(drawing how: String) throws {
        library = try loadLibrary(path, createIfMissing: true)
        self.how = how
        prompt()
    }

    private func prompt() { printError("Draw '\(name)' \(how) (\(added + 1) of \(samples))...") }

    /// The stroke did not count, for `reason`.
    func retry(_ reason: String) { printError("  \(reason); draw it again.") }

    /// Adds a drawn stroke and prompts for the next.
    func take(_ points: [Point]) {
        do {
            try library.add(name: name, points: points)
            added += 1
            printError("  sample \(added) of \(samples) added (\(points.count) points).")
        } catch {
            retry("not a usable stroke (\(error))")
        }
        if wantsMore { prompt() }
    }

    /// Saves what was added and says so; the exit status.
    func finish(status: Int32) throws -> Int32 {
        if added > 0 { try saveLibrary(library, to: path) }
        print("added \(added) sample\(added == 1 ? "" : "s") of '\(name)' to \(path) (\(library.templates.count) templates, \(library.names.count) gestures)")
        return added == samples ? status : 1
    }
}

struct TemplatesCommand: Subcommand {
    static let name = "templates"
    static let abstract = "List the gestures of a template library, or edit it."
    static let usage = "LIB.json [--remove NAME] [--rename OLD=NEW] [--format text|json]"
    static let discussion = "LIB.json may be 'default' for the bundled library of the 16 shapes of the $1 study."
    static let options: [OptionSpec] = [
        .option("--remove", "NAME", "Remove every sample of gesture NAME.", repeatable: true),
        .option("--rename", "OLD=NEW", "Rename gesture OLD to NEW.", repeatable: true),
        .option("--export", "PATH", "Write the library (after edits) to PATH."),
        .option("--format", "text|json", "Output format of the listing (default text)."),
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.count == 1, let path = arguments.positionals.first else {
            throw UsageError("give exactly one library")
        }
        var library = try loadLibrary(path)
        var edited = false
        for name in arguments.all("--remove") {
            if library.remove(name: name) == 0 { throw CommandFailure("\(path) has no gesture named '\(name)'") }
            edited = true
        }
        for pair in arguments.all("--rename") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw UsageError("--rename expects OLD=NEW, got '\(pair)'") }
            let renamed: Int
            do { renamed = try library.rename(parts[0], to: parts[1]) } catch { throw CommandFailure(error.description) }
            if renamed == 0 { throw CommandFailure("\(path) has no gesture named '\(parts[0])'") }
            edited = true
        }
        if let export = arguments.value("--export") {
            try saveLibrary(library, to: export)
        } else if edited {
            guard path != "default" else { throw UsageError("the default library cannot be edited; add --export PATH") }
            try saveLibrary(library, to: path)
        }
        let format = arguments.value("--format") ?? "text"
        switch format {
        case "json":
            let rows = library.names.map { name in
                "{\"name\":\(JSONText.quoted(name)),\"samples\":\(library.samples(named: name).count)}"
            }
            print("[\(rows.joined(separator: ","))]")
        case "text":
            let width = max(8, library.names.map(\.count).max() ?? 0)
            print("gesture".padding(toLength: width, withPad: " ", startingAt: 0) + "  samples")
            for name in library.names {
                let count = library.samples(named: name).count
                print(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(count)")
            }
            print("\(library.names.count) gestures, \(library.templates.count) samples")
        default:
            throw UsageError("--format expects text or json, got '\(format)'")
        }
        return 0
    }
}

/// Parses a matcher name for `--recognizer`.
func parseMatcher(_ arguments: Arguments) throws -> UnistrokeRecognizer.Matcher {
    try arguments.value("--recognizer", default: .elastic,
                        "one of \(UnistrokeRecognizer.Matcher.allCases.map(\.rawValue).joined(separator: ", "))") {
        UnistrokeRecognizer.Matcher(rawValue: $0)
    }
}

/// Parses `--orientation invariant|sensitive[:DEGREES]`.
func parseOrientation(_ arguments: Arguments, default defaultValue: UnistrokeRecognizer.Orientation) throws -> UnistrokeRecognizer.Orientation {
    try arguments.value("--orientation", default: defaultValue, "invariant, sensitive or sensitive:DEGREES") { text in
        if text == "invariant" { return .invariant }
        if text == "sensitive" { return .sensitive }
        if text.hasPrefix("sensitive:"), let degrees = Double(text.dropFirst("sensitive:".count)), degrees >= 0, degrees <= 180 {
            return .sensitive(toleranceDegrees: degrees)
        }
        return nil
    }
}

struct RecognizeCommand: Subcommand {
    static let name = "recognize"
    static let abstract = "Recognise drawn strokes against a template library."
    static let usage = "[--library LIB.json] FILE..."
    static let options: [OptionSpec] = [
        .option("--library", "LIB.json", "The templates (default: the bundled 16 shapes of the $1 study)."),
        .option("--recognizer", "NAME", "Matcher: elastic (default), dollar1 or protractor."),
        .option("--orientation", "MODE", "invariant (default) or sensitive[:DEGREES]."),
        .option("--threshold", "SCORE", "Scores below this (0...1) are 'no match' (default 0.75)."),
        .option("--format", "text|json", "Output format (default text)."),
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        guard !arguments.positionals.isEmpty else { throw UsageError("no stroke files given") }
        let library = try loadLibrary(arguments.value("--library") ?? "default")
        let configuration = UnistrokeRecognizer.Configuration(
            matcher: try parseMatcher(arguments),
            orientation: try parseOrientation(arguments, default: .invariant),
            rejectionThreshold: try arguments.value("--threshold", default: 0.75, "a number from 0 to 1") { Double($0).flatMap { (0...1).contains($0) ? $0 : nil } })
        let recognizer = UnistrokeRecognizer(library: library, configuration: configuration)
        let json = try arguments.value("--format", default: false, "text or json") { $0 == "json" ? true : $0 == "text" ? false : nil }
        for file in arguments.positionals {
            for stroke in try StrokeFile.load(contentsOf: URL(fileURLWithPath: file)) {
                let outcome = recognizer.recognize(stroke.points)
                switch outcome {
                case .match(let match):
                    print(json ? "{\"file\":\(JSONText.quoted(file)),\"template\":\(JSONText.quoted(match.name)),\"score\":\(rounded(match.score))}"
                               : "\(file): \(match.name) (score \(rounded(match.score)))")
                case .noMatch(let best):
                    let bestText = best.map { " (best \($0.name), score \(rounded($0.score)))" } ?? ""
                    print(json ? "{\"file\":\(JSONText.quoted(file)),\"template\":null\(best.map { ",\"best\":\(JSONText.quoted($0.name)),\"score\":\(rounded($0.score))" } ?? "")}"
                               : "\(file): no match\(bestText)")
                case .degenerate(let reason):
                    print(json ? "{\"file\":\(JSONText.quoted(file)),\"template\":null,\"error\":\(JSONText.quoted(reason.description))}"
                               : "\(file): not recognised: \(reason)")
                }
            }
        }
        return 0
    }
}

/// `value` rounded to 4 decimals, for output.
func rounded(_ value: Double) -> Double {
    (value * 10_000).rounded() / 10_000
}
