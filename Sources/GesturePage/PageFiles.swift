/// The page's files, built into the binary (SwiftPM's `embedInCode`): plain
/// HTML, CSS and JavaScript modules, with no build step and nothing fetched
/// from anywhere else.
enum PageFiles {
    /// One file and its type.
    struct File {
        var bytes: [UInt8]
        var contentType: String
    }

    /// The file served at `path`, or nil.
    static func file(at path: String) -> File? {
        switch path {
        case "/", "/index.html": File(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8")
        case "/style.css": File(bytes: PackageResources.style_css, contentType: "text/css; charset=utf-8")
        case "/app.js": File(bytes: PackageResources.app_js, contentType: "text/javascript; charset=utf-8")
        case "/api.js": File(bytes: PackageResources.api_js, contentType: "text/javascript; charset=utf-8")
        case "/live.js": File(bytes: PackageResources.live_js, contentType: "text/javascript; charset=utf-8")
        case "/bindings.js": File(bytes: PackageResources.bindings_js, contentType: "text/javascript; charset=utf-8")
        case "/shapes.js": File(bytes: PackageResources.shapes_js, contentType: "text/javascript; charset=utf-8")
        case "/recordings.js": File(bytes: PackageResources.recordings_js, contentType: "text/javascript; charset=utf-8")
        case "/favicon.svg": File(bytes: PackageResources.favicon_svg, contentType: "image/svg+xml")
        default: nil
        }
    }
}
