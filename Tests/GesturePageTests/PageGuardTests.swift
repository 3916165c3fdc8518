import GesturePage
import Testing

/// Every refusal of the page's guard, decided before any route runs.
@Suite struct PageGuardTests {
    let pageGuard = PageGuard(port: 8123, token: "token-1", csrf: "csrf-1")

    func request(
        _ method: String = "GET", _ path: String = "/api/session", host: String = "127.0.0.1:8123", origin: String? = nil,
        cookie: String? = "token-1", csrf: String? = nil, token: String? = nil, tooLarge: Bool = false
    ) -> HTTPRequest {
        var headers = ["host": host]
        if let origin { headers["origin"] = origin }
        if let csrf { headers[PageGuard.csrfHeader] = csrf }
        return HTTPRequest(
            method: method, path: path, headers: headers, cookies: cookie.map { [PageGuard.cookieName: $0] } ?? [:],
            arguments: token.map { ["token": $0] } ?? [:], body: method == "POST" ? [] : nil, bodyTooLarge: tooLarge)
    }

    func status(_ verdict: PageGuard.Verdict) -> Int? {
        if case .refused(let status, _) = verdict { return status }
        return nil
    }

    @Test(arguments: ["127.0.0.1:8123", "localhost:8123", "[::1]:8123", "LOCALHOST:8123"])
    func theLoopbackNamesWithThePortAreThisServer(_ host: String) {
        #expect(pageGuard.verdict(for: request(host: host)) == .allowed)
    }

    @Test(arguments: ["evil.example:8123", "127.0.0.1:8124", "127.0.0.1", "", "127.0.0.1:8123.evil.example", "localhost"])
    func anotherHostIsRefusedAsARebindingWouldBe(_ host: String) {
        #expect(status(pageGuard.verdict(for: request(host: host))) == 421)
    }

    @Test func theAddressWithItsTokenSetsTheCookie() {
        #expect(pageGuard.verdict(for: request("GET", "/", cookie: nil, token: "token-1")) == .welcome)
        #expect(status(pageGuard.verdict(for: request("GET", "/", cookie: nil, token: "token-2"))) == 403)
    }

    @Test(arguments: [nil, "", "token-2", "token-"])
    func aRequestWithoutTheTokensCookieIsRefused(_ cookie: String?) {
        #expect(status(pageGuard.verdict(for: request(cookie: cookie))) == 403)
        #expect(status(pageGuard.verdict(for: request("GET", "/", cookie: cookie))) == 403)
    }

    @Test(arguments: ["http://evil.example", "http://127.0.0.1:8124", "null", "https://127.0.0.1:8123"])
    func aRequestFromAnotherOriginIsRefusedReadingOrChanging(_ origin: String) {
        #expect(status(pageGuard.verdict(for: request(origin: origin))) == 403)
        #expect(status(pageGuard.verdict(for: request("POST", "/api/reload", origin: origin, csrf: "csrf-1"))) == 403)
    }

    @Test func aChangeNeedsTheOriginAndTheCSRFToken() {
        let origin = "http://127.0.0.1:8123"
        #expect(pageGuard.verdict(for: request("POST", "/api/reload", origin: origin, csrf: "csrf-1")) == .allowed)
        #expect(status(pageGuard.verdict(for: request("POST", "/api/reload", origin: origin, csrf: nil))) == 403)
        #expect(status(pageGuard.verdict(for: request("POST", "/api/reload", origin: origin, csrf: "csrf-2"))) == 403)
        #expect(status(pageGuard.verdict(for: request("POST", "/api/reload", origin: nil, csrf: "csrf-1"))) == 403)
        #expect(status(pageGuard.verdict(for: request("POST", "/api/reload", origin: origin, csrf: "csrf-1", tooLarge: true))) == 413)
    }

    @Test(arguments: ["PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"])
    func aMethodThePageDoesNotUseIsRefused(_ method: String) {
        #expect(status(pageGuard.verdict(for: request(method))) == 405)
    }

    @Test func secretsAreLongRandomAndDifferent() {
        let secrets = (0..<8).map { _ in PageGuard.secret() }
        #expect(Set(secrets).count == 8)
        #expect(secrets.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
    }
}
