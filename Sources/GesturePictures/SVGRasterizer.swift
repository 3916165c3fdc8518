import Foundation
import GestureTraces
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
    /// The longest a conversion may run before it is stopped: 30 s (the
    /// largest picture allowed, 40 million pixels, takes a few seconds).
    public var deadline: Duration = .seconds(30)

    /// The rasterizer using the `rsvg-convert` found on `PATH`, or nil when there is none.
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let found = Self.find("rsvg-convert", path: environment["PATH"] ?? "/usr/bin:/bin") else { return nil }
        executable = found
    }

    /// A rasterizer running `executable`, stopped after `deadline`.
    public init(executable: URL, deadline: Duration = .seconds(30)) {
        self.executable = executable
        self.deadline = deadline
    }

    /// The most pixels a PNG may have: 40 million (160 MB as RGBA, which
    /// `rsvg-convert` holds whole).
    public static let maximumPixels = 40_000_000
    /// The longest side of a PNG, in pixels: cairo's own limit.
    public static let maximumSide = 32_767

    /// The size in pixels of the PNG of `svg` at `zoom`: its root element's
    /// `width` and `height` times `zoom`, rounded up; nil when the root gives
    /// no numeric size.
    public static func pixelSize(of svg: String, zoom: Double) -> (width: Double, height: Double)? {
        guard let start = svg.range(of: "<svg"), let end = svg[start.upperBound...].firstIndex(of: ">") else { return nil }
        let tag = svg[start.upperBound..<end]
        func attribute(_ name: String) -> Double? {
            guard let found = tag.range(of: " \(name)=\"") else { return nil }
            let rest = tag[found.upperBound...]
            guard let close = rest.firstIndex(of: "\""), let value = Double(rest[..<close]), value.isFinite, value >= 0 else { return nil }
            return value
        }
        guard let width = attribute("width"), let height = attribute("height") else { return nil }
        return ((width * zoom).rounded(.up), (height * zoom).rounded(.up))
    }

    /// The picture as PNG bytes, `zoom` times its size in pixels.
    ///
    /// - Throws: ``PictureError/pictureTooLarge(width:height:zoom:)`` before
    ///   anything runs when the PNG would pass ``maximumPixels`` or
    ///   ``maximumSide`` (or `zoom` is not a positive number),
    ///   ``PictureError/conversionFailed(_:)`` with rsvg-convert's
    ///   message, ``PictureError/conversionTimedOut(seconds:)`` when it
    ///   runs past ``deadline`` (it is then stopped), or
    ///   ``PictureError/converterMissing`` when it cannot be run.
    public func png(from svg: String, zoom: Double = 1) throws(PictureError) -> Data {
        let size = Self.pixelSize(of: svg, zoom: zoom)
        if !(zoom > 0 && zoom.isFinite)
            || size.map({
                $0.width > Double(Self.maximumSide) || $0.height > Double(Self.maximumSide)
                    || $0.width * $0.height > Double(Self.maximumPixels)
            }) == true
        {
            let clamp = { (value: Double) in value.isFinite && value < 1e12 ? Int(value) : Int(1e12) }
            throw .pictureTooLarge(width: clamp(size?.width ?? 0), height: clamp(size?.height ?? 0), zoom: zoom)
        }
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
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do { try process.run() } catch { throw .converterMissing }
        // Its messages are read beside it, so that a full pipe never holds it up.
        let collected = Collected()
        let read = DispatchSemaphore(value: 0)
        let reading = errors.fileHandleForReading
        DispatchQueue.global().async {
            collected.data = reading.readDataToEndOfFile()
            read.signal()
        }
        let seconds = Double(deadline.components.seconds) + Double(deadline.components.attoseconds) / 1e18
        if exited.wait(timeout: .now() + seconds) == .timedOut {
            process.terminate()
            if exited.wait(timeout: .now() + 1) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
            }
            throw .conversionTimedOut(seconds: max(1, Int(seconds.rounded())))
        }
        // A child of its own may hold the pipe open: its messages are not waited for past a second.
        let message = read.wait(timeout: .now() + 1) == .success ? collected.data : Data()
        // Read as every file is (a PNG of the most pixels allowed, stored raw, is 4 bytes a pixel).
        guard process.terminationStatus == 0, let png = try? InputFile.read(output.path, maximumBytes: 4 * Self.maximumPixels + (1 << 20))
        else {
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

    /// The messages read beside the running converter.
    private final class Collected: @unchecked Sendable {
        var data = Data()
    }

    private static func find(_ name: String, path: String) -> URL? {
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
