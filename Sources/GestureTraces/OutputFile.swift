import Foundation
import InputChecks
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Writes an output file: the one way every command writes what it makes
/// (`-o`, `--export`, `--library`, the configuration), the mirror of
/// ``InputFile``.
///
/// What is at the path decides how it is written:
/// - a regular file, or nothing: the new bytes go to a temporary file in
///   the same folder, which is then renamed over the path (atomically: a
///   reader sees the old file or the new one, never half of one; the old
///   file's permissions are kept);
/// - a symbolic link: it is followed, and the file it names is replaced as
///   above; the link stays a link;
/// - `-`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` and character devices
///   (`/dev/null`, a terminal): written as a stream, nothing renamed;
/// - a pipe (FIFO): written as a stream when a reader has it open, refused
///   at once when none has (it would wait for ever);
/// - a directory, a block device or a socket: refused. Nothing is ever
///   renamed over a device node, a socket or a FIFO.
///
///     try OutputFile.write(Data("{}".utf8), to: "library.json")
///     try OutputFile.write(config, to: "~/.config/gestures/config.yaml", backup: "config.yaml~")
///
/// Paths are taken apart with ``PathName`` (no Foundation path call, which
/// traps on some user paths).
///
/// The corresponding C functions are `lstat`, `stat`, `readlink`, `open`,
/// `fsync`, `link` and `rename`.
public enum OutputFile {
    /// Why a file cannot be written, naming the path as given.
    public struct WriteError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The path as given.
        public var path: String
        /// What is wrong.
        public var problem: Problem

        /// An error about `path`.
        public init(path: String, problem: Problem) {
            self.path = path
            self.problem = problem
        }

        /// What can be wrong with an output path.
        public enum Problem: Hashable, Sendable {
            /// The path is a directory.
            case directory
            /// The folder the file would go in does not exist (or is not a folder).
            case noFolder(String)
            /// The folder the file would go in cannot be written.
            case folderNotWritable(String)
            /// The path is something no file is written over: `kind` says
            /// what (a block device, a socket, a pipe with no reader).
            case notWritable(kind: String)
            /// The path's symbolic links go round, or are too many.
            case linkLoop
            /// Writing failed (`reason`, from the system).
            case failed(reason: String)
        }

        /// What is wrong and what to do, with the path: one sentence.
        public var description: String {
            switch problem {
            case .directory:
                let shown = path.hasSuffix("/") ? path : path + "/"
                return "\(path) is a directory: give the name of a file to write (\(shown)NAME)"
            case .noFolder(let folder):
                return "cannot write \(path): there is no folder \(folder); create it first"
            case .folderNotWritable(let folder):
                return "cannot write \(path): the folder \(folder) is not writable"
            case .notWritable(let kind):
                return "cannot write \(path): it is \(kind), and only a file, a character device or '-' is written; give the name of a file"
            case .linkLoop:
                return "cannot write \(path): its symbolic links go round in a loop (or there are more than \(OutputFile.maximumLinks))"
            case .failed(let reason):
                return "cannot write \(path): \(reason)"
            }
        }
    }

    /// How a path is written, decided by what is there.
    public enum Destination: Hashable, Sendable {
        /// Standard output (`-`, `/dev/stdout`).
        case standardOutput
        /// A stream opened at the path (a character device, a descriptor
        /// name such as `/dev/fd/3`, a pipe with a reader); nothing is renamed.
        case stream(String)
        /// A regular file (or none yet) at `path`, after following links:
        /// replaced atomically in its own folder.
        case file(String)
    }

    /// The most symbolic links followed: Linux's own limit.
    public static let maximumLinks = 40

    /// Descriptor names, written as streams whatever the descriptor is.
    private static func isDescriptorName(_ path: String) -> Bool {
        for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
            return !path.dropFirst(prefix.count).isEmpty && path.dropFirst(prefix.count).allSatisfy(\.isASCII)
                && path.dropFirst(prefix.count).allSatisfy(\.isNumber)
        }
        return ["/dev/stdout", "/dev/stderr", "/dev/tty"].contains(path)
    }

    /// How `path` would be written, checked now (before any long work):
    /// the folder exists and can be written, and nothing there is of a kind
    /// that is never written.
    ///
    /// - Throws: ``WriteError`` with the sentence to show.
    public static func destination(of path: String) throws(WriteError) -> Destination {
        func failure(_ problem: WriteError.Problem) -> WriteError { WriteError(path: path, problem: problem) }
        if path.isEmpty { throw failure(.failed(reason: "the path is empty")) }
        if path == "-" || path == "/dev/stdout" || path == "/proc/self/fd/1" || path == "/dev/fd/1" { return .standardOutput }
        if isDescriptorName(path) { return .stream(path) }
        var target = path
        for _ in 0...maximumLinks {
            var info = stat()
            guard lstat(target, &info) == 0 else {
                let code = errno
                if code == ENOTDIR || code == ENOENT && PathName.namesFolder(target) {
                    // `x/y` where x is a file, or `out/` where there is no out.
                    let folder =
                        target.hasSuffix("/") ? String(PathName.trimmingTrailingSlashes(target)) : PathName.folderOrCurrent(of: target)
                    throw failure(.noFolder(folder))
                }
                guard code == ENOENT else { throw failure(.failed(reason: String(cString: strerror(code)))) }
                try checkFolder(of: target, path: path)
                return .file(target)
            }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                guard let next = linkTarget(target) else { throw failure(.failed(reason: String(cString: strerror(errno)))) }
                target = next.hasPrefix("/") ? next : PathName.joined(PathName.folder(of: target), next)
                continue
            case S_IFREG:
                if PathName.namesFolder(path) { throw failure(.directory) }
                try checkFolder(of: target, path: path)
                return .file(target)
            case S_IFDIR: throw failure(.directory)
            case S_IFCHR: return .stream(path)
            case S_IFBLK: throw failure(.notWritable(kind: "a block device"))
            case S_IFSOCK: throw failure(.notWritable(kind: "a socket"))
            case S_IFIFO:
                // Open it without blocking to see whether anyone reads it.
                let descriptor = openForWriting(target, O_NONBLOCK)
                guard descriptor >= 0 else { throw failure(.notWritable(kind: "a pipe (FIFO) that nothing reads")) }
                close(descriptor)
                return .stream(path)
            default: throw failure(.notWritable(kind: "a special file"))
            }
        }
        throw failure(.linkLoop)
    }

    /// Checks that `path` can be written (``destination(of:)``), before any long work.
    public static func check(_ path: String) throws(WriteError) {
        _ = try destination(of: path)
    }

    /// The folder `target` goes in must exist, be a folder, and be writable.
    private static func checkFolder(of target: String, path: String) throws(WriteError) {
        let folder = PathName.folderOrCurrent(of: target)
        var info = stat()
        guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw WriteError(path: path, problem: .noFolder(folder))
        }
        guard access(folder, W_OK) == 0 else { throw WriteError(path: path, problem: .folderNotWritable(folder)) }
    }

    /// What the symbolic link at `path` points at, or nil (errno set).
    private static func linkTarget(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: pointer.count) { readlink(path, $0, pointer.count - 1) }
        }
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// Writes `data` to `path` as its ``destination(of:)`` says. With
    /// `backup`, a file being replaced is first kept under that name (in the
    /// same folder when `backup` has no folder of its own). With `flush`
    /// (the default), a file is on the disk before it is renamed into place,
    /// so that a crash leaves the old file or the new one, never an empty one.
    ///
    /// - Throws: ``WriteError``; a failed write leaves the old file as it was.
    public static func write(_ data: Data, to path: String, backup: String? = nil, flush: Bool = true) throws(WriteError) {
        let writer = try open(path, backup: backup)
        try writer.write(data)
        try writer.commit(flush: flush)
    }

    /// Opens `path` to be written piece by piece (a recording as it comes);
    /// the file appears only at ``Writer/commit()``.
    public static func open(_ path: String, backup: String? = nil) throws(WriteError) -> Writer {
        switch try destination(of: path) {
        case .standardOutput:
            return Writer(path: path, descriptor: STDOUT_FILENO, temporary: nil, target: nil, backup: nil)
        case .stream(let stream):
            let descriptor = openForWriting(stream, O_TRUNC)
            guard descriptor >= 0 else { throw WriteError(path: path, problem: .failed(reason: String(cString: strerror(errno)))) }
            return Writer(path: path, descriptor: descriptor, temporary: nil, target: nil, backup: nil)
        case .file(let target):
            let folder = PathName.folderOrCurrent(of: target)
            var existing = stat()
            let mode: mode_t = stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : 0o666
            for _ in 0..<100 {
                let name = OutputFile.temporaryName(beside: target)
                let descriptor = createExclusively(name, mode: mode)
                if descriptor < 0 && errno == EEXIST { continue }
                guard descriptor >= 0 else {
                    throw WriteError(
                        path: path, problem: .failed(reason: "cannot create a file in \(folder) (\(String(cString: strerror(errno))))"))
                }
                // The umask applied at creation; the old file's mode is kept as it was.
                if mode != 0o666 { _ = fchmod(descriptor, mode) }
                let backupPath = backup.map { PathName.folder(of: $0).isEmpty ? PathName.joined(PathName.folder(of: target), $0) : $0 }
                return Writer(path: path, descriptor: descriptor, temporary: name, target: target, backup: backupPath)
            }
            throw WriteError(path: path, problem: .failed(reason: "cannot create a temporary file in \(folder)"))
        }
    }

    /// An output being written: bytes go to ``write(_:)``, and the file
    /// appears (or the stream ends) at ``commit()``. Dropped without a
    /// commit, a temporary file is removed and the old file stays.
    public final class Writer {
        /// The path as given.
        public let path: String
        private var descriptor: Int32
        private let temporary: String?
        private let target: String?
        private let backup: String?

        fileprivate init(path: String, descriptor: Int32, temporary: String?, target: String?, backup: String?) {
            self.path = path
            self.descriptor = descriptor
            self.temporary = temporary
            self.target = target
            self.backup = backup
        }

        deinit { discard() }

        /// A handle on the output, for writers that take one (``TraceWriter``);
        /// it does not close the output, ``commit()`` does.
        public var fileHandle: FileHandle { FileHandle(fileDescriptor: descriptor, closeOnDealloc: false) }

        /// Whether the bytes go to a stream (standard output, a device, a
        /// pipe) rather than to a file that is renamed into place.
        public var isStream: Bool { temporary == nil }

        private func failure(_ reason: String) -> WriteError { WriteError(path: path, problem: .failed(reason: reason)) }

        /// Writes all of `data`.
        public func write(_ data: Data) throws(WriteError) {
            guard descriptor >= 0 else { throw failure("it is already closed") }
            let fd = descriptor
            if let failed = data.withUnsafeBytes({ writeAll(fd, $0) }) { throw failure(String(cString: strerror(failed))) }
        }

        /// Finishes the output: a file is flushed to disk (unless `flush` is
        /// false) and renamed over the path (after keeping the old one as the
        /// backup, when asked).
        public func commit(flush: Bool = true) throws(WriteError) {
            guard descriptor >= 0 else { return }
            defer { descriptor = -1 }
            guard let temporary, let target else {
                if descriptor != STDOUT_FILENO { close(descriptor) }
                return
            }
            let synced = !flush || fsync(descriptor) == 0 ? nil : errno
            close(descriptor)
            if let synced {
                unlink(temporary)
                throw failure(String(cString: strerror(synced)))
            }
            if let backup, access(target, F_OK) == 0 {
                let kept = OutputFile.temporaryName(beside: backup)
                guard link(target, kept) == 0 || OutputFile.copy(target, to: kept), rename(kept, backup) == 0 else {
                    let reason = String(cString: strerror(errno))
                    unlink(kept)
                    unlink(temporary)
                    throw failure("cannot keep the old file as \(backup) (\(reason))")
                }
            }
            // Whatever took the path's place while the file was written, only a file is renamed over.
            var now = stat()
            if lstat(target, &now) == 0, now.st_mode & S_IFMT != S_IFREG {
                unlink(temporary)
                throw WriteError(path: path, problem: .notWritable(kind: "no longer a regular file"))
            }
            guard rename(temporary, target) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw failure(reason)
            }
        }

        /// Abandons the output: a temporary file is removed, the old file stays.
        public func discard() {
            guard descriptor >= 0 else { return }
            if descriptor != STDOUT_FILENO { close(descriptor) }
            descriptor = -1
            if let temporary { unlink(temporary) }
        }
    }

    /// A new name for a temporary file in the folder of `path`: `.gestures-1f2e3d4c.tmp`.
    fileprivate static func temporaryName(beside path: String) -> String {
        PathName.joined(PathName.folder(of: path), ".gestures-\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).tmp")
    }

    /// Copies the regular file `source` to a new file `destination` (for a
    /// backup where the file system has no hard links).
    fileprivate static func copy(_ source: String, to destination: String) -> Bool {
        guard let data = try? InputFile.read(source, maximumBytes: 1 << 30) else { return false }
        let descriptor = createExclusively(destination, mode: 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        if stat(source, &status) == 0 { _ = fchmod(descriptor, status.st_mode & 0o7777) }
        return data.withUnsafeBytes { writeAll(descriptor, $0) } == nil
    }
}

/// Writes all of `bytes` to `descriptor`; the errno of a failure, or nil.
private func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    do {
        try FileDescriptor(rawValue: descriptor).writeAll(bytes)
        return nil
    } catch {
        return error.rawValue
    }
}

/// `open(2)` for writing an existing stream (no creation), closed on exec.
private func openForWriting(_ path: String, _ flags: Int32) -> Int32 {
    open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | flags)
}

/// `open(2)` creating a new file, failing when anything is there (a link included).
private func createExclusively(_ path: String, mode: mode_t) -> Int32 {
    open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
}
