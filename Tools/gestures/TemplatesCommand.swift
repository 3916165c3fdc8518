import CommandLineKit
import Foundation
import GestureRecognition
import GestureTraces
import InputChecks

/// `gestures templates`: lists the gestures of a template library, or edits it.
enum TemplatesCommand: Command {
    static let name = "templates"
    static let abstract = "List the gestures of a template library, or edit it."
    static let discussion = "LIB.json may be 'default' for the bundled library of the 16 shapes of the $1 study."

    /// `--rename OLD=NEW`.
    struct Renaming: Sendable {
        var old: String
        var new: String
    }

    static let remove = Option("--remove", valueName: "NAME", .text, help: "Remove every sample of gesture NAME.").repeated()
    static let rename = Option("--rename", valueName: "OLD=NEW", renamingParser, help: "Rename gesture OLD to NEW.").repeated()
    static let renamingParser = ValueParser<Renaming>.custom(expecting: "OLD=NEW", format: { "\($0.old)=\($0.new)" }) { text in
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        return parts.count == 2 ? Renaming(old: parts[0], new: parts[1]) : nil
    }
    static let export = Option("--export", valueName: "PATH", .file, help: "Write the library (after edits) to PATH.")
    static let format = OutputFormat.option(default: .text, help: "Output format of the listing.")

    static let options = [remove.spec, rename.spec, export.spec, format.spec]
    static let arguments = [ArgumentSpec("LIB.json", kind: .fileOr(["default"]), help: "The library, or 'default'.")]

    /// The library, the edits, and where they go.
    struct Options {
        var path: String
        var removals: [String]
        var renamings: [Renaming]
        var exportPath: String?
        var format: OutputFormat
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        let options = Options(
            path: arguments.positionals[0], removals: arguments[remove], renamings: arguments[rename],
            exportPath: arguments[export], format: arguments[format])
        if options.path == "default" && options.exportPath == nil && !(options.removals.isEmpty && options.renamings.isEmpty) {
            throw UsageError("the default library cannot be edited; add --export PATH")
        }
        return options
    }

    /// `LIB has no gesture named 'zigzg'; did you mean 'zigzag'?`, or, with
    /// no near name, how to list the names it has.
    static func noGesture(named name: String, in library: TemplateLibrary, path: String) -> CommandFailure {
        let near = Suggestion.hint(for: name, in: library.names)
        let list = near.isEmpty ? "; 'gestures templates \(path)' lists its gestures" : near
        return CommandFailure("\(path) has no gesture named \(Excerpt.quoted(name))" + list)
    }

    static func run(_ options: Options) throws -> Int32 {
        let path = options.path
        var library = try TemplateLibraryFile.load(path, options: Self.options)
        for name in options.removals {
            if library.remove(name: name) == 0 { throw noGesture(named: name, in: library, path: path) }
        }
        for renaming in options.renamings {
            let renamed: Int
            do { renamed = try library.rename(renaming.old, to: renaming.new) } catch { throw CommandFailure(error.description) }
            if renamed == 0 { throw noGesture(named: renaming.old, in: library, path: path) }
        }
        if let export = options.exportPath {
            let destination = try OutputFile.destination(of: export)
            try TemplateLibraryFile.save(library, to: export)
            // The library is the output: no table after it.
            if destination == .standardOutput { return 0 }
        } else if !options.removals.isEmpty || !options.renamings.isEmpty {
            try TemplateLibraryFile.save(library, to: path)
        }
        switch options.format {
        case .json:
            let rows = library.names.map { name in
                "{\"name\":\(JSONText.quoted(name)),\"samples\":\(library.samples(named: name).count)}"
            }
            print("[\(rows.joined(separator: ","))]")
        case .text:
            let width = max(8, library.names.map(\.count).max() ?? 0)
            print("gesture".padding(toLength: width, withPad: " ", startingAt: 0) + "  samples")
            for name in library.names {
                let count = library.samples(named: name).count
                print(name.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(count)")
            }
            print(library.summary)
        }
        return 0
    }
}
