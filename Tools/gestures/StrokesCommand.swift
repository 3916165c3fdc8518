import CommandLineKit
import DesktopDaemon
import EvdevInput
import Foundation
import GestureRecognition
import InputChecks
import TouchInput

/// `gestures strokes`: mouse gestures. While a button is held (the right one by
/// default), pointer motion draws a stroke; on release it is judged by the
/// mouse's own pipeline, with the daemon's `mouse` settings and templates, so
/// what it prints is what the daemon does (`StrokeRule`, as `recognize` and
/// `train` judge).
enum StrokesCommand: Command {
    static let name = "strokes"
    static let abstract = "Recognise shapes drawn with a mouse while a button is held (mouse gestures)."
    static let discussion = """
        Reads the chosen mouse (by default every mouse, including ones plugged in later) until Ctrl-C.
        Each stroke drawn with the button held prints one line: the template and score when the daemon
        would fire it, or 'no match' and why not (the stroke rule the daemon judges by: the threshold,
        the margin to another name). Strokes are judged as the configuration file's mouse section says
        (--config; its templates unless --library is given), or by the daemon's defaults. A press that
        barely moves is a click and prints nothing. A stroke interrupted by lost events or by the device
        going away prints 'cancelled'; the program keeps running. A stroke is reported 100 ms after the
        release, because unplugging a mouse also releases its buttons.
        """

    static let device = Option(
        "--device", valueName: "D", .text, help: "The mouse to read (node, eventN, or part of its name); default: all mice.")
    static let button = MouseButton.option(help: "The button that draws (default: the configuration's, else right).")
    static let count = Option("--count", valueName: "N", .integer(in: 1...), help: "Stop after N strokes.")
    static let format = OutputFormat.option(default: .text)

    static let options =
        [
            device.spec, button.spec, TemplateLibraryFile.option.spec, count.spec, format.spec, InputDevices.directoryOption.spec,
        ] + ConfigurationOptions.options

    /// The mouse, the button, the templates, the configuration and the output.
    struct Options {
        var device: String?
        /// Nil: the configuration's button.
        var button: MouseButton?
        var libraryPath: String?
        var count: Int?
        var format: OutputFormat
        var directory: String
        var settings: ConfigurationOptions
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        Options(
            device: arguments[device], button: arguments.isGiven(button.spec) ? arguments[button] : nil,
            libraryPath: arguments[TemplateLibraryFile.option], count: arguments[count], format: arguments[format],
            directory: arguments[InputDevices.directoryOption], settings: try ConfigurationOptions(arguments))
    }

    static func run(_ options: Options) throws -> Int32 {
        let file = try options.settings.load(options: Self.options)
        let library =
            try options.libraryPath.map { try TemplateLibraryFile.load($0, options: Self.options) } ?? file?.templates ?? .dollarShapes
        // The daemon's mouse pipeline for this configuration, read beside the desktop.
        var mouse = (file?.mouse ?? DaemonConfiguration.MouseSettings())
            .strokeSettings(withholdsButton: false, engine: file?.engine ?? GestureEngine.Configuration())
        if let button = options.button { mouse.strokes.button = button.code }
        let live = try LiveStrokes(
            mice: options.device, directory: options.directory, settings: mouse, templates: library, commandName: name)
        let count = options.count ?? .max
        var strokes = 0
        return try live.run { event in
            if case .cancelled = event {} else { strokes += 1 }
            FileHandle.standardOutput.write(Data((line(for: event, json: options.format == .json) + "\n").utf8))
            return strokes < count
        }
    }

    /// The line printed for `event`: the engine's verdict in words
    /// (`circle (score 0.95)`, `no match: too close to v: 0.1476 of the 0.2 margin`),
    /// or as one JSON object (`template` null when it fires nothing, with
    /// the `rule` and `reason`).
    static func line(for event: LiveStrokes.Event, json: Bool) -> String {
        switch event {
        case .cancelled(let why):
            return json ? "{\"cancelled\":true,\"reason\":\(JSONText.quoted(why))}" : "cancelled (\(why))"
        case .refused(let rejection):
            // The stroke rule's capture: the daemon could never fire it, whatever the templates.
            return json
                ? "{\"template\":null,\"rule\":\(JSONText.quoted(rejection.rule.rawValue)),\"reason\":\(JSONText.quoted(rejection.description))}"
                : "not a stroke the daemon fires: \(rejection)"
        case .stroke(let points, .accepted(let acceptance)):
            let match = acceptance.match
            return json
                ? "{\"template\":\(JSONText.quoted(match.name)),\"score\":\(rounded(match.score)),\"points\":\(points.count)}"
                : "\(match.name) (score \(rounded(match.score)))"
        case .stroke(let points, .rejected(let rejection)):
            guard json else { return "no match: \(rejection)" }
            let best = rejection.best.map { ",\"best\":\(JSONText.quoted($0.name)),\"score\":\(rounded($0.score))" } ?? ""
            return "{\"template\":null\(best),\"rule\":\(JSONText.quoted(rejection.rule.rawValue)),"
                + "\"reason\":\(JSONText.quoted(rejection.description)),\"points\":\(points.count)}"
        }
    }
}
