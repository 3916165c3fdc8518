import Foundation
import GestureTraces

/// `gestures convert IN -o OUT`: between JSON traces, libinput record YAML and evemu.
enum ConvertCommand: Subcommand {
    static let name = "convert"
    static let abstract = "Convert a recording between JSON trace, libinput record YAML and evemu."
    static let usage = "IN -o OUT [--to json|libinput|evemu]"
    static let discussion = """
        The input format is detected from the content. The output format comes
        from --to, else from OUT's extension: .jsonl/.json -> json,
        .yml/.yaml -> libinput, .events/.evemu -> evemu. Conversions are
        lossless: every event keeps its time, so converted recordings replay
        with 'libinput replay' and 'evemu-play'. OUT '-' writes to standard output.
        """
    static let options: [OptionSpec] = [
        .option("-o", "OUT", "The file to write ('-' for standard output)."),
        .option("--output", "OUT", "Same as -o."),
        .option("--to", "FORMAT", "Output format: json, libinput or evemu."),
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        guard arguments.positionals.count == 1 else { throw UsageError("expected exactly one input file") }
        guard let output = arguments.value("-o") ?? arguments.value("--output") else {
            throw UsageError("missing the output file (-o OUT)")
        }
        let format: TraceFormat
        if let name = arguments.value("--to") {
            guard let chosen = TraceFormat(rawValue: name) else {
                throw UsageError("--to expects json, libinput or evemu, got '\(name)'")
            }
            format = chosen
        } else if output == "-" {
            format = .json
        } else {
            let ext = URL(fileURLWithPath: output).pathExtension
            guard let fromExtension = TraceFormat(pathExtension: ext) else {
                throw UsageError("cannot tell the output format from '.\(ext)'; give --to json, libinput or evemu")
            }
            format = fromExtension
        }
        let trace = try Trace.load(contentsOf: URL(fileURLWithPath: arguments.positionals[0]))
        if output == "-" {
            FileHandle.standardOutput.write(try trace.encoded(as: format))
        } else {
            try trace.write(to: URL(fileURLWithPath: output), format: format)
        }
        return 0
    }
}
