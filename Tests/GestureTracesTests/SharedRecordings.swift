import Foundation

/// Finds the shared evemu recordings: `$GESTURES_SHARED_DATA` (the data
/// folder or its `recordings` folder), else `../shared/data/recordings`
/// beside the repository root, which is found from this file's path.
enum SharedRecordings {
    static let directory: URL? = {
        var candidates: [URL] = []
        if let custom = ProcessInfo.processInfo.environment["GESTURES_SHARED_DATA"], !custom.isEmpty {
            let url = URL(fileURLWithPath: custom)
            candidates += [url.appendingPathComponent("recordings"), url]
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.deletingLastPathComponent().appendingPathComponent("shared/data/recordings"))
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("touchpads").path) }
    }()

    static var isAvailable: Bool { directory != nil }

    /// Every recording (`.events` and `.desc`), as paths relative to ``directory``.
    static let files: [String] = {
        guard let directory else { return [] }
        var files: [String] = []
        for folder in ["touchpads", "touchscreens"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)) ?? []
            files += names.filter { $0.hasSuffix(".events") || $0.hasSuffix(".desc") }.map { "\(folder)/\($0)" }
        }
        return files.sorted()
    }()

    static func url(_ file: String) -> URL { directory!.appendingPathComponent(file) }

    /// The directory of the malformed-input corpus kept beside these tests.
    static let malformed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Malformed")
}
