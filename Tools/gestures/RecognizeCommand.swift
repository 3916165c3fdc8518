import CommandLineKit
import Foundation
import GestureRecognition
import GestureTraces

/// `gestures recognize`: recognises the strokes of files against a template library.
enum RecognizeCommand: Command {
    static let name = "recognize"
    static let abstract = "Recognise drawn strokes against a template library."

    static let threshold = Option("--threshold", valueName: "SCORE", .number(in: 0...1), default: 0.75,
                                  help: "Scores below this (0...1) are 'no match'.")
    static let format = OutputFormat.option(default: .text)

    static let options = [TemplateLibraryFile.option.spec, RecognizerOptions.matcher.spec, RecognizerOptions.orientation.spec,
                          threshold.spec, format.spec]
    static let arguments = [ArgumentSpec("FILE", count: .oneOrMore, kind: .file, help: "A $1 XML log or a JSON stroke file.",
                                         missing: "no stroke files given")]

    /// The files, the recognizer and the output.
    struct Options {
        var files: [String]
        var libraryPath: String?
        var configuration: UnistrokeRecognizer.Configuration
        var format: OutputFormat
    }

    static func parse(_ arguments: ParsedArguments) -> Options {
        Options(files: arguments.positionals, libraryPath: arguments[TemplateLibraryFile.option],
                configuration: UnistrokeRecognizer.Configuration(matcher: arguments[RecognizerOptions.matcher],
                                                                 orientation: arguments[RecognizerOptions.orientation],
                                                                 rejectionThreshold: arguments[threshold]),
                format: arguments[format])
    }

    static func run(_ options: Options) throws -> Int32 {
        let library = try TemplateLibraryFile.load(options.libraryPath ?? "default", options: Self.options)
        let recognizer = UnistrokeRecognizer(library: library, configuration: options.configuration)
        let json = options.format == .json
        for file in options.files {
            try InputFile.check(file, as: .strokes, options: Self.options)
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
