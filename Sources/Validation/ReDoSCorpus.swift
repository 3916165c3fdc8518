/// A corpus of patterns and the input that makes each one slow to match
/// (regular-expression denial of service): what `gestures bench-patterns`
/// times and `PatternMatcherCorpusTests` checks, read as one JSON document,
/// `{"source": ..., "entries": [{"id", "pattern", "prefix", "pump", "repeat", "suffix"}]}`.
///
///     let corpus = try JSONDecoder().decode(ReDoSCorpus.self, from: data)
///     let entry = corpus.entries[0]
///     try PatternMatcher(entry.pattern).matches(entry.attack())   // .timedOut, not minutes
public struct ReDoSCorpus: Decodable, Hashable, Sendable {
    /// One pattern and its attack.
    public struct Entry: Decodable, Hashable, Sendable {
        /// The entry's name in the corpus.
        public var id: String
        /// The pattern, in ICU's syntax.
        public var pattern: String
        /// The attack: `prefix`, then `pump` `repeat` times, then `suffix`.
        public var prefix: String
        public var pump: String
        public var `repeat`: Int
        public var suffix: String

        /// An entry from its parts.
        public init(id: String, pattern: String, prefix: String, pump: String, repeat: Int, suffix: String) {
            self.id = id
            self.pattern = pattern
            self.prefix = prefix
            self.pump = pump
            self.repeat = `repeat`
            self.suffix = suffix
        }

        /// `prefix + pump * repeat + suffix`, cut to `limit` UTF-16 code
        /// units (by default the longest value `PatternMatcher` takes).
        ///
        /// - Complexity: O(`limit`).
        public func attack(limit: Int = PatternMatcher.maximumValueLength) -> String {
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

    /// Where the corpus comes from, when it says.
    public var source: String?
    /// The entries, in the file's order.
    public var entries: [Entry]

    /// A corpus from its parts.
    public init(source: String? = nil, entries: [Entry]) {
        self.source = source
        self.entries = entries
    }
}
