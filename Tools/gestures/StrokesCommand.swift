import EvdevInput
import Foundation
import GestureRecognition
import TouchInput

/// `gestures strokes`: mouse gestures. While a button is held (the right one by
/// default), pointer motion draws a stroke; on release it is recognised.
enum StrokesCommand: Subcommand {
    static let name = "strokes"
    static let abstract = "Recognise shapes drawn with a mouse while a button is held (mouse gestures)."
    static let usage = "[--device D] [--button right|middle|left] [--library LIB.json] [--count N] [--format text|json]"
    static let discussion = """
        Reads the chosen mouse (by default every mouse, including ones plugged in later) until Ctrl-C.
        Each stroke drawn with the button held prints one line: the template and score, or 'no match'.
        A press that barely moves is a click and prints nothing. A stroke interrupted by lost events or
        by the device going away prints 'cancelled'; the program keeps running. A stroke is reported
        100 ms after the release, because unplugging a mouse also releases its buttons.
        """
    static let options: [OptionSpec] = [
        .option("--device", "D", "The mouse to read (node, eventN, or part of its name); default: all mice."),
        .option("--button", "NAME", "The button that draws: right (default), middle or left."),
        .option("--library", "LIB.json", "The templates (default: the bundled 16 shapes of the $1 study)."),
        .option("--count", "N", "Stop after N strokes."),
        .option("--format", "text|json", "Output format (default text)."),
        .option("--dir", "DIR", "The directory of event nodes (default /dev/input)."),
    ]

    static let buttons: [String: UInt16] = ["right": BTN.RIGHT, "middle": BTN.MIDDLE, "left": BTN.LEFT]

    static func run(_ arguments: Arguments) throws -> Int32 {
        let button = try arguments.value("--button", default: BTN.RIGHT, "right, middle or left") { buttons[$0] }
        let count = try arguments.value("--count", default: Int.max, "a positive number") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        let json = try arguments.value("--format", default: false, "text or json") { $0 == "json" ? true : $0 == "text" ? false : nil }
        let recognizer = UnistrokeRecognizer(library: try loadLibrary(arguments.value("--library") ?? "default"))
        let directory = arguments.value("--dir") ?? InputDevices.defaultDirectory

        let live = try MouseStrokeSession(device: arguments.value("--device"), directory: directory, button: button, commandName: name)
        var strokes = 0
        func emit(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        return try live.run { event in
            switch event {
            case .cancelled(let why):
                emit(json ? "{\"cancelled\":true,\"reason\":\(JSONText.quoted(why))}" : "cancelled (\(why))")
            case .stroke(let points):
                strokes += 1
                switch recognizer.recognize(points) {
                case .match(let match):
                    emit(json ? "{\"template\":\(JSONText.quoted(match.name)),\"score\":\(rounded(match.score)),\"points\":\(points.count)}"
                              : "\(match.name) (score \(rounded(match.score)))")
                case .noMatch(let best):
                    emit(json ? "{\"template\":null\(best.map { ",\"best\":\(JSONText.quoted($0.name)),\"score\":\(rounded($0.score))" } ?? ""),\"points\":\(points.count)}"
                              : "no match\(best.map { " (best \($0.name), score \(rounded($0.score)))" } ?? "")")
                case .degenerate(let reason):
                    emit(json ? "{\"template\":null,\"error\":\(JSONText.quoted(reason.description))}" : "not recognised: \(reason)")
                }
            }
            return strokes < count
        }
    }
}
