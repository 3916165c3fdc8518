import Foundation

/// What identifies one version of a file without reading it: its inode,
/// size and modification time, or that it is missing.
public struct FileStamp: Hashable, Sendable {
    /// The inode, size and modification time in nanoseconds; nil when missing.
    public var facts: [Int64]?

    /// The stamp of `path` now. The corresponding C function is `stat`.
    public init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { facts = nil; return }
        facts = [
            Int64(info.st_ino), Int64(info.st_size),
            Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
        ]
    }
}
