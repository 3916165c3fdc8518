import Foundation
import GestureRecognition

/// Prompts for `samples` strokes of gesture `name` drawn live, adds each to
/// the library at `path`, and saves it at the end if any was added.
final class SampleCollector {
    let name: String
    let samples: Int
    let path: String
    private var library = TemplateLibrary()
    private var how = ""
    private(set) var added = 0

    /// A collector adding to `start`, the library as the command found it.
    init(name: String, samples: Int, path: String, start: (library: TemplateLibrary, note: String?)) {
        self.name = name
        self.samples = samples
        self.path = path
        self.library = start.library
        self.note = start.note
    }

    /// What the starting library got before any sample (bundled shapes), for the summary.
    private let note: String?

    var wantsMore: Bool { added < samples }

    /// Loads the library and prompts for the first sample, drawn `how`.
    func start(drawing how: String) throws {
        self.how = how
        prompt()
    }

    private func prompt() { printError("Draw '\(name)' \(how) (\(added + 1) of \(samples))...") }

    /// The stroke did not count, for `reason`.
    func retry(_ reason: String) { printError("  \(reason); draw it again.") }

    /// The engine configuration whose stroke rule each sample is checked by (none: not checked).
    private var engine: GestureEngine.Configuration?

    /// Checks each sample taken by `engine`'s stroke rule, warning when it is within the margin of another name.
    func judge(by engine: GestureEngine.Configuration) { self.engine = engine }

    /// Adds a drawn stroke and prompts for the next.
    func take(_ points: [Point]) {
        do {
            try library.add(name: name, points: points)
            added += 1
            printError("  sample \(added) of \(samples) added (\(counted(points.count, "point"))).")
            if let engine, let warning = TrainCommand.sampleWarning(library.templates.count - 1, in: library, by: engine) {
                printError("  warning: \(warning).")
            }
        } catch {
            retry("not a usable stroke (\(error))")
        }
        if wantsMore { prompt() }
    }

    /// Saves what was added and says so; the exit status.
    func finish(status: Int32) throws -> Int32 {
        if added > 0 { try TemplateLibraryFile.save(library, to: path) }
        print(
            "added \(counted(added, "sample")) of '\(name)' to \(path)\(note.map { ", \($0)" } ?? "") (\(library.summary))"
        )
        return added == samples ? status : 1
    }
}
