import Foundation
import GestureTraces
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The one output writer, over every kind of path: files replaced in their
/// folder, links followed and kept, streams written as streams, and nothing
/// renamed over a FIFO, a socket or a device. Nothing here touches a real
/// device node but /dev/null, which is written as a stream.
@Suite("OutputFile: every kind of output path")
struct OutputFileTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("output-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder + "/" + name }
    func text(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }
    func type(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }
    /// The names in the folder (a temporary file left behind would show).
    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }
    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    @Test("a new file is created; an existing one is replaced by another file, its mode kept, nothing left beside it")
    func regularFiles() throws {
        defer { remove() }
        try OutputFile.write(Data("one".utf8), to: path("out.json"))
        #expect(try text("out.json") == "one")
        chmod(path("out.json"), 0o600)
        var before = stat()
        stat(path("out.json"), &before)
        try OutputFile.write(Data("two".utf8), to: path("out.json"))
        var after = stat()
        stat(path("out.json"), &after)
        #expect(try text("out.json") == "two")
        #expect(after.st_ino != before.st_ino, "renamed into place, not written over")
        #expect(after.st_mode & 0o777 == 0o600)
        #expect(try names() == ["out.json"])
    }

    @Test("a symbolic link is followed: the file it names is replaced and the link stays a link")
    func symbolicLinks() throws {
        defer { remove() }
        try FileManager.default.createDirectory(atPath: path("dotfiles"), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: path("dotfiles/library.json")))
        // A relative link, through a second link.
        symlink("dotfiles/library.json", path("first"))
        symlink("first", path("library.json"))
        try OutputFile.write(Data("new".utf8), to: path("library.json"))
        #expect(type(path("library.json")) == S_IFLNK && type(path("first")) == S_IFLNK)
        #expect(try text("dotfiles/library.json") == "new")
        #expect(try names() == ["dotfiles", "first", "library.json"])
        // A link to nothing yet: the file it names is created.
        symlink("dotfiles/new.json", path("dangling"))
        try OutputFile.write(Data("made".utf8), to: path("dangling"))
        #expect(type(path("dangling")) == S_IFLNK)
        #expect(try text("dotfiles/new.json") == "made")
    }

    @Test("links that go round are one sentence")
    func linkLoop() throws {
        defer { remove() }
        symlink("b", path("a"))
        symlink("a", path("b"))
        #expect(throws: OutputFile.WriteError(path: path("a"), problem: .linkLoop)) { try OutputFile.write(Data(), to: path("a")) }
    }

    @Test("a FIFO nothing reads is refused at once and stays a FIFO")
    func fifoWithoutReader() throws {
        defer { remove() }
        #expect(mkfifo(path("pipe"), 0o600) == 0)
        let error = #expect(throws: OutputFile.WriteError.self) { try OutputFile.write(Data("x".utf8), to: path("pipe")) }
        #expect(error?.description.contains("is a pipe (FIFO) that nothing reads") == true, "\(String(describing: error))")
        #expect(type(path("pipe")) == S_IFIFO)
        #expect(try names() == ["pipe"])
    }

    @Test("a FIFO that something reads is written as a stream")
    func fifoWithReader() throws {
        defer { remove() }
        #expect(mkfifo(path("pipe"), 0o600) == 0)
        let reader = open(path("pipe"), O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        #expect(try OutputFile.destination(of: path("pipe")) == .stream(path("pipe")))
        try OutputFile.write(Data("through".utf8), to: path("pipe"))
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = read(reader, &buffer, buffer.count)
        #expect(count == 7 && String(decoding: buffer[0..<max(0, count)], as: UTF8.self) == "through")
        #expect(type(path("pipe")) == S_IFIFO)
    }

    @Test("a Unix socket is refused and stays a socket")
    func socketIsRefused() throws {
        defer { remove() }
        let socketPath = path("s")
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in socketPath.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0, "the test binds its own socket")
        #expect(throws: OutputFile.WriteError(path: socketPath, problem: .notWritable(kind: "a socket"))) {
            try OutputFile.write(Data("x".utf8), to: socketPath)
        }
        #expect(type(socketPath) == S_IFSOCK)
    }

    @Test("a character device named on purpose is written as a stream, and stays a device")
    func characterDevice() throws {
        defer { remove() }
        #expect(try OutputFile.destination(of: "/dev/null") == .stream("/dev/null"))
        try OutputFile.write(Data("discarded".utf8), to: "/dev/null")
        #expect(type("/dev/null") == S_IFCHR)
    }

    @Test("'-' and the descriptor names are streams", arguments: ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
    func standardOutput(path: String) throws {
        defer { remove() }
        #expect(try OutputFile.destination(of: path) == .standardOutput)
    }

    @Test("a directory, a missing folder and a path through a file are one sentence each, and nothing is written")
    func refusals() throws {
        defer { remove() }
        try Data("f".utf8).write(to: URL(fileURLWithPath: path("file")))
        #expect(throws: OutputFile.WriteError(path: folder, problem: .directory)) { try OutputFile.write(Data(), to: folder) }
        #expect(throws: OutputFile.WriteError(path: path("none/x.json"), problem: .noFolder(path("none")))) {
            try OutputFile.write(Data(), to: path("none/x.json"))
        }
        #expect(throws: OutputFile.WriteError(path: path("file/x.json"), problem: .noFolder(path("file")))) {
            try OutputFile.write(Data(), to: path("file/x.json"))
        }
        #expect(throws: OutputFile.WriteError(path: path("new/"), problem: .noFolder(path("new")))) {
            try OutputFile.write(Data(), to: path("new/"))
        }
        #expect(try names() == ["file"])
    }

    @Test("with a backup, the old file is kept under its name and the new one replaces it")
    func backup() throws {
        defer { remove() }
        try OutputFile.write(Data("first".utf8), to: path("config.yaml"), backup: "config.yaml~")
        #expect(try names() == ["config.yaml"], "no backup of a file that was not there")
        try OutputFile.write(Data("second".utf8), to: path("config.yaml"), backup: "config.yaml~")
        #expect(try text("config.yaml") == "second")
        #expect(try text("config.yaml~") == "first")
        try OutputFile.write(Data("third".utf8), to: path("config.yaml"), backup: "config.yaml~")
        #expect(try text("config.yaml~") == "second")
        #expect(try names() == ["config.yaml", "config.yaml~"])
    }

    @Test("a writer dropped without its commit leaves the old file and nothing beside it")
    func discarded() throws {
        defer { remove() }
        try OutputFile.write(Data("kept".utf8), to: path("record.jsonl"))
        do {
            let writer = try OutputFile.open(path("record.jsonl"))
            try writer.write(Data("half".utf8))
            #expect(!writer.isStream)
        }
        #expect(try text("record.jsonl") == "kept")
        #expect(try names() == ["record.jsonl"])
    }
}
