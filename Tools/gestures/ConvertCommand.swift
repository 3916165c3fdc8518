import CommandLineKit
import Foundation
import GestureTraces
import InputChecks

/// `gestures convert IN -o OUT`: between JSON traces, libinput record YAML and evemu.
enum ConvertCommand: Command {
    static let name = "convert"
    static let abstract = "Convert a recording between JSON trace, libinput record YAML and evemu."
    static let discussion = """
        The input format is detected from the content (evemu events without a
        device description take it from --desc, else from the .desc beside
        them with the longest matching name). The output format comes
        from --to, else from OUT's extension: .jsonl/.json -> json,
        .yml/.yaml -> libinput, .events/.evemu -> evemu. Conversions are
        lossless: every event keeps its time, so converted recordings replay
        with 'libinput replay' and 'evemu-play'. OUT '-' writes to standard output.
        """

    static let output = Option(
        "--output", valueName: "OUT", .file, help: "The file to write ('-' for standard output).",
        aliases: ["-o"]
    ).required()
    static let to = Option("--to", valueName: "FORMAT", .choice(TraceFormat.self), help: "Output format (default: from OUT's extension).")
    static let options = [output.spec, to.spec, RecordingFile.descOption.spec]
    static let arguments = [ArgumentSpec("IN", kind: .file, help: "A recording: JSON trace, libinput record YAML or evemu.")]

    /// What to convert, to what, and where.
    struct Options {
        var input: String
        var output: String
        var format: TraceFormat
        var description: String?
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        let path = arguments[output]
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw UsageError(
                "\(path) is a directory; give -o the name of a file to write (\(path.hasSuffix("/") ? path : path + "/")NAME.jsonl)")
        }
        let format: TraceFormat
        if let chosen = arguments[to] {
            format = chosen
        } else if path == "-" {
            format = .json
        } else {
            let ext = PathName.pathExtension(of: path)
            guard let fromExtension = TraceFormat(pathExtension: ext) else {
                let named =
                    ext.isEmpty
                    ? "'\(Excerpt.escaped(path, limit: 200))', which has no extension" : "'.\(Excerpt.escaped(ext, limit: 200))'"
                throw UsageError("cannot tell the output format from \(named); give --to json, libinput or evemu")
            }
            format = fromExtension
        }
        return Options(input: arguments.positionals[0], output: path, format: format, description: arguments[RecordingFile.descOption])
    }

    static func run(_ options: Options) throws -> Int32 {
        try RecordingFile.checkDescription(options.description)
        let trace = try RecordingFile.load(options.input, description: options.description, options: Self.options)
        try OutputFile.check(options.output)
        let data: Data
        do { data = try trace.converted(to: options.format) } catch { throw error.inFile(options.input) }
        try OutputFile.write(data, to: options.output)
        return 0
    }
}
