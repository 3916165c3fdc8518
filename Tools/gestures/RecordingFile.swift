import CommandLineKit
import Foundation
import GestureTraces

/// Recordings as the commands that take them read them (`replay`, `info`,
/// `convert`, `train`): checked by kind first (``FileArgument``), then loaded,
/// with `--desc FILE` for evemu events that have no device description.
enum RecordingFile {
    /// `--desc FILE`: the device description of evemu recordings without one.
    static let descOption = Option(
        "--desc", valueName: "FILE", .file,
        help: "The evemu device description for recordings without one (default: the .desc beside each, by the longest matching name).")

    /// Checks the `--desc` file, when one is given.
    static func checkDescription(_ path: String?) throws(CommandFailure) {
        if let path { try FileArgument.check(path, as: .evemuDescription) }
    }

    /// Loads the recording at `path` after checking what it is.
    ///
    /// - Parameters:
    ///   - description: the `--desc` file, for evemu events without a description.
    ///   - role: what the command wants (a recording, or samples for `train`).
    ///   - options: the command's table, for hints that name its options.
    /// - Throws: a ``CommandFailure`` of one sentence naming the file.
    static func load(
        _ path: String, description: String? = nil, as role: FileArgument.Role = .recording,
        options: [OptionSpec]
    ) throws(CommandFailure) -> Trace {
        try FileArgument.check(path, as: role, options: options)
        do {
            return try Trace.load(
                contentsOf: URL(fileURLWithPath: path),
                deviceDescription: description.map { URL(fileURLWithPath: $0) })
        } catch let error as TraceError {
            var text = sentence(error, given: path)
            if case .missingDeviceDescription = error.kind, options.contains(where: { $0.name == descOption.spec.name }) {
                text = String(text.dropLast()) + "; name one with --desc FILE"
            }
            throw CommandFailure(text)
        } catch {
            throw CommandFailure("\(path): \(CommandLineTool.sentence(for: error))")
        }
    }

    /// The error's sentence with the path as the user gave it rather than as a URL made it.
    private static func sentence(_ error: TraceError, given path: String) -> String {
        var error = error
        if error.file == URL(fileURLWithPath: path).path { error.file = path }
        return CommandLineTool.sentence(for: error)
    }
}
