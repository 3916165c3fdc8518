import Foundation
import TestSupport
import Validation

extension SharedData {
    /// `redos/corpus.json` in the shared data, when it exists.
    static var redosCorpus: URL? { url("redos/corpus.json") }
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
