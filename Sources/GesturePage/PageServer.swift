import DesktopDaemon
import Foundation
import InputChecks
import StructuredDocuments
import Synchronization

/// The server behind `gestures ui`: the page's files, served from the
/// binary, and its API, on the loopback address only, behind ``PageGuard``.
/// It watches the running daemon through its socket (``DaemonConnection``)
/// while a page is open, and relays what the daemon sees and decides to
/// every page (``PageFeed``).
///
/// The API (Docs/Page.md):
/// - `GET /api/session`: the CSRF token a change carries, the daemon's socket and the configuration file.
/// - `GET /api/live`: Server-Sent Events, one daemon line (``ChannelMessage``) an event, and
///   `{"daemon":{"connected":...}}` when the daemon comes or goes.
/// - `POST /api/reload`: asks the daemon to read its configuration again.
/// - `POST /api/try` `{"on":true}`: the daemon tries gestures (runs nothing they fire) until `{"on":false}`
///   or until no page watches it.
/// - `GET /api/configuration`, `POST /api/configuration/check` and `/save`: the bindings view.
/// - `GET /api/shapes`, `POST /api/shapes/recognize` and `/train`: the shapes view.
/// - `GET /api/recordings`, `POST /api/recordings/start`, `/stop`, `/import` and `/replay`: the recordings view.
/// - `GET /api/doctor`: the checks of `gestures doctor`.
///
/// The live stream also carries `{"windows":...}` (``PageWindows``): the applications the
/// session's focus source reported, which the bindings form offers for `apps:`.
///
///     let server = try PageServer(settings: .init(socket: DaemonChannel.defaultPath()))
///     print(server.address)   // http://127.0.0.1:PORT/?token=...
public final class PageServer: Sendable {
    /// What the server is started with.
    public struct Settings: Sendable {
        /// The port (0: a free one).
        public var port: Int
        /// The daemon's socket, or nil when there is none to watch.
        public var socket: String?
        /// The configuration file the page edits.
        public var configurationPath: String?
        /// Where recordings are saved and listed (``defaultRecordingsFolder(_:)``), or nil for none.
        public var recordingsFolder: String?
        /// The session whose focus source lists the windows for `apps:`
        /// (``PageWindows``), or nil to follow none.
        public var focusEnvironment: [String: String]?

        /// Settings from their parts.
        public init(
            port: Int = 0, socket: String?, configurationPath: String? = nil, recordingsFolder: String? = nil,
            focusEnvironment: [String: String]? = nil
        ) {
            self.port = port
            self.socket = socket
            self.configurationPath = configurationPath
            self.recordingsFolder = recordingsFolder
            self.focusEnvironment = focusEnvironment
        }

        /// `$XDG_DATA_HOME/gestures/recordings`, else `$HOME/.local/share/gestures/recordings`, else nil.
        public static func defaultRecordingsFolder(_ environment: [String: String]) -> String? {
            if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/gestures/recordings" }
            if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/share/gestures/recordings" }
            return nil
        }
    }

    /// The guard every request passes first.
    public let pageGuard: PageGuard
    /// What the pages are handed live.
    public let feed: PageFeed
    /// The applications the session's focus source reported while a page was open.
    public let windows: PageWindows?
    /// The settings it was started with.
    public let settings: Settings
    private let http: Mutex<HTTPServer?> = Mutex(nil)
    private let daemon = Mutex<DaemonConnection?>(nil)
    /// The pages' streams, numbered, and those whose page tries gestures: trying ends with the last of them.
    private let streams = Mutex<(next: Int, trying: Set<Int>)>((0, []))
    /// The recording in progress (``ChannelRecorder``), which the daemon's lines go to too,
    /// and the latest device line of each device (a recording starts with its device's).
    let recording = Mutex<(recorder: ChannelRecorder?, devices: [Int: String])>((nil, [:]))

    /// The address to open, with its token: `http://127.0.0.1:PORT/?token=...`.
    public var address: String { "http://127.0.0.1:\(pageGuard.port)/?token=\(pageGuard.token)" }

    /// Starts serving on 127.0.0.1 (and ::1) at `settings.port`.
    public init(settings: Settings) throws(HTTPServer.Failure) {
        self.settings = settings
        let feed = PageFeed()
        let token = PageGuard.secret(), csrf = PageGuard.secret()
        let box = Mutex<PageServer?>(nil)
        let server = try HTTPServer(port: settings.port) { request in
            guard let page = box.withLock({ $0 }) else { return Self.text(503, "the page's server is starting; reload the page") }
            return page.answer(request)
        }
        self.feed = feed
        windows = settings.focusEnvironment.map { PageWindows(environment: $0, publish: { [feed] in feed.publish($0) }) }
        pageGuard = PageGuard(port: server.port, token: token, csrf: csrf)
        http.withLock { $0 = server }
        box.withLock { $0 = self }
    }

    /// Stops serving: every page's stream ends, the daemon is no longer watched.
    public func stop() {
        feed.closeAll()
        stopWatching()
        windows?.stop()
        let server = http.withLock { server -> HTTPServer? in
            defer { server = nil }
            return server
        }
        server?.stop()
    }

    /// Answers one request as the server does: the guard first, then the
    /// route (tests and the fuzzer call it without a socket).
    public func answer(_ request: HTTPRequest) -> HTTPResponse {
        switch pageGuard.verdict(for: request) {
        case .refused(let status, let reason):
            return Self.text(status, reason)
        case .welcome:
            return HTTPResponse(
                status: 303,
                headers: Self.securityHeaders + [
                    ("Location", "/"),
                    ("Set-Cookie", "\(PageGuard.cookieName)=\(pageGuard.token); Path=/; HttpOnly; SameSite=Strict"),
                ])
        case .allowed:
            return route(request)
        }
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        switch (request.method, request.path) {
        case ("GET", "/api/session"):
            return Self.json(200, sessionJSON)
        case ("GET", "/api/live"):
            let queue = feed.open()
            let number = streams.withLock { state -> Int in
                state.next += 1
                return state.next
            }
            queue.push("{\"stream\":{\"id\":\(number)}}")
            if let windows { queue.push(windows.line) }
            if feed.openCount == 1 || daemon.withLock({ $0 == nil }) { watchDaemon() }
            windows?.start()
            return HTTPResponse(
                status: 200,
                headers: Self.securityHeaders + [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")],
                body: .events(
                    queue,
                    ended: { [self] in
                        feed.close(queue)
                        setTrying(false, stream: number)
                        if feed.openCount == 0 {
                            stopWatching()
                            windows?.stop()
                        }
                    }))
        case ("GET", "/api/configuration"):
            return configurationAnswer()
        case ("POST", "/api/configuration/check"), ("POST", "/api/configuration/save"):
            return editAnswer(request, saving: request.path.hasSuffix("/save"))
        case ("GET", "/api/doctor"):
            // The checks of `gestures doctor`, on this machine, as its --format json gives them.
            let report = Doctor(system: HostSystem()).examine()
            let data = (try? JSONEncoder().encode(report)) ?? Data("{\"checks\":[]}".utf8)
            return Self.json(200, String(decoding: data, as: UTF8.self))
        case ("GET", "/api/shapes"):
            return shapesAnswer()
        case ("POST", "/api/shapes/recognize"):
            return recognizeAnswer(request)
        case ("POST", "/api/shapes/train"):
            return trainAnswer(request)
        case ("GET", "/api/recordings"):
            return recordingsAnswer()
        case ("POST", "/api/recordings/start"):
            return startRecordingAnswer(request)
        case ("POST", "/api/recordings/stop"):
            return stopRecordingAnswer(request)
        case ("POST", "/api/recordings/import"):
            return importRecordingAnswer(request)
        case ("POST", "/api/recordings/replay"):
            return replayRecordingAnswer(request)
        case ("POST", "/api/reload"):
            return ask(.reload)
        case ("POST", "/api/try"):
            let body = try? DocumentNode.parse(json: Data(request.body ?? []))
            guard case .number(let stream, _)? = body?["stream"], stream == stream.rounded(), abs(stream) < 1e9 else {
                return Self.json(400, "{\"error\":\"the request names no page stream (stream)\"}")
            }
            return setTrying(body?["on"] == .bool(true), stream: Int(stream))
        case ("GET", _), ("HEAD", _):
            guard let file = PageFiles.file(at: request.path) else {
                return Self.text(404, "there is no \(Excerpt.quoted(request.path, limit: 80)) on this page")
            }
            return HTTPResponse(
                status: 200, headers: Self.securityHeaders + [("Content-Type", file.contentType), ("Cache-Control", "no-cache")],
                body: .bytes(file.bytes))
        default:
            return Self.text(
                404,
                "there is no \(Excerpt.quoted(request.method, limit: 10)) \(Excerpt.quoted(request.path, limit: 80)) in this page's API")
        }
    }

    /// Notes whether the page of `stream` tries gestures, and asks the daemon
    /// to try while any page does (a page that goes stops trying with it).
    @discardableResult
    private func setTrying(_ on: Bool, stream: Int) -> HTTPResponse {
        let (before, after) = streams.withLock { state -> (Bool, Bool) in
            let before = !state.trying.isEmpty
            if on { state.trying.insert(stream) } else { state.trying.remove(stream) }
            return (before, !state.trying.isEmpty)
        }
        guard before != after || on else { return Self.json(200, "{\"asked\":\"nothing\"}") }
        return ask(after ? .try : .stopTrying)
    }

    /// Sends `request` to the daemon watched.
    func ask(_ request: ChannelRequest) -> HTTPResponse {
        guard let connection = daemon.withLock({ $0 }) else {
            return Self.json(409, "{\"error\":\(JSONText.quoted("no daemon is watched: start it with `gestures run`"))}")
        }
        do { try connection.send(request.line) } catch {
            return Self.json(502, "{\"error\":\(JSONText.quoted(error.description))}")
        }
        return Self.json(200, "{\"asked\":\(JSONText.quoted(request.rawValue))}")
    }

    /// The configuration as the page edits it: its bindings, the form, and what the reader says of it now.
    private func configurationAnswer() -> HTTPResponse {
        guard let path = settings.configurationPath else {
            return Self.json(409, "{\"error\":\"no configuration file: start gestures ui with --config PATH\"}")
        }
        let editor: ConfigurationEditor
        do { editor = try ConfigurationEditor(path: path) } catch {
            return Self.json(200, "{\"path\":\(JSONText.quoted(path)),\"error\":\(JSONText.quoted(error.description))}")
        }
        let bindings = editor.bindings.enumerated().map { $0.element }
        let check = editor.check(bindings.enumerated().map { .init(origin: $0.offset, node: $0.element) })
        let form =
            (try? DaemonConfiguration.decode(Data(editor.document(with: []).jsonText.utf8), format: .json))?.bindingForm
            ?? DaemonConfiguration().bindingForm
        return Self.json(
            200,
            "{\"path\":\(JSONText.quoted(path)),\"format\":\(JSONText.quoted(editor.format.rawValue)),\"exists\":\(!editor.text.isEmpty),"
                + "\"revision\":\(JSONText.quoted(editor.revision)),\"bindings\":[\(bindings.map(\.jsonText).joined(separator: ","))],"
                + "\"form\":\(form.jsonText),\"check\":\(Self.checkJSON(check))}")
    }

    /// Checks (and with `saving`, saves) the bindings a page sends: `{"revision":..., "bindings":[{"origin":0,"binding":{...}}]}`.
    private func editAnswer(_ request: HTTPRequest, saving: Bool) -> HTTPResponse {
        guard let path = settings.configurationPath else {
            return Self.json(409, "{\"error\":\"no configuration file: start gestures ui with --config PATH\"}")
        }
        let body: DocumentNode
        do { body = try DocumentNode.parse(json: Data(request.body ?? [])) } catch {
            return Self.json(400, "{\"error\":\(JSONText.quoted("the request is not JSON: \(error.description)"))}")
        }
        guard case .array(let items)? = body["bindings"] else {
            return Self.json(400, "{\"error\":\"the request has no bindings list\"}")
        }
        var bindings: [ConfigurationEditor.Binding] = []
        for item in items {
            guard let binding = item["binding"] else { return Self.json(400, "{\"error\":\"a binding of the request has no binding\"}") }
            var origin: Int?
            if case .number(let value, _)? = item["origin"], value >= 0, value < 1_000_000, value == value.rounded() { origin = Int(value) }
            bindings.append(.init(origin: origin, node: binding))
        }
        let editor: ConfigurationEditor
        do { editor = try ConfigurationEditor(path: path) } catch {
            return Self.json(409, "{\"error\":\(JSONText.quoted(error.description))}")
        }
        let check = editor.check(bindings)
        guard saving else { return Self.json(200, "{\"check\":\(Self.checkJSON(check))}") }
        guard check.errors.isEmpty else {
            return Self.json(422, "{\"error\":\"nothing was saved: the configuration has errors\",\"check\":\(Self.checkJSON(check))}")
        }
        var revision: String?
        if case .string(let text)? = body["revision"] { revision = text }
        do {
            let saved = try editor.save(bindings, revision: revision)
            let fresh = try? ConfigurationEditor(path: path)
            return Self.json(
                200,
                "{\"saved\":\(JSONText.quoted(saved.path)),\"backup\":\(saved.backup.map(JSONText.quoted) ?? "null"),"
                    + "\"notes\":[\(saved.notes.map(JSONText.quoted).joined(separator: ","))],\"revision\":\(JSONText.quoted(fresh?.revision ?? "")),"
                    + "\"check\":\(Self.checkJSON(check))}")
        } catch {
            return Self.json(409, "{\"error\":\(JSONText.quoted(error.description))}")
        }
    }

    static func checkJSON(_ check: ConfigurationEditor.Check) -> String {
        let errors = check.errors.map { "{\"path\":\(JSONText.quoted($0.path)),\"message\":\(JSONText.quoted($0.message))}" }
        let warnings = check.warnings.map { "{\"path\":\(JSONText.quoted($0.path)),\"message\":\(JSONText.quoted($0.message))}" }
        return "{\"errors\":[\(errors.joined(separator: ","))],\"warnings\":[\(warnings.joined(separator: ","))]}"
    }

    private var sessionJSON: String {
        let socket = settings.socket.map(JSONText.quoted) ?? "null"
        let configuration = settings.configurationPath.map(JSONText.quoted) ?? "null"
        return "{\"csrf\":\(JSONText.quoted(pageGuard.csrf)),\"socket\":\(socket),\"configuration\":\(configuration)}"
    }

    /// Connects to the daemon (when not connected) and relays its lines to the pages.
    private func watchDaemon() {
        guard let path = settings.socket else {
            feed.publish(Self.daemonLine(connected: false, reason: "no daemon socket: XDG_RUNTIME_DIR is not set"))
            return
        }
        daemon.withLock { connection in
            guard connection == nil else { return }
            do {
                connection = try DaemonConnection(
                    path: path, line: { [weak self] line in self?.take(daemonLine: line) },
                    ended: { [weak self] reason in
                        guard let self else { return }
                        daemon.withLock { $0 = nil }
                        feed.publish(Self.daemonLine(connected: false, reason: "the daemon went away (\(reason))"))
                    })
                feed.publish(Self.daemonLine(connected: true, reason: "watching the daemon on \(path)"))
                // A daemon that came back tries again for the pages that still try.
                if !streams.withLock({ $0.trying.isEmpty }) { try? connection?.send(ChannelRequest.try.line) }
            } catch {
                feed.publish(Self.daemonLine(connected: false, reason: "\(error)"))
            }
        }
    }

    /// One line from the daemon: to the recording in progress, and to the pages
    /// (but a recorder's events, which no page draws).
    private func take(daemonLine line: String) {
        if line.hasPrefix("{\"events\":") {
            recording.withLock { $0.recorder?.take(line) }
            return
        }
        if line.hasPrefix("{\"removed\":"),
            case .number(let id, _)? = (try? DocumentNode.parse(json: Data(line.utf8)))?["removed"]?["device"],
            let device = Int(exactly: id)
        {
            recording.withLock { _ = $0.devices.removeValue(forKey: device) }
        }
        if line.hasPrefix("{\"device\":"), case .number(let id, _)? = (try? DocumentNode.parse(json: Data(line.utf8)))?["device"]?["id"],
            let device = Int(exactly: id)
        {
            recording.withLock { state in
                state.devices[device] = line
                state.recorder?.take(line)
            }
        }
        feed.publish(line)
    }

    private func stopWatching() {
        daemon.withLock { connection in
            connection?.close()
            connection = nil
        }
    }

    static func daemonLine(connected: Bool, reason: String) -> String {
        "{\"daemon\":{\"connected\":\(connected),\"reason\":\(JSONText.quoted(reason))}}"
    }

    /// What every response carries: no script but the page's own, no framing, no sniffing, no referrer.
    static let securityHeaders: [(name: String, value: String)] = [
        (
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
    ]

    static func text(_ status: Int, _ sentence: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: securityHeaders + [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")],
            body: .bytes(Array((sentence + "\n").utf8)))
    }

    static func json(_ status: Int, _ object: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: securityHeaders + [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
            body: .bytes(Array(object.utf8)))
    }
}
