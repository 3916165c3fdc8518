import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a whole input file under a size limit: the one way every reader of
/// the package (traces, stroke files, $1 logs, template libraries,
/// configurations, sequence files) loads a file.
///
/// The size is checked before anything is read, and at most one byte more
/// than the limit is ever read, so a 2.5 GB file, `/dev/zero` or a file
/// that grows while it is read costs at most the limit in memory.
///
///     let data = try InputFile.read("mine.json", maximumBytes: 16 << 20)
///     // throws: mine.json: the file is 2684354560 bytes, over the limit of 16777216 bytes (16 MiB)
public enum InputFile {
    /// Why a file could not be read, naming the file.
    public struct ReadError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The file.
        public var path: String
        /// What is wrong.
        public var problem: Problem

        /// An error about `path`.
        public init(path: String, problem: Problem) {
            self.path = path
            self.problem = problem
        }

        /// What can be wrong with a file.
        public enum Problem: Hashable, Sendable {
            /// There is no file at the path.
            case missing
            /// The path is a directory.
            case directory
            /// The file cannot be opened or read (permissions, a device that fails).
            case unreadable(reason: String)
            /// The file holds more than `limit` bytes (`bytes` when its size is known).
            case tooLarge(bytes: Int?, limit: Int)
        }

        /// What is wrong, without the file: `no such file`.
        public var message: String {
            switch problem {
            case .missing: "no such file"
            case .directory: "is a directory, not a file"
            case .unreadable(let reason): "cannot be read (\(reason))"
            case .tooLarge(let bytes, let limit): InputFile.tooLargeMessage(bytes: bytes, limit: limit)
            }
        }

        /// `path: message`.
        public var description: String { "\(path): \(message)" }
    }

    /// The one message for a file over its size limit: `the file is
    /// 2684354560 bytes, over the limit of 16777216 bytes (16 MiB)`.
    public static func tooLargeMessage(bytes: Int?, limit: Int) -> String {
        let mebibytes = limit >= 1 << 20 && limit % (1 << 20) == 0 ? " (\(limit >> 20) MiB)" : ""
        let size = bytes.map { "the file is \($0) bytes, over" } ?? "the file is over"
        return "\(size) the limit of \(limit) bytes\(mebibytes)"
    }

    /// The contents of the file at `path`, which must hold at most `maximumBytes` bytes.
    ///
    /// - Throws: ``ReadError`` for a missing file, a directory, a file that
    ///   cannot be read, or one over the limit (checked before reading).
    public static func read(_ path: String, maximumBytes: Int) throws(ReadError) -> Data {
        func failure(_ problem: ReadError.Problem) -> ReadError { ReadError(path: path, problem: problem) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw failure(.missing) }
        guard !isDirectory.boolValue else { throw failure(.directory) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw failure(.unreadable(reason: "no permission, or not a file that can be opened"))
        }
        defer { try? handle.close() }
        var status = stat()
        if fstat(handle.fileDescriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) > maximumBytes {
            throw failure(.tooLarge(bytes: Int(status.st_size), limit: maximumBytes))
        }
        let data: Data
        do { data = try handle.read(upToCount: maximumBytes + 1) ?? Data() } catch {
            throw failure(.unreadable(reason: (error as NSError).localizedDescription))
        }
        guard data.count <= maximumBytes else { throw failure(.tooLarge(bytes: nil, limit: maximumBytes)) }
        return data
    }

    /// The contents of the file at `url` (see ``read(_:maximumBytes:)``).
    public static func read(_ url: URL, maximumBytes: Int) throws(ReadError) -> Data {
        try read(url.path, maximumBytes: maximumBytes)
    }
}
