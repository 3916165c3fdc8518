import DesktopDaemon
import Synchronization
import Testing

@Suite struct ChannelRequestsTests {
    final class Count: Sendable {
        let value = Mutex(0)
    }

    func daemon() throws -> (GestureDaemon, RecordingLauncher) {
        let launcher = RecordingLauncher()
        let configuration = try configuration(
            #"{"version":1,"bindings":[{"gesture":"tap","fingers":3,"action":{"command":["true"]}}]}"#)
        return (GestureDaemon(configuration: configuration, launcher: launcher, log: LogLines().log), launcher)
    }

    @Test func tryingRunsNothingThatFiresUntilTheClientStops() throws {
        let (daemon, launcher) = try daemon()
        let requests = ChannelRequests(daemon: daemon, reload: {})
        requests.take(ChannelRequest.try.line, from: 7)
        #expect(daemon.isTrying)
        daemon.handle(.init(type: .tap, time: .zero, fingers: 3), from: .init(id: 1, name: "pad"))
        daemon.runner.waitUntilIdle()
        #expect(launcher.launched.isEmpty)
        requests.take(ChannelRequest.stopTrying.line, from: 7)
        #expect(!daemon.isTrying)
        daemon.handle(.init(type: .tap, time: .milliseconds(500), fingers: 3), from: .init(id: 1, name: "pad"))
        daemon.runner.waitUntilIdle()
        #expect(launcher.launched == [["true"]])
    }

    @Test func tryingEndsWithTheLastClientThatAskedWhenItGoes() throws {
        let (daemon, _) = try daemon()
        let requests = ChannelRequests(daemon: daemon, reload: {})
        requests.take(ChannelRequest.try.line, from: 1)
        requests.take(ChannelRequest.try.line, from: 2)
        requests.closed(1)
        #expect(daemon.isTrying)
        requests.closed(2)
        #expect(!daemon.isTrying)
    }

    @Test func aReloadIsAskedOfTheReloaderAndAnythingElseIsIgnored() throws {
        let (daemon, _) = try daemon()
        let reloads = Count()
        let requests = ChannelRequests(daemon: daemon, reload: { reloads.value.withLock { $0 += 1 } })
        requests.take(ChannelRequest.reload.line, from: 1)
        requests.take("{\"request\":\"rm -rf\"}", from: 1)
        #expect(reloads.value.withLock { $0 } == 1)
        #expect(!daemon.isTrying)
    }
}
