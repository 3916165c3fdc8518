import Foundation

/// The parts of a file path as text, for paths that came from the user:
/// pure string operations that cannot trap, whatever the path (one
/// character, `.`, `..`, `/`, trailing slashes, 4,096 bytes, the
/// replacement characters of invalid UTF-8). Foundation's
/// `deletingLastPathComponent` traps on some of these, so every path
/// operation on user input goes through here.
///
/// Slashes are the only separators; nothing is resolved (`..` stays `..`)
/// and nothing touches the file system.
///
///     PathName.folder(of: "out/picture.svg")        // "out"
///     PathName.folder(of: "l")                      // ""
///     PathName.lastComponent(of: "out/pictures/")   // "pictures"
///     PathName.pathExtension(of: "trace.JSONL")     // "JSONL"
public enum PathName {
    /// The path without its trailing slashes (`/` stays `/`).
    public static func trimmingTrailingSlashes(_ path: String) -> Substring {
        let scalars = path.unicodeScalars
        var end = scalars.endIndex
        while end > scalars.startIndex, scalars[scalars.index(before: end)] == "/" { end = scalars.index(before: end) }
        if end == scalars.startIndex && !path.isEmpty { return Substring(scalars.prefix(1)) }
        return Substring(scalars[scalars.startIndex..<end])
    }

    /// The folder `path` names its last component in: `out` for
    /// `out/picture.svg`, `/` for `/picture.svg` and for `/`, and the empty
    /// string for `picture.svg` (the current folder, see ``folderOrCurrent(of:)``).
    /// Slashes are found among the Unicode scalars, so a combining mark after
    /// one does not hide it.
    public static func folder(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path).unicodeScalars
        guard String(trimmed) != "/" else { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var end = slash
        // `a//b`: the folder is `a`.
        while end > trimmed.startIndex, trimmed[trimmed.index(before: end)] == "/" { end = trimmed.index(before: end) }
        return end == trimmed.startIndex ? "/" : String(trimmed[trimmed.startIndex..<end])
    }

    /// ``folder(of:)``, with `.` for a path in the current folder.
    public static func folderOrCurrent(of path: String) -> String {
        let folder = folder(of: path)
        return folder.isEmpty ? "." : folder
    }

    /// The last component of `path`: `picture.svg` for `out/picture.svg`,
    /// `pictures` for `out/pictures/`, `/` for `/`, the empty string for the empty path.
    public static func lastComponent(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path).unicodeScalars
        guard String(trimmed) != "/" else { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The extension of the last component, without its dot: `svg` for
    /// `picture.svg`; empty for `picture`, `.bashrc`, `picture.`, `.` and `..`.
    public static func pathExtension(of path: String) -> String {
        let name = lastComponent(of: path).unicodeScalars
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The path with its extension (and its dot) removed: `out/picture` for
    /// `out/picture.svg`; the path itself when it has none.
    public static func deletingExtension(of path: String) -> String {
        let ext = pathExtension(of: path)
        guard !ext.isEmpty, !path.hasSuffix("/") else { return path }
        let scalars = path.unicodeScalars
        return String(scalars.prefix(scalars.count - ext.unicodeScalars.count - 1))
    }

    /// `path` with a leading `~` or `~/` made the home folder, as a shell
    /// makes it: `$HOME` when it is set to an absolute path, else the
    /// account's home; `~user/` is that account's home. Other paths are
    /// returned as they are.
    ///
    ///     PathName.expandingTilde("~/t.json", environment: ["HOME": "/home/ada"])   // /home/ada/t.json
    public static func expandingTilde(_ path: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard path.hasPrefix("~") else { return path }
        if path == "~" || path.hasPrefix("~/") {
            if let home = environment["HOME"], home.hasPrefix("/") {
                return String(trimmingTrailingSlashes(home)) + path.dropFirst()
            }
        }
        return (path as NSString).expandingTildeInPath
    }

    /// `name` inside `folder`: `out/picture.svg`; just `name` when `folder`
    /// is empty, and `name` itself when it is absolute.
    public static func joined(_ folder: String, _ name: String) -> String {
        if folder.isEmpty || name.unicodeScalars.first == "/" { return name }
        return folder.unicodeScalars.last == "/" ? folder + name : folder + "/" + name
    }

    /// Whether `path` names a folder by its form: it ends in `/`, `/.` or
    /// `/..`, or is `.` or `..` (the file system is not asked).
    public static func namesFolder(_ path: String) -> Bool {
        let scalars = path.unicodeScalars
        return scalars.last == "/" || scalars.elementsEqual(".".unicodeScalars) || scalars.elementsEqual("..".unicodeScalars)
            || String(scalars.suffix(2)) == "/." || String(scalars.suffix(3)) == "/.."
    }
}
