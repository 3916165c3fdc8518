import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A private folder for a benchmark's temporary files: made by `mkdtemp`
/// (mode 0700, a name no one can guess), so that no other user can plant a
/// file or a symbolic link where a benchmark writes; every file in it is
/// created with `O_CREAT | O_EXCL | O_NOFOLLOW` (``createFile(named:)``).
/// ``remove()`` deletes it with what it holds; the command that makes one
/// also calls it on SIGINT and SIGTERM, so an interrupted run leaves nothing.
///
///     let folder = try TemporaryFolder(in: FileManager.default.temporaryDirectory)
///     defer { folder.remove() }
///     let url = try folder.createFile(named: "stream.jsonl")
public struct TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Makes a new folder `gestures-bench-XXXXXX` in `parent`.
    ///
    /// - Throws: ``BenchmarkFailure`` when it cannot be made.
    public init(in parent: URL) throws(BenchmarkFailure) {
        var template = Array(parent.appendingPathComponent("gestures-bench-XXXXXX").path.utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            throw BenchmarkFailure(
                "cannot make a private folder in \(parent.path) for the benchmark's files: \(String(cString: strerror(errno)))")
        }
        url = URL(fileURLWithPath: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// Creates the empty file `name` in the folder, failing if anything
    /// (a file, a symbolic link) is already there, and returns its URL.
    public func createFile(named name: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Self.createExclusively(file)
        return file
    }

    /// Creates the empty file at `file` with `O_CREAT | O_EXCL | O_NOFOLLOW`
    /// (mode 0600): fails, rather than following or overwriting, when
    /// anything is already there.
    ///
    /// - Throws: ``BenchmarkFailure`` naming the file.
    public static func createExclusively(_ file: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw BenchmarkFailure(
                "cannot create \(file.path) for the benchmark: \(String(cString: strerror(errno))); remove what is there or give another --temporary-directory"
            )
        }
        close(descriptor)
    }

    /// Deletes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
