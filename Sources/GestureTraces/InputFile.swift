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
/// Only regular files are read (a device such as `/dev/zero` or a FIFO is
/// refused before a byte is read); the size is checked before anything is
/// read, and at most one byte more than the limit is ever read, so a 2.5 GB
/// file or a file that grows while it is read costs at most the limit in memory.
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
            /// The path is not a regular file: a device node, a pipe or a socket
            /// (`kind` says which), which could block or never end.
            case notARegularFile(kind: String)
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
            case .notARegularFile(let kind): "is \(kind), not a regular file"
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

    /// Opens the file at `path` for reading, if it is a regular file: the one
    /// way every reader opens a file. It is opened without blocking (a FIFO
    /// would wait for a writer for ever) and checked with `fstat` on the
    /// opened descriptor (no race with a rename), then set to blocking reads.
    ///
    /// - Returns: the handle and the file's size in bytes.
    /// - Throws: ``ReadError`` for a missing file, a directory, a device
    ///   node, pipe or socket, or a file that cannot be opened.
    public static func open(_ path: String) throws(ReadError) -> (handle: FileHandle, size: Int) {
        func failure(_ problem: ReadError.Problem) -> ReadError { ReadError(path: path, problem: problem) }
        let descriptor = openWithoutBlocking(path)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw failure(.missing)
            case EISDIR: throw failure(.directory)
            default: throw failure(.unreadable(reason: String(cString: strerror(code))))
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw failure(.unreadable(reason: reason))
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(descriptor)
            switch type {
            case S_IFDIR: throw failure(.directory)
            case S_IFCHR: throw failure(.notARegularFile(kind: "a character device"))
            case S_IFBLK: throw failure(.notARegularFile(kind: "a block device"))
            case S_IFIFO: throw failure(.notARegularFile(kind: "a pipe (FIFO)"))
            case S_IFSOCK: throw failure(.notARegularFile(kind: "a socket"))
            default: throw failure(.notARegularFile(kind: "a special file"))
            }
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return (FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), Int(status.st_size))
    }

    /// The contents of the file at `path`, which must be a regular file
    /// (``open(_:)``) of at most `maximumBytes` bytes.
    ///
    /// - Throws: ``ReadError`` for a missing file, a directory, a device or
    ///   pipe, a file that cannot be read, or one over the limit (checked before reading).
    public static func read(_ path: String, maximumBytes: Int) throws(ReadError) -> Data {
        func failure(_ problem: ReadError.Problem) -> ReadError { ReadError(path: path, problem: problem) }
        let (handle, size) = try open(path)
        defer { try? handle.close() }
        if size > maximumBytes { throw failure(.tooLarge(bytes: size, limit: maximumBytes)) }
        let data: Data
        do { data = try handle.read(upToCount: maximumBytes + 1) ?? Data() } catch {
            throw failure(.unreadable(reason: (error as NSError).localizedDescription))
        }
        // A file that grew while it was read.
        guard data.count <= maximumBytes else { throw failure(.tooLarge(bytes: nil, limit: maximumBytes)) }
        return data
    }

    /// The contents of the file at `url` (see ``read(_:maximumBytes:)``).
    public static func read(_ url: URL, maximumBytes: Int) throws(ReadError) -> Data {
        try read(url.path, maximumBytes: maximumBytes)
    }
}

/// `open(2)` for reading, without blocking and closed on exec (outside
/// ``InputFile``, whose own `open` would hide the C function).
private func openWithoutBlocking(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
}
