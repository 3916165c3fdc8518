import Foundation

extension Trace {
    /// The `.desc` files that may describe the device of an evemu events file
    /// without a header, longest name first: the file's name without its
    /// extension, then each shorter leading part of it that ends before a dot.
    /// Recordings in the wild often sit beside one description per device
    /// and model, so the most specific name wins.
    ///
    ///     Trace.descriptionCandidates(of: URL(fileURLWithPath: "/d/Pad.laptop.scroll.events")).map(\.lastPathComponent)
    ///     // ["Pad.laptop.scroll.desc", "Pad.laptop.desc", "Pad.desc"]
    ///
    /// - Complexity: O(*n*) in the number of dots in the name.
    public static func descriptionCandidates(of eventsURL: URL) -> [URL] {
        let name = eventsURL.lastPathComponent
        let directory = eventsURL.deletingLastPathComponent()
        var parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count > 1 { parts.removeLast() }  // the extension
        return (1...parts.count).reversed().compactMap { count in
            let stem = parts.prefix(count).joined(separator: ".")
            return stem.isEmpty ? nil : directory.appendingPathComponent(stem + ".desc")
        }
    }

    /// The `.desc` file beside `eventsURL` with the longest name that begins
    /// the events file's name and ends where the name has a `.`, `-` or `_`
    /// (or is the whole name without its extension), or nil when there is
    /// none. Beyond ``descriptionCandidates(of:)``, this finds the
    /// descriptions of xorg-integration-tests, whose recordings are named
    /// `Pad-tap.events` beside `Pad.desc`.
    ///
    /// - Complexity: O(*n*) file checks for *n* separators in the name.
    public static func existingDescription(of eventsURL: URL) -> URL? {
        let name = eventsURL.lastPathComponent
        let directory = eventsURL.deletingLastPathComponent()
        var ends = name.indices.filter { ".-_".contains(name[$0]) }
        if !name.contains(".") { ends.append(name.endIndex) }
        for end in ends.reversed() where end > name.startIndex {
            let candidate = directory.appendingPathComponent(name[..<end] + ".desc")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
        }
        return nil
    }

    /// The `.desc` file that describes the device of an evemu events file
    /// without a header: the one that exists with the longest name (see
    /// ``descriptionCandidates(of:)``), else the shortest name tried.
    public static func siblingDescription(of eventsURL: URL) -> URL {
        existingDescription(of: eventsURL) ?? descriptionCandidates(of: eventsURL).last ?? eventsURL.appendingPathExtension("desc")
    }

    /// The candidates' names as a phrase for errors: `Pad.scroll.desc or Pad.desc`.
    static func descriptionCandidatesText(of eventsURL: URL) -> String {
        let names = descriptionCandidates(of: eventsURL).map(\.lastPathComponent)
        guard names.count > 1 else { return names.first ?? "\(eventsURL.lastPathComponent).desc" }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}
