import Foundation
import TestSupport

/// The repository's bundled recordings, found from this file's path, and a
/// place to keep the rendered pictures when `GESTURES_PICTURES_DIR` is set.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let recordings = root.appendingPathComponent("Recordings")

    /// The synthetic traces (not their expected outputs), by file name; an error when there is none.
    static func syntheticTraces() throws -> [String] {
        try TestFiles.names(
            in: recordings.appendingPathComponent("synthetic"), endingIn: ".jsonl", excluding: [".expected.jsonl"], minimum: 60)
    }

    static func synthetic(_ name: String) -> URL { recordings.appendingPathComponent("synthetic").appendingPathComponent(name) }

    /// The stroke files of Recordings/strokes; an error when there is none.
    static func strokeFiles() throws -> [String] {
        try TestFiles.names(in: recordings.appendingPathComponent("strokes"), endingIn: ".json", minimum: 4)
    }

    static func stroke(_ name: String) -> URL { recordings.appendingPathComponent("strokes").appendingPathComponent(name) }

    /// The shared evemu recordings (``SharedData``), as paths of `.events` files; empty when absent.
    static let sharedRecordings: [URL] = {
        guard let directory = SharedData.recordings else { return [] }
        return ["touchpads", "touchscreens"].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(".events") }.sorted()
                .map { directory.appendingPathComponent(folder).appendingPathComponent($0) }
        }
    }()

    /// Writes `svg` as NAME.svg into `$GESTURES_PICTURES_DIR` when it is set, to look at.
    static func keep(_ svg: String, as name: String) {
        guard let directory = ProcessInfo.processInfo.environment["GESTURES_PICTURES_DIR"], !directory.isEmpty else { return }
        let url = URL(fileURLWithPath: directory)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try? Data(svg.utf8).write(to: url.appendingPathComponent(name + ".svg"))
    }
}
