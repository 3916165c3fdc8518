import Foundation
import InputChecks

/// Converts SVG text to PNG with `rsvg-convert` (Debian's `librsvg2-bin`),
/// when it is installed.
///
///     if let rasterizer = SVGRasterizer() {
///         let png = try rasterizer.png(from: picture.svg)
///     }
public struct SVGRasterizer: Sendable {
    /// The `rsvg-convert` executable.
    public var executable: URL

    /// The rasterizer using the `rsvg-convert` found on `PATH`, or nil when there is none.
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let found = Self.find("rsvg-convert", path: environment["PATH"] ?? "/usr/bin:/bin") else { return nil }
        executable = found
    }

    /// A rasterizer running `executable`.
    public init(executable: URL) {
        self.executable = executable
    }

    /// The picture as PNG bytes, `zoom` times its size in pixels.
    ///
    /// - Throws: ``PictureError/conversionFailed(_:)`` with rsvg-convert's
    ///   message, or ``PictureError/converterMissing`` when it cannot be run.
    public func png(from svg: String, zoom: Double = 1) throws(PictureError) -> Data {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("gestures-picture-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        let input = directory.appendingPathComponent("picture.svg")
        let output = directory.appendingPathComponent("picture.png")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(svg.utf8).write(to: input)
        } catch {
            throw .conversionFailed("cannot write a temporary file in \(directory.deletingLastPathComponent().path)")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--format", "png", "--zoom", String(zoom), "--output", output.path, input.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { throw .converterMissing }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let png = try? Data(contentsOf: output) else {
            // rsvg-convert names its input and output: our temporary files, which mean nothing to the user.
            let text = String(decoding: message, as: UTF8.self)
                .replacingOccurrences(of: input.path, with: "the picture").replacingOccurrences(of: output.path, with: "the PNG")
                .replacingOccurrences(of: directory.path, with: "a temporary folder")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let firstLine = text.split(whereSeparator: \.isNewline).first.map { Excerpt.escaped($0, limit: 200) } ?? ""
            throw .conversionFailed(firstLine.isEmpty ? "exit status \(process.terminationStatus)" : firstLine)
        }
        return png
    }

    private static func find(_ name: String, path: String) -> URL? {
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
