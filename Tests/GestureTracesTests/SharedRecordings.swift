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

    /// The $1 study's stroke logs beside the recordings (`../dollar1/xml_logs`), if present.
    static let dollarLogs: URL? = directory.map {
        $0.deletingLastPathComponent().appendingPathComponent("dollar1/xml_logs")
    }.flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }

    /// The directory of the malformed-input corpus kept beside these tests.
    static let malformed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Malformed")
}
