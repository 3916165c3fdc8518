import CommandLineKit
import Foundation
import GestureRecognition
import GestureTraces

/// What `gestures render` draws, told from the file's content by the
/// readers every command uses (``FileKind``, then the trace or template
/// library reader): a recording (JSON trace, `libinput record` YAML, evemu)
/// or a template library (or `default`, the bundled one). Any other file
/// gets the sentence ``FileArgument`` gives, naming what it looks like and
/// the command that takes it.
enum RenderInput {
    /// A recording, to draw as a ``TracePicture``.
    case recording(Trace)
    /// A template library, to draw as a ``TemplateGallery``.
    case templates(TemplateLibrary)

    /// Reads `path` as a recording or a template library; `options`, the
    /// command's table, for the hints.
    static func load(_ path: String, options: [OptionSpec]) throws -> RenderInput {
        if path == "default" { return .templates(.dollarShapes) }
        let kind = FileKind.of(path)
        if let problem = FileArgument.problem(path, kind: kind, as: .picture, options: options) { throw CommandFailure(problem) }
        if kind == .templateLibrary { return .templates(try TemplateLibraryFile.load(path, options: options)) }
        return .recording(try RecordingFile.load(path, as: .picture, options: options))
    }
}
