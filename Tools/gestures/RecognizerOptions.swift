import CommandLineKit
import GestureRecognition

/// The options that configure the stroke recognizer, shared by `recognize` and `eval`.
enum RecognizerOptions {
    /// `--recognizer elastic|dollar1|protractor`.
    static let matcher = Option(
        "--recognizer", .choice(UnistrokeRecognizer.Matcher.self), default: .elastic,
        help: "The matcher.")

    /// `--orientation invariant|sensitive[:DEGREES]`.
    static let orientation = Option(
        "--orientation", valueName: "MODE", orientationParser, default: .invariant,
        help: "invariant, or sensitive (within 30°) or sensitive:DEGREES.")

    /// Reads `invariant`, `sensitive` or `sensitive:DEGREES` (0...180).
    static let orientationParser = ValueParser<UnistrokeRecognizer.Orientation>.custom(
        expecting: "invariant, sensitive or sensitive:DEGREES", kind: .choice(["invariant", "sensitive"]),
        format: { orientation in
            switch orientation {
            case .invariant: "invariant"
            case .sensitive(let degrees): degrees == 30 ? "sensitive" : "sensitive:\(degrees)"
            }
        }
    ) { text in
        if text == "invariant" { return .invariant }
        if text == "sensitive" { return .sensitive }
        if text.hasPrefix("sensitive:"), let degrees = Double(text.dropFirst("sensitive:".count)), degrees >= 0, degrees <= 180 {
            return .sensitive(toleranceDegrees: degrees)
        }
        return nil
    }
}
