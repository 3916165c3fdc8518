import DesktopDaemon
import Foundation
import GesturePage
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The page's server over real HTTP on the loopback, with a plain client
/// that sends exactly the headers a test gives (a browser cannot send
/// another Host or leave out Origin; this client can).
@Suite struct PageServerTests {
    /// One response: status, headers (lowercased names), body.
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    /// Sends `request` (the raw text of an HTTP/1.1 request) to port `port` and reads the whole reply.
    static func send(_ request: String, port: Int) throws -> Reply {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        let bytes = Array(request.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if got <= 0 { break }
            reply += buffer.prefix(got)
        }
        let text = String(decoding: reply, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts[0].components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    static func request(
        _ method: String, _ path: String, server: PageServer, host: String? = nil, origin: String? = nil, cookie: Bool = true,
        csrf: String? = nil, body: String = ""
    ) -> String {
        var lines = ["\(method) \(path) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(server.pageGuard.port)")", "Connection: close"]
        if let origin { lines.append("Origin: \(origin)") }
        if cookie { lines.append("Cookie: \(PageGuard.cookieName)=\(server.pageGuard.token)") }
        if let csrf { lines.append("X-Gestures-CSRF: \(csrf)") }
        if method == "POST" { lines += ["Content-Type: application/json", "Content-Length: \(body.utf8.count)"] }
        return lines.joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    let server: PageServer
    init() throws { server = try PageServer(settings: .init(socket: nil)) }

    @Test func theAddressSetsAnHttpOnlySameSiteCookieAndLeavesTheTokenOutOfTheAddressBar() throws {
        let reply = try Self.send(
            Self.request("GET", "/?token=\(server.pageGuard.token)", server: server, cookie: false), port: server.pageGuard.port)
        #expect(reply.status == 303 && reply.headers["location"] == "/")
        #expect(reply.headers["set-cookie"] == "gestures_token=\(server.pageGuard.token); Path=/; HttpOnly; SameSite=Strict")
    }

    @Test func thePageComesWithAPolicyThatAllowsOnlyItsOwnScripts() throws {
        let reply = try Self.send(Self.request("GET", "/", server: server), port: server.pageGuard.port)
        #expect(reply.status == 200 && reply.body.contains("<script type=\"module\" src=\"/app.js\"></script>"))
        #expect(reply.headers["content-security-policy"]?.hasPrefix("default-src 'self';") == true)
        #expect(reply.headers["x-frame-options"] == "DENY")
        #expect(reply.headers["access-control-allow-origin"] == nil)
    }

    @Test func aRebindingHostIsRefused() throws {
        let reply = try Self.send(
            Self.request("GET", "/api/session", server: server, host: "evil.example:\(server.pageGuard.port)"), port: server.pageGuard.port)
        #expect(reply.status == 421)
        #expect(reply.body.contains("is not this server's"))
        #expect(!reply.body.contains("csrf"))
    }

    @Test func aChangeWithoutTheCSRFTokenOrOriginIsRefusedAndWithThemReachesItsRoute() throws {
        let origin = "http://127.0.0.1:\(server.pageGuard.port)"
        let noToken = try Self.send(Self.request("POST", "/api/reload", server: server, origin: origin), port: server.pageGuard.port)
        #expect(noToken.status == 403 && noToken.body.contains("CSRF"))
        let noOrigin = try Self.send(
            Self.request("POST", "/api/reload", server: server, csrf: server.pageGuard.csrf), port: server.pageGuard.port)
        #expect(noOrigin.status == 403 && noOrigin.body.contains("Origin"))
        let otherSite = try Self.send(
            Self.request("POST", "/api/reload", server: server, origin: "http://evil.example", csrf: server.pageGuard.csrf),
            port: server.pageGuard.port)
        #expect(otherSite.status == 403 && otherSite.headers["access-control-allow-origin"] == nil)
        // Let through, the route says there is no daemon to ask: the guard was the only refusal.
        let allowed = try Self.send(
            Self.request("POST", "/api/reload", server: server, origin: origin, csrf: server.pageGuard.csrf), port: server.pageGuard.port)
        #expect(allowed.status == 409 && allowed.body.contains("no daemon is watched"))
    }

    /// Every route that changes anything (a file, the daemon, a recording).
    static let changes = [
        "/api/reload", "/api/try", "/api/configuration/check", "/api/configuration/save", "/api/shapes/recognize", "/api/shapes/train",
        "/api/recordings/start", "/api/recordings/stop", "/api/recordings/import", "/api/recordings/replay",
    ]

    @Test(arguments: changes)
    func everyChangeIsRefusedWithoutItsTokenOrFromAnotherSite(_ route: String) throws {
        let origin = "http://127.0.0.1:\(server.pageGuard.port)"
        let noToken = try Self.send(Self.request("POST", route, server: server, origin: origin, body: "{}"), port: server.pageGuard.port)
        #expect(noToken.status == 403)
        let otherSite = try Self.send(
            Self.request("POST", route, server: server, origin: "http://evil.example", csrf: server.pageGuard.csrf, body: "{}"),
            port: server.pageGuard.port)
        #expect(otherSite.status == 403)
        let noCookie = try Self.send(
            Self.request("POST", route, server: server, origin: origin, cookie: false, csrf: server.pageGuard.csrf, body: "{}"),
            port: server.pageGuard.port)
        #expect(noCookie.status == 403)
        // With all three, the route itself answers (whatever it says of an empty body).
        let allowed = try Self.send(
            Self.request("POST", route, server: server, origin: origin, csrf: server.pageGuard.csrf, body: "{}"),
            port: server.pageGuard.port)
        #expect(allowed.status != 403 && allowed.status != 404, "\(route): \(allowed.status) \(allowed.body)")
    }

    @Test func aBodyOverTheLimitIsRefusedWithoutBeingHeld() throws {
        let origin = "http://127.0.0.1:\(server.pageGuard.port)"
        let body = String(repeating: "x", count: HTTPServer.bodyLimit + 1)
        let reply = try Self.send(
            Self.request("POST", "/api/reload", server: server, origin: origin, csrf: server.pageGuard.csrf, body: body),
            port: server.pageGuard.port)
        #expect(reply.status == 413)
    }

    @Test func theSessionGivesTheCSRFTokenOnlyWithTheCookie() throws {
        let with = try Self.send(Self.request("GET", "/api/session", server: server), port: server.pageGuard.port)
        #expect(with.status == 200 && with.body.contains(server.pageGuard.csrf))
        let without = try Self.send(Self.request("GET", "/api/session", server: server, cookie: false), port: server.pageGuard.port)
        #expect(without.status == 403 && !without.body.contains(server.pageGuard.csrf))
    }

    @Test func aFileThatIsNotThePagesIsNotFound() throws {
        for path in ["/../Package.swift", "/etc/passwd", "/Page/index.html", "/api/nothing"] {
            let reply = try Self.send(Self.request("GET", path, server: server), port: server.pageGuard.port)
            #expect(reply.status == 404, "\(path)")
        }
    }

    @Test func theServerListensOnTheLoopbackOnly() throws {
        // Every socket listening on the port (IPv4 and IPv6) is bound to a loopback address.
        let port = String(format: ":%04X", server.pageGuard.port)
        var addresses: [String] = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for row in text.split(separator: "\n").dropFirst() {
                let fields = row.split(separator: " ")
                if fields.count > 3, fields[3] == "0A", fields[1].hasSuffix(port) { addresses.append(String(fields[1].dropLast(5))) }
            }
        }
        #expect(addresses.contains("0100007F"))
        #expect(addresses.allSatisfy { $0 == "0100007F" || $0 == "00000000000000000000000001000000" }, "listening on \(addresses)")
    }
}
