internal import CMicroHTTPD
import DesktopDaemon
import Foundation
import Synchronization

/// One request, complete, as the server hands it to its handler.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, ...
    public var method: String
    /// The path, without the query: `/api/session`.
    public var path: String
    /// The request's headers that the page's guard and routes read, by lowercased name.
    public var headers: [String: String]
    /// The cookies the page sets, by name.
    public var cookies: [String: String]
    /// The query string's arguments the page reads (`token`), by name.
    public var arguments: [String: String]
    /// The body, or nil when there is none.
    public var body: [UInt8]?
    /// Whether the body went over the server's limit (it is then not held).
    public var bodyTooLarge: Bool

    /// A request from its parts (a test's, or the server's).
    public init(
        method: String, path: String, headers: [String: String] = [:], cookies: [String: String] = [:],
        arguments: [String: String] = [:], body: [UInt8]? = nil, bodyTooLarge: Bool = false
    ) {
        self.method = method
        self.path = path
        self.headers = headers
        self.cookies = cookies
        self.arguments = arguments
        self.body = body
        self.bodyTooLarge = bodyTooLarge
    }
}

/// What the handler answers.
public struct HTTPResponse: Sendable {
    /// What follows the headers.
    public enum Body: Sendable {
        /// These bytes.
        case bytes([UInt8])
        /// Server-Sent Events: each line of the queue as one `data:` event,
        /// a comment every ``HTTPServer/keepAliveInterval`` while none comes,
        /// until the queue is closed or the client goes.
        case events(LineQueue, ended: @Sendable () -> Void)
    }

    /// The status code.
    public var status: Int
    /// The headers, in order.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Body

    /// A response from its parts.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// An HTTP server on the loopback address only, through libmicrohttpd: one
/// thread a connection, every request's body gathered up to a limit, then
/// handed whole to `handler` (on the connection's thread).
///
///     let server = try HTTPServer(port: 0) { request in HTTPResponse(status: 200, body: .bytes(Array("hi".utf8))) }
///     print(server.port)   // the port the kernel chose
///     server.stop()
public final class HTTPServer: @unchecked Sendable {
    /// Why the server cannot listen: one sentence.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What went wrong.
        public var description: String
    }

    /// The headers the server reads into ``HTTPRequest/headers``.
    static let headerNames = ["Host", "Origin", "Content-Type", "X-Gestures-CSRF", "Sec-Fetch-Site", "Referer"]
    /// The cookie and query argument the page uses.
    static let cookieNames = ["gestures_token"]
    static let argumentNames = ["token", "path"]
    /// The largest request body: 1 MiB, the configuration's own limit.
    public static let bodyLimit = 1 << 20
    /// How long a connection may send nothing before it is closed: 30 s.
    public static let idleTimeoutSeconds: UInt32 = 30
    /// How often a live stream with nothing to say sends a comment, so that it outlives the idle timeout: 10 s.
    public static let keepAliveInterval: Duration = .seconds(10)
    /// The most connections at once: a few pages and their streams.
    public static let connectionLimit: UInt32 = 32

    /// The port it listens on.
    public let port: Int
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private var context: UnsafeMutablePointer<gestures_http_server>
    private var daemons: [OpaquePointer] = []
    private let streams = Mutex<[ObjectIdentifier: LineQueue]>([:])

    /// Listens on 127.0.0.1 at `port` (0: a free one) and on ::1 at the same
    /// port when this machine has IPv6; answers each request with `handler`.
    /// The corresponding C function is `MHD_start_daemon`.
    public init(port: Int, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws(Failure) {
        guard (0...65535).contains(port) else { throw Failure(description: "the port \(port) is not one of 0-65535") }
        self.handler = handler
        context = .allocate(capacity: 1)
        context.initialize(to: gestures_http_server(handler: nil, context: nil, body_limit: Self.bodyLimit))
        guard let first = gestures_http_start(context, 0, UInt16(port), Self.idleTimeoutSeconds, Self.connectionLimit, 64 * 1024)
        else {
            context.deallocate()
            throw Failure(description: "cannot listen on 127.0.0.1 port \(port): it is taken, or not this user's to use")
        }
        daemons.append(first)
        self.port = Int(gestures_http_port(first))
        if let second = gestures_http_start(context, 1, UInt16(self.port), Self.idleTimeoutSeconds, Self.connectionLimit, 64 * 1024) {
            daemons.append(second)
        }
        context.pointee.context = Unmanaged.passUnretained(self).toOpaque()
        context.pointee.handler = { context, request in
            let server = Unmanaged<HTTPServer>.fromOpaque(context!).takeUnretainedValue()
            return server.answer(request!.pointee)
        }
    }

    /// Stops listening: every live stream ends, then the server waits for
    /// each connection to finish. The corresponding C function is `MHD_stop_daemon`.
    public func stop() {
        for queue in streams.withLock({ Array($0.values) }) { queue.close() }
        for daemon in daemons { MHD_stop_daemon(daemon) }
        daemons = []
    }

    deinit {
        stop()
        context.deallocate()
    }

    private func answer(_ raw: gestures_http_request) -> MHD_Result {
        guard let connection = raw.connection else { return MHD_Result(rawValue: 0)! }
        var request = HTTPRequest(
            method: String(cString: raw.method), path: "/", body: nil, bodyTooLarge: raw.body_too_large != 0)
        let url = String(cString: raw.url)
        request.path = String(url.prefix { $0 != "?" })
        for name in Self.headerNames {
            if let value = gestures_http_header(connection, name) { request.headers[name.lowercased()] = String(cString: value) }
        }
        for name in Self.cookieNames {
            if let value = gestures_http_cookie(connection, name) { request.cookies[name] = String(cString: value) }
        }
        for name in Self.argumentNames {
            if let value = gestures_http_argument(connection, name) { request.arguments[name] = String(cString: value) }
        }
        if let body = raw.body, raw.body_length > 0 {
            request.body = Array(UnsafeRawBufferPointer(start: body, count: raw.body_length))
        } else if raw.body_too_large == 0, request.method == "POST" || request.method == "PUT" {
            request.body = []
        }
        let response = handler(request)
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { gestures_http_response_copying($0.baseAddress, $0.count) }
        case .events(let queue, let ended):
            let stream = EventStream(queue: queue, ended: ended)
            streams.withLock { $0[ObjectIdentifier(stream)] = queue }
            stream.forget = { [weak self] in _ = self?.streams.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) } }
            made = gestures_http_response_streaming(
                { context, _, buffer, capacity in
                    let stream = Unmanaged<EventStream>.fromOpaque(context!).takeUnretainedValue()
                    return stream.fill(buffer!, capacity: capacity)
                }, Unmanaged.passRetained(stream).toOpaque(),
                { context in
                    let stream = Unmanaged<EventStream>.fromOpaque(context!).takeRetainedValue()
                    stream.finish()
                })
        }
        guard let made else { return MHD_Result(rawValue: 0)! }
        for header in response.headers { _ = MHD_add_response_header(made, header.name, header.value) }
        let result = MHD_queue_response(connection, UInt32(response.status), made)
        MHD_destroy_response(made)
        return result
    }
}

/// One live stream's bytes, as libmicrohttpd asks for them (on the
/// connection's own thread, which may wait): each line of the queue as a
/// Server-Sent Event.
private final class EventStream: @unchecked Sendable {
    let queue: LineQueue
    let ended: @Sendable () -> Void
    var forget: () -> Void = {}
    /// Bytes of an event not yet taken (an event longer than one buffer).
    private var pending: [UInt8] = []
    private var finished = false

    init(queue: LineQueue, ended: @escaping @Sendable () -> Void) {
        self.queue = queue
        self.ended = ended
    }

    /// Fills `buffer` with the next bytes, waiting for a line; the end of the stream when the queue is closed.
    func fill(_ buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        if pending.isEmpty {
            switch queue.pop(timeout: HTTPServer.keepAliveInterval) {
            case .line(let line): pending = Array("data: \(line)\n\n".utf8)
            case .timedOut: pending = Array(": still here\n\n".utf8)
            case .closed: return gestures_http_end_of_stream()
            }
        }
        let count = min(capacity, pending.count)
        pending.withUnsafeBytes { UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: count) }
        pending.removeFirst(count)
        return count
    }

    /// The client went or the stream ended.
    func finish() {
        guard !finished else { return }
        finished = true
        queue.close()
        forget()
        ended()
    }
}
