import CommandLineKit
import Foundation
import InputChecks

/// The files the commands read, checked with ``FileKind`` before a reader
/// sees them: a missing file, a directory, or a file of another kind gets
/// one sentence naming the file, saying what it is and what to do with it.
///
///     try FileArgument.check("Recordings/strokes/check.json", as: .recording, options: ReplayCommand.options)
///     // throws: Recordings/strokes/check.json is a JSON stroke file, not a recording:
///     //         recognise it with 'gestures recognize Recordings/strokes/check.json' or add it to a library with 'gestures train'
///
/// Hints name only options the command has (`options`: its table), so a
/// command never suggests an option it does not take.
enum FileArgument {
    /// What a command wants a path to be.
    enum Role: Sendable {
        /// A touch recording: JSON trace, libinput record YAML, evemu events.
        case recording
        /// Drawn strokes: a $1 XML log or a JSON stroke file.
        case strokes
        /// Samples for `train`: drawn strokes or a touch recording.
        case samples
        /// A template library.
        case templateLibrary
        /// The daemon's configuration file.
        case configuration
        /// A `--sequences` file.
        case sequences
        /// An evemu device description (`--desc`).
        case evemuDescription
        /// A folder of $1 XML logs (`eval`).
        case logFolder
        /// A `bench-patterns` corpus.
        case patternCorpus
        /// What `render` draws: a recording or a template library.
        case picture

        /// The role as a noun phrase: `a recording`.
        var noun: String {
            switch self {
            case .recording: "a recording"
            case .strokes: "a stroke file"
            case .samples: "a stroke file or a recording"
            case .templateLibrary: "a template library"
            case .configuration: "a configuration file"
            case .sequences: "a sequence file"
            case .evemuDescription: "an evemu device description"
            case .logFolder: "a folder of $1 stroke logs"
            case .patternCorpus: "a pattern corpus"
            case .picture: "a recording or a template library"
            }
        }

        /// Whether a file of `kind` goes on to the reader. Files the sniffer
        /// cannot place (``FileKind/other``) do: the reader's error names the line.
        func accepts(_ kind: FileKind) -> Bool {
            switch (self, kind) {
            case (.logFolder, .directory): true
            case (.logFolder, _): false
            case (_, .other): true
            case (.recording, .recording), (.samples, .recording): true
            case (.strokes, .strokeLog), (.strokes, .strokes), (.strokes, .xml): true
            case (.samples, .strokeLog), (.samples, .strokes), (.samples, .xml): true
            case (.templateLibrary, .templateLibrary), (.configuration, .configuration), (.sequences, .sequences): true
            case (.evemuDescription, .evemuDescription), (.evemuDescription, .recording(.evemu)): true
            case (.patternCorpus, .patternCorpus): true
            case (.picture, .recording), (.picture, .templateLibrary): true
            default: false
            }
        }
    }

    /// Past this size a binary file goes to its reader, which refuses it by
    /// its own size limit (16 MiB for strokes and libraries, 4 GiB for traces)
    /// before reading it: that says more than "binary".
    static let largestSmallFile = 16 << 20

    /// Checks that `path` can be read as `role`.
    ///
    /// - Throws: a ``CommandFailure`` of one sentence when it cannot.
    static func check(_ path: String, as role: Role, options: [OptionSpec] = []) throws(CommandFailure) {
        if let problem = problem(path, as: role, options: options) { throw CommandFailure(problem) }
    }

    /// The sentence saying why `path` cannot be read as `role`, or nil when it can.
    static func problem(_ path: String, as role: Role, options: [OptionSpec] = []) -> String? {
        problem(path, kind: FileKind.of(path), as: role, options: options)
    }

    /// The sentence saying why `path`, of `kind`, cannot be read as `role`, or nil when it can.
    static func problem(_ path: String, kind: FileKind, as role: Role, options: [OptionSpec] = []) -> String? {
        guard !role.accepts(kind) else { return nil }
        let offers = Set(options.flatMap(\.names))
        switch kind {
        case .missing:
            return missing(path, folder: role == .logFolder)
        case .directory:
            return "\(path) is a directory, not \(role.noun): name the files in it (\(path.hasSuffix("/") ? path : path + "/")*)"
        case .special:
            let live = path.hasPrefix("/dev/input/") ? ": to read a device live, use 'gestures watch --device \(path)'" : ""
            return "\(path) is not a regular file (a device node or a pipe), not \(role.noun)\(live)"
        case .unreadable:
            return "\(path) cannot be read: check its permissions (ls -l \(path))"
        case .empty:
            return "\(path) is empty, not \(role.noun)"
        case .binary where FileKind.size(of: path) ?? 0 > FileArgument.largestSmallFile:
            // Its reader refuses it by size before reading it, with its own limit.
            return nil
        case .binary:
            return "\(path) is a binary file, not \(role.noun)"
        case .notUTF8:
            return "\(path) is not UTF-8 text, so it is not \(role.noun): save it as UTF-8"
        default:
            if role == .logFolder {
                return
                    "\(path) is \(kind == .other ? "a file" : phrase(kind)), not a folder: eval reads a folder of $1 logs laid out as <subject>/<speed>/<gesture><NN>.xml\(kind == .strokeLog ? " (use 'gestures recognize' for one log)" : "")"
            }
            return "\(path) is \(phrase(kind)), not \(role.noun): \(advice(kind, path: path, role: role, offers: offers))"
        }
    }

    /// What a kind of file is, as a noun phrase.
    static func phrase(_ kind: FileKind) -> String {
        switch kind {
        case .recording(.json): "a touch recording (JSON trace)"
        case .recording(.libinput): "a touch recording (libinput record)"
        case .recording(.evemu): "a touch recording (evemu)"
        case .evemuDescription: "an evemu device description without events"
        case .strokeLog: "a $1 stroke log"
        case .xml: "XML but not a $1 stroke log (it has no <Gesture> element)"
        case .strokes: "a JSON stroke file"
        case .templateLibrary: "a template library"
        case .configuration: "a gestures configuration file"
        case .sequences: "a file of swipe sequences"
        case .gestureEvents: "gesture output (one event a line, as 'gestures replay' prints)"
        case .patternCorpus: "a pattern corpus"
        case .binary: "a binary file"
        case .notUTF8: "text that is not UTF-8"
        case .missing, .directory, .special, .unreadable, .empty, .other: "a file of another kind"
        }
    }

    /// What to do with a file of `kind` that was given as `role`.
    private static func advice(_ kind: FileKind, path: String, role: Role, offers: Set<String>) -> String {
        switch kind {
        case .recording:
            switch role {
            case .strokes:
                return "use 'gestures replay' for its gestures, or 'gestures train --name NAME' to take the strokes drawn in it as samples"
            default:
                return "use 'gestures replay'"
            }
        case .evemuDescription:
            let desc = offers.contains("--desc") ? ", or give this one with --desc" : ""
            return "give the .events recording made on that device (its .desc is found beside it by name)\(desc)"
        case .strokeLog, .strokes:
            switch role {
            case .templateLibrary:
                return "add it to a library with 'gestures train'"
            case .picture:
                return "draw it with 'gestures recognize \(path) --explain -o OUT.svg'"
            default:
                return "use 'gestures recognize', or 'gestures train' to add it to a library"
            }
        case .templateLibrary:
            if offers.contains("--library") { return "give it with --library \(path)" }
            if role == .configuration { return "name it in the configuration's templates key" }
            return "use 'gestures templates' to list or edit it"
        case .configuration:
            if offers.contains("--config") { return "give it with --config \(path)" }
            return "use 'gestures check-config' to check it"
        case .sequences:
            if offers.contains("--sequences") { return "give it with --sequences \(path)" }
            return "use it with 'gestures replay --sequences'"
        case .gestureEvents:
            return "give the recording it came from"
        case .patternCorpus:
            return "use 'gestures bench-patterns'"
        case .xml:
            return "a $1 log is <Gesture Name=...> with <Point X= Y= T=/> elements"
        default:
            return "give \(role.noun)"
        }
    }

    /// `PATH: no such file`, with the nearest name in its folder when one is close.
    private static func missing(_ path: String, folder: Bool) -> String {
        let what = folder ? "no such folder" : "no such file"
        let parent = PathName.folderOrCurrent(of: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "\(path): \(what) (there is no folder \(parent))"
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        if let near = Suggestion.nearest(to: PathName.lastComponent(of: path), in: names.sorted()) {
            return "\(path): \(what)\(Suggestion.phrase(PathName.joined(PathName.folder(of: path), near)))"
        }
        return "\(path): \(what)"
    }
}
