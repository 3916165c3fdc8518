import Foundation

/// The real data shared beside the repository (`../shared/data`: the $1
/// study's logs, evemu recordings, the ReDoS corpus), which a fresh clone
/// does not have. The one place every test that reads it finds it, so that
/// one switch hides it from all of them: tests that need it skip, saying so.
///
/// `GESTURES_SHARED_DATA=DIR` reads it from `DIR` instead;
/// `GESTURES_SHARED_DATA=none` hides it, and the suite runs as on a fresh
/// clone (`.ci/run` runs it once that way).
public enum SharedData {
    /// Where the data was looked for and what was found.
    public enum Location: Equatable, Sendable, CustomStringConvertible {
        /// The data folder exists here.
        case found(URL)
        /// `GESTURES_SHARED_DATA=none` hides it.
        case hidden
        /// Nothing at this path (a fresh clone, or a wrong `GESTURES_SHARED_DATA`).
        case absent(URL)

        public var description: String {
            switch self {
            case .found(let url): "shared data at \(url.path)"
            case .hidden: "shared data hidden by GESTURES_SHARED_DATA=none"
            case .absent(let url): "no shared data at \(url.path)"
            }
        }

        /// The data folder when it was found, else nil.
        public var url: URL? {
            if case .found(let url) = self { return url }
            return nil
        }
    }

    /// The value of `GESTURES_SHARED_DATA` that hides the data.
    public static let hiddenValue = "none"

    /// The repository's root, found from this file's path (Tests/TestSupport/SharedData.swift).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where the data is for this environment and repository root: `$GESTURES_SHARED_DATA`
    /// when set (and not empty), else `../shared/data` beside the repository.
    public static func locate(environment: [String: String], repositoryRoot: URL) -> Location {
        let candidate: URL
        if let setting = environment["GESTURES_SHARED_DATA"], !setting.isEmpty {
            if setting == hiddenValue { return .hidden }
            candidate = URL(fileURLWithPath: setting, isDirectory: true)
        } else {
            candidate = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data", isDirectory: true)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return .absent(candidate)
        }
        return .found(candidate)
    }

    /// Where the data is for this test run.
    public static let location = locate(environment: ProcessInfo.processInfo.environment, repositoryRoot: repositoryRoot)

    /// The data folder, or nil when it is absent or hidden.
    public static var directory: URL? { location.url }

    /// `relativePath` inside the data folder (`"dollar1/xml_logs"`,
    /// `"recordings"`, `"redos/corpus.json"`), or nil when it is not there.
    public static func url(_ relativePath: String) -> URL? {
        guard let url = directory?.appendingPathComponent(relativePath) else { return nil }
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// The $1 study's XML logs (`dollar1/xml_logs`), or nil.
    public static var dollarLogs: URL? { url("dollar1/xml_logs") }

    /// The evemu recordings (`recordings`, with `touchpads/` and `touchscreens/`), or nil.
    public static var recordings: URL? { url("recordings/touchpads").map { $0.deletingLastPathComponent() } }
}
