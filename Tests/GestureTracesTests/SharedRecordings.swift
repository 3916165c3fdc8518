import Foundation
import TestSupport

/// The shared evemu recordings (`recordings` in ``SharedData``, the one
/// place the tests find the shared data), and the files in them.
enum SharedRecordings {
    static let directory: URL? = SharedData.recordings

    static var isAvailable: Bool { directory != nil }

    /// Every recording (`.events` and `.desc`) under `touchpads/` and
    /// `touchscreens/`, subfolders included (`touchpads/xit/`), as paths
    /// relative to ``directory``: a file added there is tested with no change here.
    static let files: [String] = {
        guard let directory else { return [] }
        var files: [String] = []
        for folder in ["touchpads", "touchscreens"] {
            guard let walker = FileManager.default.enumerator(atPath: directory.appendingPathComponent(folder).path) else { continue }
            for case let path as String in walker where path.hasSuffix(".events") || path.hasSuffix(".desc") {
                files.append("\(folder)/\(path)")
            }
        }
        return files.sorted()
    }()

    static func url(_ file: String) -> URL { directory!.appendingPathComponent(file) }

    /// The $1 study's stroke logs, if present.
    static var dollarLogs: URL? { SharedData.dollarLogs }

    /// The directory of the malformed-input corpus kept beside these tests.
    static let malformed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Malformed")
}
