import DesktopDaemon
import Foundation
import GestureRecognition
import InputInterception
import Synchronization
import Testing

private let pad = InputDevice(id: 1, name: "SynPS/2 Synaptics TouchPad", vendor: 2, product: 7)
private let firefox = FocusedWindow(appID: "firefox", title: "Mozilla Firefox", source: "test")
private let foot = FocusedWindow(appID: "foot", title: "~", source: "test")

private let bindings = withBindings(
    [
        #"{"name": "back", "gesture": "swipe", "fingers": 3, "direction": "left", "apps": ["firefox"], "action": {"command": ["back"]}}"#,
        #"{"name": "workspace", "gesture": "swipe", "fingers": 3, "direction": "left", "action": {"command": ["workspace"]}}"#,
        #"{"name": "zoom", "gesture": "pinch", "fingers": 3, "apps": "eog", "action": {"command": ["zoom"]}}"#,
    ].joined(separator: ","))

/// A swipe left of 3 fingers starting at `start`.
private func swipe(at start: Duration = .zero) -> [GestureEvent] {
    Stream.swipe(fingers: 3, steps: [(-10, 0), (-30, 0)], direction: .left).map { event in
        var shifted = event
        shifted.time += start
        return shifted
    }
}

@Suite("Bindings and claims follow the focused application")
struct ApplicationBindingTests {
    @Test("the firefox binding fires only while firefox has the focus, the catch-all elsewhere and with no focus known")
    func firesByFocus() throws {
        let config = try configuration(bindings)
        for (focus, expected) in [(firefox, ["back"]), (foot, ["workspace"]), (nil, ["workspace"])] as [(FocusedWindow?, [String])] {
            var matcher = BindingMatcher(configuration: config)
            let fired = swipe().flatMap { matcher.process($0, from: pad, focus: focus) }.map { $0.command[0] }
            #expect(fired == expected, "focus \(focus?.appID ?? "none")")
        }
    }

    @Test("a focus change during a gesture changes nothing: the focus of its begin decides")
    func focusChangeMidGesture() throws {
        var matcher = BindingMatcher(configuration: try configuration(bindings))
        let events = swipe()
        var fired: [String] = []
        for (index, event) in events.enumerated() {
            // Firefox when the fingers land, the terminal for every later event.
            fired += matcher.process(event, from: pad, focus: index == 0 ? firefox : foot).map { $0.command[0] }
        }
        #expect(fired == ["back"])
    }

    @Test("explain says not this application, with the focused window, and claims nothing for it")
    func explainVerdict() throws {
        var matcher = BindingMatcher(configuration: try configuration(bindings))
        var verdicts: [BindingVerdict] = []
        for event in swipe() { verdicts = matcher.explain(event, from: pad, focus: foot).verdicts }
        let back = try #require(verdicts.first { $0.binding == "back" })
        #expect(back.reason == "not this application: its apps do not include the focused application (foot '~')")
        #expect(!back.claimed)
        let workspace = try #require(verdicts.first { $0.binding == "workspace" })
        #expect(workspace.fired && workspace.claimed)

        var inFirefox = BindingMatcher(configuration: try configuration(bindings))
        for event in swipe() { verdicts = inFirefox.explain(event, from: pad, focus: firefox).verdicts }
        let overridden = try #require(verdicts.first { $0.binding == "workspace" })
        #expect(overridden.reason == "not this application: 'back' names the focused application and wins")
        #expect(!overridden.claimed)
    }

    @Test("claims follow the focus: a gesture bound only for eog is claimed only while eog has the focus")
    func claimsFollowFocus() throws {
        let config = try configuration(bindings)
        let pinch = GestureEvent(type: .pinch, phase: .begin, time: .zero, fingers: 3)
        let eog = FocusedWindow(appID: "eog", source: "test")
        #expect(config.interceptionPolicy(for: pad, focus: eog).policy.verdict(for: pinch) == .claimed)
        #expect(config.interceptionPolicy(for: pad, focus: foot).policy.verdict(for: pinch) == .unclaimed)
        #expect(config.interceptionPolicy(for: pad, focus: nil).policy.verdict(for: pinch) == .unclaimed)
    }

    @Test("an application binding with claim: false leaves the gesture to that application, claimed elsewhere")
    func claimFalseForApplication() throws {
        let config = try configuration(
            withBindings(
                [
                    #"{"gesture": "swipe", "fingers": 3, "apps": "firefox", "claim": false, "action": {"command": ["firefox"]}}"#,
                    #"{"gesture": "swipe", "fingers": 3, "action": {"command": ["elsewhere"]}}"#,
                ].joined(separator: ",")))
        let begin = GestureEvent(type: .swipe, phase: .begin, time: .zero, fingers: 3)
        #expect(config.interceptionPolicy(for: pad, focus: firefox).policy.verdict(for: begin) == .unclaimed)
        #expect(config.interceptionPolicy(for: pad, focus: foot).policy.verdict(for: begin) == .claimed)
    }

    @Test("the daemon with a recorded focus fires the firefox binding only while firefox has the focus")
    func daemonWithRecordedFocus() throws {
        let focus = try RecordedFocus.parse(
            Data(
                """
                {"time_ms":0,"app":"firefox","title":"Mozilla Firefox"}
                {"time_ms":1500,"app":"foot","title":"~"}
                {"time_ms":3500,"app":"firefox"}
                {"time_ms":5500,"app":null}

                """.utf8), file: "focus.jsonl")
        let launcher = RecordingLauncher()
        let daemon = GestureDaemon(
            configuration: try configuration(bindings), launcher: launcher, inputDevices: RecordingInputDevices(), log: LogLines().log,
            focus: focus)
        try daemon.run(
            ClosureGestureSource { sink in
                for second in [0, 2, 4, 6] { for event in swipe(at: .seconds(second)) { sink.deliver(event, pad) } }
            })
        #expect(launcher.launched.map { $0[0] } == ["back", "workspace", "back", "workspace"])
    }

    @Test("the daemon matches a gesture with the focus of the moment its fingers landed (when the claims were asked)")
    func daemonLandingFocus() throws {
        let live = SettableFocus(firefox)
        let launcher = RecordingLauncher()
        let daemon = GestureDaemon(
            configuration: try configuration(bindings), launcher: launcher, inputDevices: RecordingInputDevices(), log: LogLines().log,
            focus: live)
        let begin = GestureEvent(type: .pinch, phase: .begin, time: .zero, fingers: 3)
        #expect(daemon.interceptionPolicy(for: pad).verdict(for: begin) == .unclaimed)
        live.set(FocusedWindow(appID: "eog", source: "test"))
        #expect(daemon.interceptionPolicy(for: pad).verdict(for: begin) == .claimed)
        live.set(foot)
        _ = daemon.interceptionPolicy(for: pad)  // the fingers land while foot has the focus...
        live.set(firefox)  // ...and firefox takes it before the engine sees a swipe
        try daemon.run(ClosureGestureSource { sink in for event in swipe() { sink.deliver(event, pad) } })
        #expect(launcher.launched.map { $0[0] } == ["workspace"])
    }
}

/// A focus source a test sets.
final class SettableFocus: FocusSource, Sendable {
    private let window: Mutex<FocusedWindow?>
    init(_ window: FocusedWindow?) { self.window = Mutex(window) }
    var name: String { "test" }
    func set(_ window: FocusedWindow?) { self.window.withLock { $0 = window } }
    func focusedWindow(at time: Duration) -> FocusedWindow? { window.withLock { $0 } }
}
