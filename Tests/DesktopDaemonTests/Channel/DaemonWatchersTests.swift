import DesktopConfiguration
import DesktopDaemon
import Synchronization
import TestSupport
import Testing
import TouchInput

@Suite struct DaemonWatchersTests {
    final class Lines: Sendable {
        let all = Mutex<[String]>([])
        func append(_ line: String) { all.withLock { $0.append(line) } }
        var lines: [String] { all.withLock { $0 } }
    }

    @Test func nobodyWatchesUntilSomeoneSubscribesAndAfterTheyLeave() {
        let watchers = DaemonWatchers()
        #expect(!watchers.isWatched)
        let subscription = watchers.subscribe { _ in }
        #expect(watchers.isWatched)
        watchers.unsubscribe(subscription)
        #expect(!watchers.isWatched)
    }

    @Test func aLaterWatcherIsToldTheDevicesSeenFirst() throws {
        let pad = try RecordedDevices.rmi4
        let watchers = DaemonWatchers()
        let first = Lines()
        _ = watchers.subscribe(first.append)
        watchers.announce(.device(id: 7, pad))
        watchers.announce(.device(id: 7, pad))  // once only
        watchers.publish(.reloaded(configuration: "c.yaml", bindings: 2, error: nil))
        let later = Lines()
        _ = watchers.subscribe(later.append)
        #expect(first.lines.count == 2 && first.lines[0].hasPrefix("{\"device\":{\"id\":7,"))
        #expect(later.lines == [first.lines[0]])
    }

    @Test func whatIsPublishedWhileNobodyWatchesReachesNobodyLater() {
        let watchers = DaemonWatchers()
        watchers.publish(.reloaded(configuration: "c.yaml", bindings: 2, error: nil))
        let lines = Lines()
        _ = watchers.subscribe(lines.append)
        #expect(lines.lines.isEmpty)
    }

    @Test func aDeviceThatGoesAwayIsToldToWatchersAndForgottenForLaterOnes() throws {
        let daemon = GestureDaemon(configuration: DaemonConfiguration(), launcher: RecordingLauncher(), log: LogLines().log)
        let pad = try RecordedDevices.rmi4
        let device = InputDevice(id: 7, description: pad)
        daemon.watchers.announce(.device(id: 7, pad))
        let lines = Lines()
        let watch = daemon.watchers.subscribe { lines.append($0) }
        daemon.deviceRemoved(device)
        daemon.watchers.unsubscribe(watch)
        #expect(lines.all.withLock { $0.last } == "{\"removed\":{\"device\":7}}")
        let later = Lines()
        let second = daemon.watchers.subscribe { later.append($0) }
        daemon.watchers.unsubscribe(second)
        #expect(later.all.withLock { $0.isEmpty })
    }
}
