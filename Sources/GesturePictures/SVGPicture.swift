import Foundation
import InputChecks

/// A picture that writes itself as a standalone SVG document: plain SVG 1.1,
/// no scripts, no external fonts or images, a `<title>` on the document and
/// on every part a screen reader should name.
///
///     let picture = TemplateGallery(library: .dollarShapes)
///     try picture.svg.write(toFile: "gallery.svg", atomically: true, encoding: .utf8)
public protocol SVGPicture: Sendable {
    /// The picture as SVG text (UTF-8 XML, starting with the XML declaration).
    var svg: String { get }
}

extension SVGPicture {
    /// The picture as UTF-8 bytes, to write to a file.
    public var svgData: Data { Data(svg.utf8) }
}

/// Why a picture could not be made.
public enum PictureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The trace has no touchpad, touchscreen or mouse to draw.
    case noTouchDevice
    /// The device index asked for is not in the trace.
    case noSuchDevice(index: Int, count: Int)
    /// The device asked for is not a touchpad, touchscreen or mouse.
    case notATouchSurface(name: String)
    /// `rsvg-convert` is not on the `PATH`.
    case converterMissing
    /// `rsvg-convert` failed; its message.
    case conversionFailed(String)
    /// The PNG would be larger than ``SVGRasterizer/maximumPixels`` or
    /// ``SVGRasterizer/maximumSide``: its size in pixels at `zoom`.
    case pictureTooLarge(width: Int, height: Int, zoom: Double)
    /// `rsvg-convert` ran past its deadline (``SVGRasterizer/deadline``) and was stopped.
    case conversionTimedOut(seconds: Int)

    /// One sentence: what went wrong and what to do.
    public var description: String {
        switch self {
        case .noTouchDevice:
            "the trace holds no touchpad, touchscreen or mouse to draw; record one with `gestures record`"
        case .noSuchDevice(let index, let count):
            "the trace has \(count) device\(count == 1 ? "" : "s"), so there is no device \(index); pick one from 0 to \(max(0, count - 1))"
        case .notATouchSurface(let name):
            "device \(Excerpt.quoted(name)) is not a touchpad, touchscreen or mouse, so it has nothing to draw; pick another device"
        case .converterMissing:
            "rsvg-convert is not installed; install it (Debian: apt-get install librsvg2-bin) or keep the SVG"
        case .conversionFailed(let message):
            "rsvg-convert could not convert the picture: \(message)"
        case .conversionTimedOut(let seconds):
            "rsvg-convert took longer than \(seconds) s to convert the picture and was stopped; keep the SVG, or draw less (a shorter --title or --from/--to window)"
        case .pictureTooLarge(let width, let height, let zoom):
            "the PNG would be \(width) x \(height) pixels at zoom \(zoom), over the limit of \(SVGRasterizer.maximumSide) pixels a side and \(SVGRasterizer.maximumPixels / 1_000_000) million in all; use a smaller --zoom, a shorter --from/--to window, or keep the SVG"
        }
    }
}
