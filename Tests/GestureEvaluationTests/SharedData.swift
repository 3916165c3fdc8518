import Foundation

/// The real data in `../shared/data` beside the repository (or in
/// `$GESTURES_SHARED_DATA`), or nil when it is absent: tests that need it skip.
enum SharedData {
    static let root: URL? = {
        if let path = ProcessInfo.processInfo.environment["GESTURES_SHARED_DATA"] {
            return URL(fileURLWithPath: path)
        }
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidate = repository.deletingLastPathComponent().appendingPathComponent("shared/data")
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }()

    static var dollarLogs: URL? {
        root.map { $0.appendingPathComponent("dollar1/xml_logs") }.flatMap {
            FileManager.default.fileExists(atPath: $0.path) ? $0 : nil
        }
    }
}
