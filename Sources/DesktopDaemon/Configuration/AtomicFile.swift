import Foundation

/// Writes a file so that it is either the old one or the new one, never
/// half of either: the bytes go to a file beside it, are flushed, and that
/// file is renamed over it. A symlink is followed (the file it names is
/// replaced, the link kept); with `backup`, the old file is kept as `PATH.bak`.
public enum AtomicFile {
    /// Why the file could not be written: one sentence.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What went wrong, and where.
        public var description: String
    }

    /// Writes `data` to `path` (see ``AtomicFile``); returns the backup's path when one was kept.
    /// The corresponding C function is `rename`.
    @discardableResult
    public static func write(_ data: Data, to path: String, backup: Bool = false) throws(Failure) -> String? {
        let target =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { link in
                link.hasPrefix("/") ? link : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(link)
            } ?? path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue,
                (try? FileManager.default.attributesOfItem(atPath: target)[.type] as? FileAttributeType) == .typeRegular
            else { throw Failure(description: "\(target) is not a regular file, so it is not replaced") }
        }
        let parent = (target as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        if !FileManager.default.fileExists(atPath: folder) {
            do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
                throw Failure(description: "cannot make the folder \(folder): \(error.localizedDescription)")
            }
        }
        let temporary = folder + "/." + (target as NSString).lastPathComponent + ".\(ProcessInfo.processInfo.processIdentifier).new"
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forUpdatingAtPath: temporary)
        else { throw Failure(description: "cannot write \(temporary)") }
        do {
            try handle.synchronize()
            try handle.close()
        } catch { throw Failure(description: "cannot write \(temporary): \(error.localizedDescription)") }
        var kept: String?
        if backup, FileManager.default.fileExists(atPath: target) {
            kept = target + ".bak"
            try? FileManager.default.removeItem(atPath: kept!)
            do { try FileManager.default.copyItem(atPath: target, toPath: kept!) } catch {
                throw Failure(description: "cannot keep the old \(target) as \(kept!): \(error.localizedDescription)")
            }
        }
        guard rename(temporary, target) == 0 else {
            throw Failure(description: "cannot replace \(target): \(String(cString: strerror(errno)))")
        }
        return kept
    }
}
