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

    /// The first of ``descriptionCandidates(of:)`` that exists as a file, or nil.
    public static func existingDescription(of eventsURL: URL) -> URL? {
        descriptionCandidates(of: eventsURL).first { candidate in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
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
