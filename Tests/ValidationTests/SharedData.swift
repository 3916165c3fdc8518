import Foundation
import Validation

/// The data shared between the engineers' checkouts (`../shared/data` beside
/// the repository, or `$GESTURES_SHARED_DATA`); tests that need it skip when it
/// is absent.
enum SharedData {
    /// The shared data directory, when it exists.
    static let directory: URL? = {
        let candidate: URL
        if let override = ProcessInfo.processInfo.environment["GESTURES_SHARED_DATA"], !override.isEmpty {
            candidate = URL(fileURLWithPath: override, isDirectory: true)
        } else {
            // Tests/ValidationTests/SharedData.swift -> the repository root, three levels up.
            let root = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            candidate = root.appendingPathComponent("../shared/data", isDirectory: true).standardized
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
              isDirectory.boolValue
        else { return nil }
        return candidate
    }()

    /// `redos/corpus.json`, when it exists.
    static let redosCorpus: URL? = directory.map { $0.appendingPathComponent("redos/corpus.json") }
        .flatMap { FileManager.default.fileExists(atPath: $0.path) ? $0 : nil }
}

/// One entry of the ReDoS corpus: a pattern and the attack that makes it slow.
struct RedosEntry: Decodable {
    var id: String
    var pattern: String
    var prefix: String
    var pump: String
    var `repeat`: Int
    var suffix: String

    /// `prefix + pump * repeat + suffix`, cut to `limit` UTF-16 code units.
    func attack(limit: Int = PatternMatcher.maximumValueLength) -> String {
        var units = Array(prefix.utf16)
        let pumpUnits = Array(pump.utf16)
        var pumped = 0
        while pumped < self.repeat, units.count < limit, !pumpUnits.isEmpty {
            units += pumpUnits
            pumped += 1
        }
        units += suffix.utf16
        return String(decoding: units.prefix(limit), as: UTF16.self)
    }
}

/// The corpus file: `{"source": ..., "entries": [...]}`.
struct RedosCorpus: Decodable {
    var source: String
    var entries: [RedosEntry]
}
