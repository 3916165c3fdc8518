import CommandLineKit
import Foundation
import GesturePictures
import GestureTraces
import InputChecks

/// Where a picture goes and as what: an SVG or PNG file, or standard output
/// (`-`), for the commands that draw (`render`, `recognize --explain -o`,
/// `eval --confusion`). PNG goes through `rsvg-convert`.
struct PictureOutput {
    /// The file formats a picture is written in.
    enum Format: String, CaseIterable, Sendable {
        case svg
        case png

        /// The format a file name's extension names: `.svg` or `.png`, any case.
        init?(pathExtension: String) {
            self.init(rawValue: pathExtension.lowercased())
        }
    }

    /// The file to write, or `-` for standard output.
    var path: String
    /// SVG text or PNG pixels.
    var format: Format
    /// With PNG: pixels per SVG unit.
    var zoom: Double = 1

    /// `path` in `format`, or in the format its extension names (SVG for `-`).
    ///
    /// - Throws: a usage error naming `option` when neither tells the format.
    init(path: String, format: Format?, zoom: Double = 1, option: String) throws(UsageError) {
        self.path = path
        self.zoom = zoom
        if path != "-" && PathName.namesFolder(path) {
            throw UsageError(
                "\(option) \(path) names a folder; give the name of a picture file to write (\(path.hasSuffix("/") ? path : path + "/")NAME.svg)"
            )
        }
        if let format {
            self.format = format
        } else if path == "-" {
            self.format = .svg
        } else if let fromExtension = Format(pathExtension: PathName.pathExtension(of: path)) {
            self.format = fromExtension
        } else {
            let ext = PathName.pathExtension(of: path)
            throw UsageError(
                "cannot tell the picture format from \(ext.isEmpty ? "'\(path)', which has no extension" : "'.\(ext)'"); "
                    + "name the \(option) file .svg or .png")
        }
    }

    /// The same output for one of several pictures: `confusion.svg` becomes
    /// `confusion-E3.svg` for suffix `E3` (standard output stays itself).
    func suffixed(_ suffix: String) -> PictureOutput {
        guard path != "-" else { return self }
        let ext = PathName.pathExtension(of: path)
        let stem = PathName.deletingExtension(of: path)
        var copy = self
        copy.path = stem + "-" + suffix + (ext.isEmpty ? "" : "." + ext)
        return copy
    }

    /// Fails now, before any long work, when the picture could not be
    /// written later: no `rsvg-convert` for a PNG, or no folder to write into.
    func checkWritable() throws {
        if format == .png && SVGRasterizer() == nil { throw CommandFailure(PictureError.converterMissing.description) }
        try OutputFile.check(path)
    }

    /// Writes `picture` through ``OutputFile`` (a file atomically, so a
    /// failed write leaves no half file; `-` and devices as a stream).
    func write(_ picture: some SVGPicture) throws {
        let data: Data
        switch format {
        case .svg:
            data = picture.svgData
        case .png:
            guard let rasterizer = SVGRasterizer() else { throw CommandFailure(PictureError.converterMissing.description) }
            do { data = try rasterizer.png(from: picture.svg, zoom: zoom) } catch {
                throw CommandFailure(error.description)
            }
        }
        try OutputFile.write(data, to: path)
    }
}
