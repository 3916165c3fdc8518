import Foundation

/// The files a parameterised test runs over, never an empty list: a test
/// over no file passes on nothing, so a folder moved, emptied or misread
/// fails here instead, saying which. Used as `@Test(arguments: try ...)`, an
/// error fails the test with its sentence.
///
/// ```swift
/// @Test(arguments: try TestFiles.names(in: TestFiles.recordings.appendingPathComponent("strokes"), endingIn: ".json"))
/// func strokeIsRead(file: String) throws { ... }
/// ```
public enum TestFiles {
    /// `Recordings/` in the repository.
    public static let recordings = SharedData.repositoryRoot.appendingPathComponent("Recordings")

    /// Fewer files than a test needs.
    public struct TooFew: Error, CustomStringConvertible {
        public var description: String
    }

    /// The files of `folder` whose names end in one of `suffixes` and in
    /// none of `excluded`, as paths relative to it (subfolders too when
    /// `recursive`), sorted.
    ///
    /// - Throws: ``TooFew`` when there are fewer than `minimum`.
    public static func names(
        in folder: URL, endingIn suffixes: [String], excluding excluded: [String] = [], recursive: Bool = false, minimum: Int = 1
    ) throws(TooFew) -> [String] {
        var found: [String] = []
        if recursive {
            if let walker = FileManager.default.enumerator(atPath: folder.path) {
                for case let path as String in walker { found.append(path) }
            }
        } else {
            found = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        }
        let wanted = found.filter { name in
            suffixes.contains { name.hasSuffix($0) } && !excluded.contains { name.hasSuffix($0) }
        }
        let what = "files ending in \(suffixes.joined(separator: " or "))"
        return try required(wanted.sorted(), minimum: minimum, "\(what) in \(folder.path)")
    }

    /// ``names(in:endingIn:excluding:recursive:minimum:)`` with one suffix.
    public static func names(
        in folder: URL, endingIn suffix: String, excluding excluded: [String] = [], recursive: Bool = false, minimum: Int = 1
    ) throws(TooFew) -> [String] {
        try names(in: folder, endingIn: [suffix], excluding: excluded, recursive: recursive, minimum: minimum)
    }

    /// `values`, when they are `minimum` or more; `what` names them for the error.
    ///
    /// - Throws: ``TooFew``, saying how many of `what` were found and how many a test needs.
    public static func required<Value>(_ values: [Value], minimum: Int = 1, _ what: String) throws(TooFew) -> [Value] {
        guard values.count >= minimum else {
            throw TooFew(
                description:
                    "\(values.count) \(what), and the tests over them need at least \(minimum): they would pass on nothing; restore the files or fix where the test looks"
            )
        }
        return values
    }
}
