import CommandLineKit
import Foundation
import GestureRecognition
import GestureTraces

/// Template library files as the commands read and write them; `default`
/// names the bundled library of the 16 shapes of the $1 study.
enum TemplateLibraryFile {
    /// Reads a template library, after checking it is one (``FileArgument``;
    /// `options`, the command's table, for its hints), or `whenMissing`
    /// when that is given and the file is absent.
    static func load(_ path: String, whenMissing: TemplateLibrary? = nil, options: [OptionSpec] = []) throws -> TemplateLibrary {
        if path == "default" { return .dollarShapes }
        let url = URL(fileURLWithPath: path)
        if let whenMissing, !FileManager.default.fileExists(atPath: url.path) { return whenMissing }
        try FileArgument.check(path, as: .templateLibrary, options: options)
        let data: Data
        do { data = try InputFile.read(url, maximumBytes: TemplateLibrary.Limits.standard.maximumBytes) } catch {
            throw CommandFailure("template library \(error.description)")
        }
        do { return try TemplateLibrary(jsonData: data) } catch {
            throw CommandFailure("\(path): \(error.description)")
        }
    }

    /// Writes `library` through ``OutputFile`` (a file atomically, so an
    /// interrupted write never loses the old one; a link's file, the link kept).
    static func save(_ library: TemplateLibrary, to path: String) throws {
        try OutputFile.write(library.jsonData(), to: path)
    }

    /// `--library LIB.json` for the commands that recognise strokes against a library.
    static let option = Option(
        "--library", valueName: "LIB.json", .file(or: ["default"]),
        help: "The templates (default: the bundled 16 shapes of the $1 study).")
}
