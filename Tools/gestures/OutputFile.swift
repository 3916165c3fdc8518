import CommandLineKit
import Foundation

/// Files the commands write (`-o`, `--export`, `--file`), checked before
/// anything is written: a directory or a missing folder is one sentence.
enum OutputFile {
    /// Checks that a file can be written at `path`.
    ///
    /// - Throws: a ``CommandFailure`` naming the path when it is a directory
    ///   or its folder does not exist.
    static func check(_ path: String) throws(CommandFailure) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure(
                "\(path) is a directory: give the name of a file to write (\(path.hasSuffix("/") ? path : path + "/")NAME)")
        }
        let folder = (path as NSString).deletingLastPathComponent
        guard folder.isEmpty || FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue else {
            throw CommandFailure("cannot write \(path): there is no folder \(folder)")
        }
    }
}
