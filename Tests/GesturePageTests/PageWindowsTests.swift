import Foundation
import GesturePage
import Synchronization
import Testing

@testable import DesktopDaemon

#if canImport(Glibc)
    import Glibc
#endif

/// The windows the bindings form offers for `apps:`: each application the
/// focus source reports, once, in the order first focused, told to the
/// pages as it comes; a session without a focus source says why.
@Suite struct PageWindowsTests {
    final class Lines: Sendable {
        let all = Mutex<[String]>([])
        let came = DispatchSemaphore(value: 0)
        func take(_ line: String) {
            all.withLock { $0.append(line) }
            came.signal()
        }
    }

    @Test func eachApplicationFocusedIsOfferedOnceInTheOrderFirstSeen() throws {
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        let (client, server) = (ends[0], ends[1])
        defer { close(server) }
        let lines = Lines()
        let windows = PageWindows(
            describe: { ("hyprland", "a test's socket") },
            connect: { () throws(FocusError) in try LiveFocus(connection: HyprlandFocusConnection(events: UnixSocket(descriptor: client)))
            },
            publish: { lines.take($0) })
        windows.start()
        windows.start()  // once is enough: a second page follows the same source
        func send(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(server, $0.baseAddress, $0.count) } }
        // The connecting line, then the followed one.
        var waited = 0
        while !lines.all.withLock({ $0.contains { $0.contains("following hyprland") } }), waited < 100 {
            _ = lines.came.wait(timeout: .now() + 0.1)
            waited += 1
        }
        // One change at a time, each once the page was told the one before (a source reports a burst's last).
        // Firefox again is no new application; kitty after it proves that change was taken, in order.
        for (change, count) in [("firefox,Mozilla", 1), ("foot,~", 2), ("firefox,Other tab", 2), ("kitty,~", 3)] {
            send("activewindow>>\(change)\n")
            waited = 0
            while windows.seen.count < count, waited < 100 {
                _ = lines.came.wait(timeout: .now() + 0.1)
                waited += 1
            }
        }
        windows.stop()
        #expect(windows.seen.map(\.app) == ["firefox", "foot", "kitty"])
        #expect(windows.line.hasPrefix("{\"windows\":{\"source\":\"hyprland\",\"reason\":\"following hyprland\","))
        #expect(
            windows.line.hasSuffix(
                "\"seen\":[{\"app\":\"firefox\",\"instance\":null},{\"app\":\"foot\",\"instance\":null},{\"app\":\"kitty\",\"instance\":null}]}}"
            ))
    }

    @Test func aSessionWithoutAFocusSourceSaysWhyAndConnectsToNothing() {
        let lines = Lines()
        let windows = PageWindows(environment: [:], publish: { lines.take($0) })
        windows.start()
        #expect(lines.all.withLock { $0.count } == 1)
        #expect(windows.line.contains("\"source\":null,\"reason\":\"no focus source: none of SWAYSOCK"))
        windows.stop()
    }
}
