import DesktopDaemon
import Foundation
import GestureRecognition
import Synchronization
import Testing

/// Explanations gathered from a daemon.
final class Explanations: Sendable {
    private let list = Mutex<[GestureExplanation]>([])
    var sink: @Sendable (GestureExplanation) -> Void { { [self] explanation in list.withLock { $0.append(explanation) } } }
    var all: [GestureExplanation] { list.withLock { $0 } }
}

@Suite("the daemon explains rejected strokes, can run nothing, and warns of device filters once live devices are known")
struct DaemonExplanationTests {
    static let bindings = withBindings(
        #"{"name": "the check", "gesture": "stroke", "template": "check", "action": {"command": ["a"]}},"#
            + #"{"name": "three", "gesture": "stroke", "fingers": 3, "action": {"command": ["b"]}},"#
            + #"{"name": "screen taps", "gesture": "tap", "fingers": 1, "device": {"name": ".*Touchscreen.*"}, "action": {"command": ["c"]}},"#
            + #"{"name": "taps", "gesture": "tap", "fingers": 1, "action": {"command": ["d"]}}"#)

    /// A stroke rejected by the length rule: 9 of 15 mm.
    static let rejected = DrawnStroke(
        time: .milliseconds(912), fingers: 1, points: [Point(x: 0, y: 0), Point(x: 0, y: 20), Point(x: 12, y: 20)],
        verdict: .rejected(.tooShort(length: 9, minimum: 15, unit: .millimeters)))

    @Test("a rejected stroke: its reason, and each stroke binding's verdict, fingers checked first")
    func rejectedStroke() throws {
        let explanations = Explanations()
        let log = LogLines()
        let daemon = GestureDaemon(
            configuration: try configuration(Self.bindings), launcher: RecordingLauncher(), log: log.log, explain: explanations.sink)
        let pad = InputDevice(id: 1, name: "pad")
        daemon.strokeDrawn(Self.rejected, on: pad)
        let explanation = try #require(explanations.all.first)
        #expect(explanations.all.count == 1)
        #expect(explanation.strokeRejected == "too short: 9 of 15 mm")
        #expect(explanation.event.type == .stroke && explanation.event.fingers == 1 && explanation.event.template == nil)
        #expect(
            explanation.text.split(separator: "\n").dropFirst().map(String.init) == [
                "  the stroke rule rejected it: too short: 9 of 15 mm",
                "  the check: the stroke rule rejected the stroke: too short: 9 of 15 mm",
                "  three: not this finger count: it wants 3",
            ])
        #expect(explanation.jsonLine.contains(#""stroke_rejected":"too short: 9 of 15 mm""#))
        #expect(log.all.count == 1 && log.all[0].hasSuffix("fired nothing: too short: 9 of 15 mm"), "\(log.all)")
        // An accepted stroke is explained through its event, not here; without explain, only the log line.
        let quiet = GestureDaemon(configuration: try configuration(Self.bindings), launcher: RecordingLauncher(), log: log.log)
        quiet.strokeDrawn(Self.rejected, on: pad)
        #expect(log.all.count == 2)
    }

    @Test(
        "a rejected stroke's verdicts say what a mouse's button would have been: claimed by a stroke binding without fingers, not on a touchpad"
    )
    func rejectedMouseStrokeClaims() throws {
        let json =
            #"{"version": 1, "intercept": true, "bindings": [{"name": "the check", "gesture": "stroke", "template": "check", "action": {"command": ["a"]}}]}"#
        let explanations = Explanations()
        let daemon = GestureDaemon(
            configuration: try configuration(json), launcher: RecordingLauncher(), log: LogLines().log, explain: explanations.sink)
        daemon.strokeDrawn(Self.rejected, on: InputDevice(id: 1, name: "mouse", isMouse: true))
        daemon.strokeDrawn(Self.rejected, on: InputDevice(id: 2, name: "pad"))
        #expect(explanations.all.map { $0.verdicts.map(\.claimed) } == [[true], [false]])
    }

    @Test("runsActions: false judges as the daemon does and launches nothing")
    func runsNothing() throws {
        let launcher = RecordingLauncher()
        let explanations = Explanations()
        let daemon = GestureDaemon(
            configuration: try configuration(Self.bindings), launcher: launcher, log: LogLines().log, explain: explanations.sink,
            runsActions: false)
        try daemon.run(
            ClosureGestureSource { sink in sink.deliver(GestureEvent(type: .tap, time: .zero, fingers: 1), InputDevice(id: 1, name: "pad"))
            })
        #expect(launcher.launched.isEmpty)
        #expect(daemon.runner.counts.finished == 0)
        #expect(explanations.all.first?.verdicts.map(\.reason) == ["not this device: its device filter does not take it", "fired"])
        // The same daemon that runs actions launches the one that fired.
        let running = GestureDaemon(configuration: try configuration(Self.bindings), launcher: launcher, log: LogLines().log)
        try running.run(
            ClosureGestureSource { sink in sink.deliver(GestureEvent(type: .tap, time: .zero, fingers: 1), InputDevice(id: 1, name: "pad"))
            })
        #expect(launcher.launched == [["d"]])
    }

    @Test("a source that started reading makes the daemon warn of device filters that match none of the devices it offered")
    func deviceFiltersAtStart() throws {
        let log = LogLines()
        let daemon = GestureDaemon(
            configuration: try configuration(Self.bindings), launcher: RecordingLauncher(), log: log.log, configurationPath: "/c.yaml")
        try daemon.run(
            ClosureGestureSource { sink in
                _ = sink.accepts(InputDevice(id: 1, name: "SynPS/2 Synaptics TouchPad"))
                sink.startedReading()
            })
        #expect(
            log.all == [
                "warning: /c.yaml: bindings[2].device: matches no device gestures can come from (there are 'SynPS/2 Synaptics TouchPad'), so 'screen taps' never fires"
            ], "\(log.all)")
        // With the touchscreen among the devices, nothing is said.
        let quiet = LogLines()
        let satisfied = GestureDaemon(configuration: try configuration(Self.bindings), launcher: RecordingLauncher(), log: quiet.log)
        try satisfied.run(
            ClosureGestureSource { sink in
                _ = sink.accepts(InputDevice(id: 2, name: "Atmel maXTouch Touchscreen"))
                sink.startedReading()
            })
        #expect(quiet.all.isEmpty, "\(quiet.all)")
    }
}
