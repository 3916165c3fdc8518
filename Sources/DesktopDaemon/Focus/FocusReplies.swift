import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Each focus source's reader of what its server sends, as a function of
/// the bytes alone: the source's own connection, over a socket pair whose
/// other end has sent `bytes` and nothing more (its end of the stream
/// follows them; what the source writes is read and dropped). What the
/// fuzz targets (`Tools/fuzz`: `focus-x11`, `focus-sway`, `focus-hyprland`,
/// `focus-wayland`, `focus-dbus`) and their kept inputs run: a server that
/// lies ends in a ``FocusError``, never a trap, a read past an end or a wait.
///
///     FocusReplies.follow(.sway, serverSends: bytes)   // the windows focused, then the sentence it ended with
public enum FocusReplies {
    /// The sources whose replies are read.
    public enum Source: String, CaseIterable, Sendable {
        case x11
        /// sway and i3: `get_tree`, `subscribe`, then events.
        case sway
        /// Hyprland: the bytes are both the `j/activewindow` reply and the event socket's lines.
        case hyprland
        /// wlr-foreign-toplevel-management through libwayland.
        case wayland
        /// The session bus through sd-bus, as GNOME Shell's extension answers and calls back.
        case dbus
    }

    /// What separates the server's turns in the bytes: each turn after the
    /// first is sent once the source has written again (its next requests),
    /// as a server answers, or after 50 ms without (a source waiting for the
    /// turn); a Wayland compositor's events for an object the client binds
    /// must come after the bind.
    public static let turnMarker = Array("\u{0}next turn\u{0}".utf8)

    /// The most turns taken apart: 16 (the rest of the bytes is the last one).
    public static let maximumTurns = 16
    /// How long a turn waits for the source to write before it is sent anyway: 50 ms.
    static let turnWaitMilliseconds: Int32 = 50

    /// `bytes` split at each ``turnMarker``, into at most ``maximumTurns``.
    static func turns(_ bytes: [UInt8]) -> [[UInt8]] {
        var turns: [[UInt8]] = []
        var start = 0
        var index = 0
        let marker = turnMarker
        while index + marker.count <= bytes.count, turns.count < maximumTurns - 1 {
            if bytes[index] == marker[0], Array(bytes[index..<index + marker.count]) == marker {
                turns.append(Array(bytes[start..<index]))
                index += marker.count
                start = index
            } else {
                index += 1
            }
        }
        turns.append(Array(bytes[start...]))
        return turns
    }

    /// The windows `source` reports while its server sends `bytes`: the
    /// focus after connecting, then each change, and the sentence it
    /// stopped with (every source stops at the end of the bytes).
    public static func follow(_ source: Source, serverSends bytes: [UInt8]) -> (focus: [FocusedWindow?], end: FocusError?) {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            return ([], FocusError("cannot make a socket pair"))
        }
        let (client, server) = (ends[0], ends[1])
        // The server's side, on a thread of its own: the first turn at once, each later one after the source
        // next writes (its next requests), then the end of the stream; what the source writes is drained, so it
        // never waits on a full socket. Once the source is done, the drain is stopped and this end closed here.
        let turns = Self.turns(bytes)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            func readSome() -> Bool { buffer.withUnsafeMutableBytes { read(server, $0.baseAddress, $0.count) } > 0 }
            serving: for (index, turn) in turns.enumerated() {
                // A source that waits for this turn writes nothing first: after `turnWait` it comes anyway.
                var entry = pollfd(fd: server, events: Int16(POLLIN), revents: 0)
                if index > 0, poll(&entry, 1, Self.turnWaitMilliseconds) > 0, !readSome() { break serving }
                var offset = 0
                while offset < turn.count {
                    let written = turn[offset...].withUnsafeBytes { send(server, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard written > 0 else { break serving }
                    offset += written
                }
            }
            shutdown(server, Int32(SHUT_WR))
            while readSome() {}
            finished.signal()
        }.start()
        defer {
            shutdown(server, Int32(SHUT_RDWR))
            finished.wait()
            close(server)
        }
        do throws(FocusError) {
            switch source {
            case .x11:
                return follow(try X11FocusConnection(socket: UnixSocket(descriptor: client), server: "the X server"))
            case .sway:
                return follow(I3FocusConnection(socket: UnixSocket(descriptor: client), name: "sway"))
            case .hyprland:
                let reply = HyprlandFocusConnection.activeWindow(reply: bytes, source: "hyprland")
                let (changes, end) = follow(HyprlandFocusConnection(events: UnixSocket(descriptor: client)))
                return ([reply] + changes, end)
            case .wayland:
                return follow(try WaylandFocusConnection(descriptor: client, socket: "the fuzz target's socket"))
            case .dbus:
                return follow(
                    try SessionBusFocusConnection(.gnome, descriptor: client, address: "the fuzz target's bus", folder: "/nonexistent"))
            }
        } catch {
            // A connection that failed to start never took the descriptor (libwayland and sd-bus close theirs).
            if source == .x11 { close(client) }
            return ([], error)
        }
    }

    /// Follows `connection` until it stops: its focus now, then each change.
    private static func follow(_ connection: some FocusConnection) -> (focus: [FocusedWindow?], end: FocusError?) {
        var connection = connection
        defer { connection.close() }
        var focus: [FocusedWindow?] = []
        do throws(FocusError) {
            focus.append(try connection.currentFocus())
            while true {
                if let change = try connection.readBuffered() { focus.append(change) }
                if let change = try connection.readChange() { focus.append(change) }
            }
        } catch {
            return (focus, error)
        }
    }
}
