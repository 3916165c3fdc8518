import DesktopConfiguration
import DesktopDaemon
import Foundation
import GestureTraces
import Synchronization
import TestSupport
import Testing
import TouchInput

/// The daemon's socket, end to end: a client connected to a daemon
/// replaying a recording is handed the hello, the device, its frames and
/// the explanations of its gestures; a second daemon cannot take the socket.
@Suite struct DaemonChannelTests {
    final class Received: Sendable {
        let lines = Mutex<[String]>([])
        let ended = DispatchSemaphore(value: 0)
        let got = DispatchSemaphore(value: 0)

        /// A client of the socket at `path` whose every line is kept here.
        func connect(to path: String) throws -> DaemonConnection {
            try DaemonConnection(
                path: path,
                line: { [self] line in
                    lines.withLock { $0.append(line) }
                    got.signal()
                }, ended: { [self] _ in ended.signal() })
        }

        /// Waits (at most 10 s) until a line kept satisfies `condition`.
        func wait(until condition: (String) -> Bool) {
            waitForLines(until: { $0.contains(where: condition) })
        }

        /// Waits (at most 10 s, however many lines come meanwhile) until the lines kept satisfy `condition`.
        func waitForLines(until condition: ([String]) -> Bool) {
            let deadline = Date().addingTimeInterval(10)
            while !lines.withLock({ condition($0) }), Date() < deadline { _ = got.wait(timeout: .now() + 0.1) }
        }
    }

    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "gestures-channel-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return path
    }

    @Test func aWatcherSeesTheFramesAndTheVerdictsOfAReplay() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let configuration = try configuration(
            #"{"version":1,"bindings":[{"name":"left","gesture":"swipe","fingers":3,"direction":"left","action":{"command":["true"]}}]}"#)
        let daemon = GestureDaemon(configuration: configuration, launcher: RecordingLauncher(), log: LogLines().log)
        let path = folder + "/run/daemon.socket"
        let channel = try DaemonChannel(path: path, watchers: daemon.watchers, hello: { daemon.hello })
        channel.start()
        defer { channel.stop() }
        let received = Received()
        let connection = try received.connect(to: path)
        // The hello comes once the daemon took the connection: then it watches.
        #expect(received.got.wait(timeout: .now() + 10) == .success)
        #expect(daemon.watchers.isWatched)
        let trace = SharedData.repositoryRoot.appendingPathComponent("Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl").path
        try daemon.run(ReplaySource(.files([trace])))
        // The recording's frames: one line of the trace each, between its header and its end line.
        let count = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").count - 2
        // Every line published reaches the client; wait until the last explanation came.
        received.wait { $0.contains("\"phase\":\"end\"") }
        connection.close()
        #expect(received.ended.wait(timeout: .now() + 10) == .success)
        let lines = received.lines.withLock { $0 }
        #expect(lines.first?.hasPrefix("{\"hello\":{\"version\":1,") == true)
        #expect(lines.dropFirst().first?.hasPrefix("{\"device\":{\"id\":0,") == true)
        let frames = lines.filter { $0.hasPrefix("{\"frame\":") }
        #expect(frames.count == count)
        let end = try #require(lines.last { $0.hasPrefix("{\"explanation\":") && $0.contains("\"phase\":\"end\"") })
        #expect(end.contains("\"binding\":\"left\",\"path\":\"bindings[0]\",\"fired\":true"))
    }

    @Test func aClientThatRecordsGetsEveryFrameOfTheDeviceAndMakesTheSameTrace() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let daemon = GestureDaemon(configuration: DaemonConfiguration(), launcher: RecordingLauncher(), log: LogLines().log)
        let path = folder + "/run/daemon.socket"
        let requests = ChannelRequests(daemon: daemon, reload: {})
        let channel = try DaemonChannel(
            path: path, watchers: daemon.watchers, hello: { daemon.hello }, request: { requests.take($0, from: $1) },
            closed: { requests.closed($0) })
        channel.start()
        defer { channel.stop() }
        let received = Received()
        let connection = try received.connect(to: path)
        #expect(received.got.wait(timeout: .now() + 10) == .success)
        try connection.send(ChannelRequest.record.line)
        received.wait { $0.hasPrefix("{\"recording\":{\"on\":true") }
        #expect(daemon.isRecording)
        let file = SharedData.repositoryRoot.appendingPathComponent("Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl")
        let original = try Trace.load(contentsOf: file)
        try daemon.run(ReplaySource(.files([file.path])))
        let wanted = original.frames.filter { !$0.events.isEmpty }.count
        received.waitForLines(until: { $0.filter { $0.hasPrefix("{\"events\":") }.count >= wanted })
        connection.close()
        #expect(received.ended.wait(timeout: .now() + 10) == .success)
        var recorder = ChannelRecorder(device: 0)
        for line in received.lines.withLock({ $0 }) { recorder.take(line) }
        let trace = try recorder.trace()
        #expect(recorder.lost == 0)
        #expect(trace.devices == original.devices)
        #expect(trace.frames.map(\.events) == original.frames.filter { !$0.events.isEmpty }.map(\.events))
        // The client went: recording ends with it.
        var waited = 0
        while daemon.isRecording, waited < 1000 {
            Thread.sleep(forTimeInterval: 0.01)
            waited += 1
        }
        #expect(!daemon.isRecording)
    }

    @Test func aRecorderCountsTheFramesThatDidNotArrive() throws {
        var recorder = ChannelRecorder(device: 3)
        let events = [
            InputEvent(type: 3, code: 0, value: 5, microseconds: 1000), InputEvent(type: 0, code: 0, value: 0, microseconds: 1000),
        ]
        for sequence in [1, 2, 5, 6] {
            recorder.take(ChannelMessage.events(device: 3, sequence: sequence, events).jsonLine)
            recorder.take(ChannelMessage.events(device: 4, sequence: sequence * 10, events).jsonLine)
        }
        #expect(recorder.frames.count == 4)
        #expect(recorder.lost == 2)
        #expect(throws: TraceError.self) { try recorder.trace() }  // no device line came
    }

    @Test func aSecondDaemonCannotTakeASocketAnotherAnswersOn() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/daemon.socket"
        let first = try DaemonChannel(path: path, watchers: DaemonWatchers(), hello: { .hello(configuration: nil, bindings: 0) })
        first.start()
        defer { first.stop() }
        #expect(throws: DaemonChannel.Failure.self) {
            _ = try DaemonChannel(path: path, watchers: DaemonWatchers(), hello: { .hello(configuration: nil, bindings: 0) })
        }
    }

    @Test func theSocketAndItsFolderAreTheUsersAlone() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/run/daemon.socket"
        let channel = try DaemonChannel(path: path, watchers: DaemonWatchers(), hello: { .hello(configuration: nil, bindings: 0) })
        defer { channel.stop() }
        let socketMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder + "/run")[.posixPermissions] as? Int
        #expect(socketMode.map { $0 & 0o077 } == 0)
        #expect(folderMode == 0o700)
    }

    @Test func aClientWithNoDaemonIsToldHowToStartOne() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect {
            _ = try DaemonConnection(path: folder + "/none.socket", line: { _ in }, ended: { _ in })
        } throws: { error in
            (error as? DaemonConnection.Failure)?.description.contains("start it with `gestures run`") == true
        }
    }
}

extension DaemonChannelTests {
    @Test func aFolderOthersMayEnterIsRefusedForTheSocket() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(
            atPath: folder + "/open", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        #expect {
            _ = try DaemonChannel(
                path: folder + "/open/daemon.socket", watchers: DaemonWatchers(), hello: { .hello(configuration: nil, bindings: 0) })
        } throws: { error in
            (error as? DaemonChannel.Failure)?.description.contains("nobody else may enter (mode 0700)") == true
        }
    }
}
