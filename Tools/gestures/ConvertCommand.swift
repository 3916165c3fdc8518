import CommandLineKit
import Foundation
import GestureTraces

/// `gestures convert IN -o OUT`: between JSON traces, libinput record YAML and evemu.
enum ConvertCommand: Command {
    static let name = "convert"
    static let abstract = "Convert a recording between JSON trace, libinput record YAML and evemu."
    static let discussion = """
        The input format is detected from the content. The output format comes
        from --to, else from OUT's extension: .jsonl/.json -> json,
        .yml/.yaml -> libinput, .events/.evemu -> evemu. Conversions are
        lossless: every event keeps its time, so converted recordings replay
        with 'libinput replay' and 'evemu-play'. OUT '-' writes to standard output.
        """

    static let output = Option("--output", valueName: "OUT", .file, help: "The file to write ('-' for standard output).",
                               aliases: ["-o"]).required()
    static let to = Option("--to", valueName: "FORMAT", .choice(TraceFormat.self), help: "Output format (default: from OUT's extension).")
    static let options = [output.spec, to.spec]
    static let arguments = [ArgumentSpec("IN", kind: .file, help: "A recording: JSON trace, libinput record YAML or evemu.")]

    /// What to convert, to what, and where.
    struct Options {
        var input: String
        var output: String
        var format: TraceFormat
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        let path = arguments[output]
        let format: TraceFormat
        if let chosen = arguments[to] {
            format = chosen
        } else if path == "-" {
            format = .json
        } else {
            let ext = URL(fileURLWithPath: path).pathExtension
            guard let fromExtension = TraceFormat(pathExtension: ext) else {
                throw UsageError("cannot tell the output format from '.\(ext)'; give --to json, libinput or evemu")
            }
            format = fromExtension
        }
        return Options(input: arguments.positionals[0], output: path, format: format)
    }

    static func run(_ options: Options) throws -> Int32 {
        let trace = try Trace.load(contentsOf: URL(fileURLWithPath: options.input))
        if options.output == "-" {
            FileHandle.standardOutput.write(try trace.encoded(as: options.format))
        } else {
            try trace.write(to: URL(fileURLWithPath: options.output), format: options.format)
        }
        return 0
    }
}
