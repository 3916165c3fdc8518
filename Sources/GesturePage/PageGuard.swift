import Foundation
import InputChecks

/// Who may talk to the page's server, decided before any route runs: the
/// address carries a random token that becomes a cookie; a request must
/// name this server's loopback address and port as its `Host` (so a page of
/// another site that rebinds its name to 127.0.0.1 is refused); a request
/// with an `Origin` must come from the page itself; a request that changes
/// anything must carry the page's CSRF token in a header (which another
/// site's page cannot set without a CORS grant, and none is ever given).
///
///     let pageGuard = PageGuard(port: 8080, token: "t", csrf: "c")
///     pageGuard.verdict(for: HTTPRequest(method: "GET", path: "/", headers: ["host": "evil.example:8080"]))
///     // .refused(status: 421, reason: "the Host 'evil.example:8080' is not this server's ...")
public struct PageGuard: Sendable {
    /// What becomes of a request.
    public enum Verdict: Equatable, Sendable {
        /// It goes to its route.
        case allowed
        /// The address with the right token: set the cookie and send the browser to `/` (the token leaves the address bar).
        case welcome
        /// It is refused with `status`, for `reason` (one sentence, the response's body).
        case refused(status: Int, reason: String)
    }

    /// The port the server listens on.
    public var port: Int
    /// The secret in the printed address, and the cookie's value.
    public var token: String
    /// The secret a change must carry in `X-Gestures-CSRF` (the page reads it from `/api/session`).
    public var csrf: String

    /// The name of the cookie that carries the token.
    public static let cookieName = "gestures_token"
    /// The header a change carries the CSRF token in.
    public static let csrfHeader = "x-gestures-csrf"

    /// A guard for a server on `port` with these secrets.
    public init(port: Int, token: String, csrf: String) {
        self.port = port
        self.token = token
        self.csrf = csrf
    }

    /// A new random secret: 32 bytes from the system's generator, as hex.
    public static func secret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// The names the page may be reached by: `127.0.0.1`, `localhost` and `[::1]`, with the port.
    public var hosts: Set<String> { ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"] }

    /// The origins the page itself has.
    public var origins: Set<String> { Set(hosts.map { "http://" + $0 }) }

    /// What becomes of `request`.
    public func verdict(for request: HTTPRequest) -> Verdict {
        let host = request.headers["host"] ?? ""
        guard hosts.contains(host.lowercased()) else {
            return .refused(
                status: 421,
                reason:
                    "the Host \(Excerpt.quoted(host, limit: 80)) is not this server's (127.0.0.1:\(port)); open the address `gestures ui` printed"
            )
        }
        if let origin = request.headers["origin"], !origins.contains(origin.lowercased()) {
            return .refused(
                status: 403, reason: "a request from the page of \(Excerpt.quoted(origin, limit: 80)) is refused: only this page may use it"
            )
        }
        if request.method == "GET" || request.method == "HEAD" {
            if let offered = request.arguments["token"], request.path == "/" {
                return Self.same(offered, token)
                    ? .welcome
                    : .refused(
                        status: 403, reason: "this address's token is not the one `gestures ui` printed; open the address it printed")
            }
        } else if request.method != "POST" {
            return .refused(status: 405, reason: "\(Excerpt.quoted(request.method, limit: 20)) is not a method this page uses")
        }
        guard let cookie = request.cookies[Self.cookieName], Self.same(cookie, token) else {
            return .refused(
                status: 403, reason: "this browser has not opened the address `gestures ui` printed (with its token); open that address")
        }
        if request.method == "POST" {
            guard request.headers["origin"] != nil else {
                return .refused(status: 403, reason: "a change without an Origin is refused: make it from the page")
            }
            guard let offered = request.headers[Self.csrfHeader], Self.same(offered, csrf) else {
                return .refused(status: 403, reason: "a change without the page's CSRF token is refused: reload the page")
            }
            if request.bodyTooLarge {
                return .refused(
                    status: 413, reason: "the request's body is larger than \(HTTPServer.bodyLimit) bytes, the most this page takes")
            }
        }
        return .allowed
    }

    /// Whether two secrets are equal, in a time that does not depend on where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
