/// The nearest known word to a mistyped one, for "did you mean" hints: the
/// one suggestion of the package, used by the command line (options,
/// subcommands, choices, file names), the daemon's configuration (every
/// closed word: keys, gestures, directions, buttons, key names) and the
/// readers of traces and engine settings (through ``ClosedWords``).
public enum Suggestion {
    /// The word of `candidates` nearest to `word`, or nil when none is near
    /// enough to be what the user meant: the word an alias stands for (the
    /// alias as written, ignoring case: `super` for `leftmeta`), else a
    /// unique word starting with `word` (of 3 letters or more), else the
    /// closest by edit distance (a swap of two neighbouring letters counts
    /// once), within a third of the word's length, at least 1 and at most 3.
    /// Ties go to the earlier candidate; case and leading dashes are ignored
    /// in the length.
    ///
    ///     Suggestion.nearest(to: "--formt", in: ["--format", "--frames"])   // "--format"
    ///     Suggestion.nearest(to: "rihgt", in: ["left", "right"])            // "right"
    ///     Suggestion.nearest(to: "super", in: ["leftmeta"], aliases: ["super": "leftmeta"])   // "leftmeta"
    ///     Suggestion.nearest(to: "--bogus", in: ["--format", "--frames"])   // nil
    ///
    /// - Complexity: O(*n* × *m*²) for *n* candidates of length *m*; words
    ///   longer than ``maximumLength`` get no suggestion.
    public static func nearest(to word: String, in candidates: [String], aliases: [String: String] = [:]) -> String? {
        guard word.count <= maximumLength else { return nil }
        let lower = word.lowercased()
        if let meant = aliases[lower] { return meant }
        let typed = Array(lower)
        let letters = typed.drop { $0 == "-" }.count
        if letters >= 3 {
            let extending = candidates.filter { $0.lowercased().hasPrefix(lower) && $0.count > word.count }
            if extending.count == 1 { return extending[0] }
        }
        let limit = min(3, max(1, letters / 3))
        var best: (word: String, distance: Int)?
        for candidate in candidates where abs(candidate.count - typed.count) <= limit {
            let distance = editDistance(typed, Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.word
    }

    /// The longest word a suggestion is looked for: 64 characters (a longer
    /// one is no typing mistake, and is not compared with every candidate).
    public static let maximumLength = 64

    /// `; did you mean 'right'?` for the nearest candidate, or empty.
    public static func hint(for word: String, in candidates: [String], aliases: [String: String] = [:]) -> String {
        nearest(to: word, in: candidates, aliases: aliases).map(phrase) ?? ""
    }

    /// `; did you mean 'right'?`: the one wording of a suggestion inside a
    /// message, whoever found it (``hint(for:in:aliases:)``, ``ClosedWords``,
    /// the command line's `UsageError`, a file name near a missing one). The
    /// word is quoted and escaped as every excerpt is (``Excerpt``), and kept
    /// whole: a suggestion cut short would suggest another word.
    ///
    ///     Suggestion.phrase("--format")   // "; did you mean '--format'?"
    public static func phrase(_ suggestion: String) -> String {
        "; did you mean \(Excerpt.quoted(suggestion, limit: .max))?"
    }

    /// The optimal-string-alignment distance: insertions, deletions,
    /// substitutions and swaps of neighbours each cost 1.
    ///
    /// - Complexity: O(*a* × *b*) time, O(*b*) memory.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
