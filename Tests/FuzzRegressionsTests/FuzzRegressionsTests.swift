// Every input under Tests/FuzzRegressions/TARGET (the seeds Tools/fuzz starts from, and
// every crash, hang or out-of-memory it found, once fixed) goes through the same code the
// fuzzer runs: a thrown error or a result passes; a trap ends the test process.
import DesktopDaemon
import Foundation
import Testing

@testable import gestures_fuzz

@Suite struct FuzzRegressionsTests {
    /// Tests/FuzzRegressions, found from this file's path.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("FuzzRegressions")

    /// The kept inputs of `target`, sorted by name.
    static func inputs(of target: FuzzTarget) -> [URL] {
        let folder = directory.appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test("every folder of Tests/FuzzRegressions names a fuzz target")
    func foldersNameTargets() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
        for folder in folders {
            #expect(FuzzTarget(rawValue: folder) != nil, "Tests/FuzzRegressions/\(folder) is no fuzz target")
        }
    }

    @Test("each kept input goes through its target without a trap", arguments: FuzzTarget.allCases)
    func keptInputs(target: FuzzTarget) throws {
        // A target without kept inputs would pass here having run nothing.
        #expect(!Self.inputs(of: target).isEmpty, "Tests/FuzzRegressions/\(target.rawValue) is missing or empty: keep a seed there")
        for url in Self.inputs(of: target) {
            let data = try Data(contentsOf: url)
            target.run(data)
        }
    }

    @Test("the event-stream target's copied pipeline gives what a newly built one gives")
    func copiedPipelines() throws {
        let inputs = try Self.inputs(of: .events).map { try Data(contentsOf: $0) }
        #expect(!inputs.isEmpty)
        // Twice each, so the second run copies a pipeline that the first one's copy used.
        for data in inputs + inputs {
            let copied = EventStream.run(data)
            #expect(copied == EventStream.run(data, rebuilding: true))
        }
        #expect(inputs.contains { !EventStream.run($0).isEmpty }, "no kept input makes a gesture")
    }

    @Test("the event-stream target finds the touch devices of Recordings/devices")
    func eventDevices() {
        #expect(EventStream.devices.count >= 5)
    }

    /// What the focus target `source` reads from its kept input `name`.
    static func follow(_ source: FocusReplies.Source, _ name: String) throws -> (focus: [FocusedWindow?], end: FocusError?) {
        let url = directory.appendingPathComponent("focus-\(source.rawValue)").appendingPathComponent(name)
        return FocusReplies.follow(source, serverSends: Array(try Data(contentsOf: url)))
    }

    @Test(
        "each focus target's session seed reaches the windows its server reports, so the fuzzer starts deep",
        arguments: [
            (FocusReplies.Source.x11, ["firefox", "XTerm"]), (.sway, ["foot", "firefox", "XTerm"]), (.hyprland, ["foot"]),
            (.wayland, ["firefox"]), (.dbus, ["firefox"]),
        ])
    func focusSessions(source: FocusReplies.Source, expected: [String]) throws {
        let name = source == .hyprland ? "event-lines" : "session"
        let (focus, end) = try Self.follow(source, name)
        let apps = focus.compactMap { $0?.appID }
        for app in expected { #expect(apps.contains(app), "\(source): \(focus), ended: \(String(describing: end))") }
        #expect(end != nil, "every source stops at the end of the bytes")
    }

    @Test("a lying server's seeds end in one sentence naming what it lied about")
    func focusLies() throws {
        #expect(try Self.follow(.x11, "vendor-length-past-the-end").end?.description.contains("vendor name runs past") == true)
        #expect(try Self.follow(.x11, "property-claiming-256-MiB").end?.description.contains("claiming 268435456 bytes") == true)
        #expect(try Self.follow(.x11, "reply-length-0x1FFFFFFF").end?.description.contains("over the limit") == true)
        #expect(try Self.follow(.x11, "refusal-with-escapes").end?.description.contains("\\u{1b}]0;pwned") == true)
        #expect(try Self.follow(.x11, "events-instead-of-a-reply").end?.description.contains("events without the reply it owed") == true)
        #expect(try Self.follow(.sway, "claims-over-64-MiB").end?.description.contains("over the limit") == true)
        #expect(try Self.follow(.wayland, "protocol-error").end?.description.contains("bad \\u{1b}[2J") == true)
        #expect(try Self.follow(.dbus, "refused").end?.description.contains("refused to authenticate") == true)
    }
}
