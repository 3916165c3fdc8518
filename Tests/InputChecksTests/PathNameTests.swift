import InputChecks
import Testing

/// User paths taken apart as text, whatever they are: nothing traps, and the parts put back give the path.
@Suite struct PathNameTests {
    @Test(arguments: [
        ("out/picture.svg", "out", "picture.svg", "svg"),
        ("l", "", "l", ""),
        ("/picture.svg", "/", "picture.svg", "svg"),
        ("/", "/", "/", ""),
        ("//", "/", "/", ""),
        (".", "", ".", ""),
        ("..", "", "..", ""),
        ("a/..", "a", "..", ""),
        ("out/pictures/", "out", "pictures", ""),
        ("out//pictures", "out", "pictures", ""),
        ("trace.JSONL", "", "trace.JSONL", "JSONL"),
        (".bashrc", "", ".bashrc", ""),
        ("picture.", "", "picture.", ""),
        ("a.b/c", "a.b", "c", ""),
        ("", "", "", ""),
    ])
    func partsOfAPath(path: String, folder: String, last: String, ext: String) {
        #expect(PathName.folder(of: path) == folder)
        #expect(PathName.lastComponent(of: path) == last)
        #expect(PathName.pathExtension(of: path) == ext)
    }

    /// Generated paths: every one-character path, dots and slashes, 4,096 bytes, the
    /// replacement character invalid UTF-8 arguments arrive as, a combining mark after a slash.
    static let generated: [String] = {
        var paths = (0x20..<0x7F).map { String(UnicodeScalar(UInt8($0))) }
        paths += [".", "..", "/", "//", "///", "./", "../", "a/", "a//", "/a/", "a/./b", "a/../", "x.", ".x.", "a/.b"]
        paths += [String(repeating: "a", count: 4_096), String(repeating: "a/", count: 2_048), "/" + String(repeating: "é", count: 2_048)]
        paths += ["\u{FFFD}", "a\u{FFFD}b/\u{FFFD}.\u{FFFD}", "/\u{0301}", "a/\u{0301}.svg", "\r\n/\r\n", "\u{0}", "a\u{0}/b"]
        return paths
    }()

    @Test("no generated path traps, and the folder and last component give the path back", arguments: generated)
    func generatedPathsDoNotTrap(path: String) {
        let folder = PathName.folder(of: path)
        let last = PathName.lastComponent(of: path)
        let ext = PathName.pathExtension(of: path)
        _ = PathName.deletingExtension(of: path)
        _ = PathName.namesFolder(path)
        #expect(ext.isEmpty || last.hasSuffix("." + ext))
        let trimmed = String(PathName.trimmingTrailingSlashes(path))
        if trimmed != "/" && !path.contains("//") && !path.isEmpty {
            #expect(PathName.joined(folder, last) == trimmed, "\(path.prefix(40))")
        }
        #expect(PathName.folderOrCurrent(of: path).isEmpty == false)
    }

    @Test func joinedKeepsAbsoluteNamesAndOneSlash() {
        #expect(PathName.joined("", "lib.json") == "lib.json")
        #expect(PathName.joined("cfg", "lib.json") == "cfg/lib.json")
        #expect(PathName.joined("cfg/", "lib.json") == "cfg/lib.json")
        #expect(PathName.joined("cfg", "/abs/lib.json") == "/abs/lib.json")
    }

    @Test("~ is the home folder as a shell makes it: $HOME when set, else the account's")
    func tildeIsHome() {
        #expect(PathName.expandingTilde("~/t.json", environment: ["HOME": "/home/ada"]) == "/home/ada/t.json")
        #expect(PathName.expandingTilde("~", environment: ["HOME": "/home/ada/"]) == "/home/ada")
        #expect(PathName.expandingTilde("lib/~t.json", environment: ["HOME": "/home/ada"]) == "lib/~t.json")
        #expect(PathName.expandingTilde("/abs/t.json", environment: ["HOME": "/home/ada"]) == "/abs/t.json")
        // A relative or missing HOME is no home: the account's is used.
        let account = PathName.expandingTilde("~/t.json", environment: [:])
        #expect(account.hasPrefix("/") && account.hasSuffix("/t.json"))
        #expect(PathName.expandingTilde("~/t.json", environment: ["HOME": "relative"]) == account)
    }

    @Test func deletingExtensionKeepsTheFolder() {
        #expect(PathName.deletingExtension(of: "out/confusion.svg") == "out/confusion")
        #expect(PathName.deletingExtension(of: "out.d/confusion") == "out.d/confusion")
        #expect(PathName.deletingExtension(of: ".bashrc") == ".bashrc")
    }
}
