import CommandLineKit
import EvdevInput
import Foundation
import GestureRecognition
import InputChecks
import TouchInput

/// `gestures strokes`: mouse gestures. While a button is held (the right one by
/// default), pointer motion draws a stroke; on release it is recognised.
enum StrokesCommand: Command {
    static let name = "strokes"
    static let abstract = "Recognise shapes drawn with a mouse while a button is held (mouse gestures)."
    static let discussion = """
        Reads the chosen mouse (by default every mouse, including ones plugged in later) until Ctrl-C.
        Each stroke drawn with the button held prints one line: the template and score, or 'no match'.
        A press that barely moves is a click and prints nothing. A stroke interrupted by lost events or
        by the device going away prints 'cancelled'; the program keeps running. A stroke is reported
        100 ms after the release, because unplugging a mouse also releases its buttons.
        """

    static let device = Option(
        "--device", valueName: "D", .text, help: "The mouse to read (node, eventN, or part of its name); default: all mice.")
    static let button = MouseButton.option(help: "The button that draws.")
    static let count = Option("--count", valueName: "N", .integer(in: 1...), help: "Stop after N strokes.")
    static let format = OutputFormat.option(default: .text)

    static let options = [
        device.spec, button.spec, TemplateLibraryFile.option.spec, count.spec, format.spec, InputDevices.directoryOption.spec,
    ]

    /// The mouse, the button, the templates and the output.
    struct Options {
        var device: String?
        var button: MouseButton
        var libraryPath: String?
        var count: Int?
        var format: OutputFormat
        var directory: String
    }

    static func parse(_ arguments: ParsedArguments) -> Options {
        Options(
            device: arguments[device], button: arguments[button], libraryPath: arguments[TemplateLibraryFile.option],
            count: arguments[count], format: arguments[format], directory: arguments[InputDevices.directoryOption])
    }

    static func run(_ options: Options) throws -> Int32 {
        let json = options.format == .json
        let count = options.count ?? .max
        let recognizer = UnistrokeRecognizer(library: try TemplateLibraryFile.load(options.libraryPath ?? "default", options: Self.options))
        let live = try LiveStrokes(
            mice: options.device, directory: options.directory, button: options.button.code, commandName: name)
        var strokes = 0
        func emit(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        return try live.run { event in
            switch event {
            case .cancelled(let why):
                emit(json ? "{\"cancelled\":true,\"reason\":\(JSONText.quoted(why))}" : "cancelled (\(why))")
            case .refused(let rejection):
                // The stroke rule's capture: the daemon could never fire it, whatever the templates.
                strokes += 1
                emit(
                    json
                        ? "{\"template\":null,\"rule\":\(JSONText.quoted(rejection.rule.rawValue)),\"reason\":\(JSONText.quoted(rejection.description))}"
                        : "not a stroke the daemon fires: \(rejection)")
            case .stroke(let points):
                strokes += 1
                switch recognizer.recognize(points) {
                case .match(let match):
                    emit(
                        json
                            ? "{\"template\":\(JSONText.quoted(match.name)),\"score\":\(rounded(match.score)),\"points\":\(points.count)}"
                            : "\(match.name) (score \(rounded(match.score)))")
                case .noMatch(let best):
                    emit(
                        json
                            ? "{\"template\":null\(best.map { ",\"best\":\(JSONText.quoted($0.name)),\"score\":\(rounded($0.score))" } ?? ""),\"points\":\(points.count)}"
                            : "no match\(best.map { " (best \($0.name), score \(rounded($0.score)))" } ?? "")")
                case .degenerate(let reason):
                    emit(json ? "{\"template\":null,\"error\":\(JSONText.quoted(reason.description))}" : "not recognised: \(reason)")
                }
            }
            return strokes < count
        }
    }
}
