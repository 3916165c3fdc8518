import Foundation
import TestSupport

/// The shared evemu recordings (`recordings` in ``SharedData``, the one
/// place the tests find the shared data), and the files in them.
enum SharedRecordings {
    static let directory: URL? = SharedData.recordings

    static var isAvailable: Bool { directory != nil }

    /// Every recording (`.events` and `.desc`) under `touchpads/` and
    /// `touchscreens/`, subfolders included (`touchpads/xit/`), as paths
    /// relative to ``directory``: a file added there is tested with no change
    /// here. Empty without the shared data (the tests over it skip, saying
    /// so); an error when the data is there but holds no recording, so that
    /// they do not pass on nothing.
    static func files() throws -> [String] {
        guard let directory else { return [] }
        var files: [String] = []
        for folder in ["touchpads", "touchscreens"] {
            let found =
                (try? TestFiles.names(
                    in: directory.appendingPathComponent(folder), endingIn: [".events", ".desc"], recursive: true)) ?? []
            files += found.map { "\(folder)/\($0)" }
        }
        return try TestFiles.required(files.sorted(), "recordings under touchpads/ and touchscreens/ of \(directory.path)")
    }

    static func url(_ file: String) -> URL { directory!.appendingPathComponent(file) }

    /// The $1 study's stroke logs, if present.
    static var dollarLogs: URL? { SharedData.dollarLogs }

    /// The directory of the malformed-input corpus kept beside these tests.
    static let malformed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Malformed")
}
