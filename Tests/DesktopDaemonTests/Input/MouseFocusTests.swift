import DesktopDaemon
import Foundation
import GestureRecognition
import GestureTraces
import InputInterception
import TestSupport
import Testing
import TouchInput

private let xterm = FocusedWindow(appID: "xterm", title: "~", source: "test")
private let firefox = FocusedWindow(appID: "firefox", title: "Mozilla Firefox", source: "test")

/// A circle bound only for Firefox (claiming mouse strokes, the default) and
/// a triangle bound everywhere with `claim: false`.
private let mouseBindings = """
    {"version": 1, "mouse": {},
     "bindings": [
       {"gesture": "stroke", "template": "circle", "apps": ["firefox"], "action": {"command": ["firefox-circle"]}},
       {"gesture": "stroke", "template": "triangle", "claim": false, "action": {"command": ["triangle"]}}]}
    """

/// The mouse's stroke button follows the focus: a press is withheld only
/// when a binding claiming mouse strokes applies to the window focused as it
/// goes down, live (an `InterceptedDevice` asking the daemon's policy) and
/// replayed (`ReplaySource` with a recorded focus) alike.
@Suite("The mouse's stroke button follows the focused application")
struct MouseFocusTests {
    let mouse: DeviceDescription
    init() throws { mouse = try RecordedDevices.mouse }

    /// The frames of `name`'s first $1 sample drawn 200 counts across with
    /// the right button held, from `ms`, a frame every 8 ms; and the times
    /// of the press and the release (ms).
    func drawing(_ name: String, from ms: Int64) -> (frames: [[InputEvent]], press: Int64, release: Int64) {
        let points = TemplateLibrary.dollarShapes.samples(named: name)[0]
        let xs = points.map(\.x), ys = points.map(\.y)
        let scale = 200 / max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
        var frames: [[InputEvent]] = []
        func frame(_ at: Int64, _ parts: [(UInt16, UInt16, Int32)]) {
            frames.append(
                parts.map { InputEvent(type: $0.0, code: $0.1, value: $0.2, microseconds: at * 1000) }
                    + [InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: at * 1000)])
        }
        frame(ms, [(EV.KEY, BTN.RIGHT, 1)])
        var at = ms
        var drawn = Point(x: 0, y: 0)
        for point in points.dropFirst() {
            let target = Point(x: (point.x - points[0].x) * scale, y: (point.y - points[0].y) * scale)
            let dx = (target.x - drawn.x).rounded(), dy = (target.y - drawn.y).rounded()
            guard dx != 0 || dy != 0 else { continue }
            drawn = Point(x: drawn.x + dx, y: drawn.y + dy)
            at += 8
            frame(at, [(EV.REL, REL.X, Int32(dx)), (EV.REL, REL.Y, Int32(dy))])
        }
        at += 8
        frame(at, [(EV.KEY, BTN.RIGHT, 0)])
        return (frames, ms, at)
    }

    /// What came of a run: the decisions' log lines, the button events the
    /// clone got (value and time in ms) and the commands fired.
    struct Outcome: Equatable {
        var lines: [String] = []
        var decisions: [MouseDecision.Kind] = []
        var keys: [String] = []
        var launched: [String] = []
    }

    /// Runs `frames` live: the mouse intercepted as the daemon's loop runs
    /// it, its claims asked of the daemon, with the focus set by `focus`
    /// (the window focused from each time, in ms).
    func live(_ frames: [[InputEvent]], focus changes: [(Int64, FocusedWindow?)], bracket: String) throws -> Outcome {
        let focus = SettableFocus(nil)
        let launcher = RecordingLauncher()
        let daemon = GestureDaemon(
            configuration: try configuration(mouseBindings), launcher: launcher, inputDevices: RecordingInputDevices(),
            log: LogLines().log, focus: focus)
        let input = InputDevice(id: 0, description: mouse)
        var device = try #require(
            InterceptedDevice(
                device: mouse, setup: daemon.engineSetup().pipeline, originMicroseconds: frames[0][0].microseconds,
                policy: PassThroughFilter.Policy()))
        var outcome = Outcome()
        func take(_ step: InterceptedDevice.Step) {
            for event in step.gestures { daemon.handle(event, from: input) }
            for decision in step.decisions {
                outcome.decisions.append(decision.kind)
                if let line = DaemonLog.line(for: decision, on: bracket) { outcome.lines.append(line) }
            }
            outcome.keys += step.cloneFrames.joined().filter { $0.type == EV.KEY }.map { "\($0.value)@\($0.microseconds / 1000)" }
        }
        for frame in frames {
            let now = frame.last!.microseconds
            while let due = device.nextDeadlineMicroseconds, due <= now { take(device.fireTimers(dueBy: due)) }
            if let window = changes.last(where: { $0.0 * 1000 <= now }) { focus.set(window.1) }
            take(device.process(frame, nowMicroseconds: now, claims: { daemon.interceptionPolicy(for: input) }))
        }
        take(device.fireTimers(dueBy: frames.last!.last!.microseconds + 1_000_000))
        take(device.finish())
        daemon.runner.waitUntilIdle()
        outcome.launched = launcher.launched.map { $0[0] }
        return outcome
    }

    /// Runs `frames`, written as a recording, through `gestures run --replay`'s
    /// source with a recorded focus giving the same windows at the same times.
    func replayed(_ frames: [[InputEvent]], focus changes: [(Int64, FocusedWindow?)]) throws -> (Outcome, path: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mouse-focus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("mouse.jsonl")
        try StrokeTraces.write(Trace(devices: [mouse], frames: frames.map { Trace.Frame(device: 0, events: $0) }), to: path)
        let focusLines = changes.map { change in
            "{\"time_ms\":\(change.0),\"app\":\(change.1.map { "\"\($0.appID)\"" } ?? "null")}"
        }
        let focus = try RecordedFocus.parse(Data((focusLines.joined(separator: "\n") + "\n").utf8), file: "focus.jsonl")
        let launcher = RecordingLauncher()
        let log = LogLines()
        let daemon = GestureDaemon(
            configuration: try configuration(mouseBindings), launcher: launcher, inputDevices: RecordingInputDevices(), log: log.log,
            focus: focus)
        try daemon.run(ReplaySource(.files([path.path])))
        var outcome = Outcome()
        outcome.lines = log.all.filter { $0.hasPrefix("mouse ") }
        outcome.launched = launcher.launched.map { $0[0] }
        return (outcome, path.path)
    }

    /// Live and replayed, the same decisions and commands.
    func both(_ frames: [[InputEvent]], focus: [(Int64, FocusedWindow?)]) throws -> Outcome {
        let (replay, path) = try replayed(frames, focus: focus)
        let live = try self.live(frames, focus: focus, bracket: "\(mouse.name), \(path)")
        #expect(live.lines == replay.lines, "live \(live.lines), replayed \(replay.lines)")
        #expect(live.launched == replay.launched, "live \(live.launched), replayed \(replay.launched)")
        return live
    }

    @Test("a Firefox-only stroke binding: a press in xterm passes at once, its circle fires nothing")
    func pressInXtermPasses() throws {
        let circle = drawing("circle", from: 10)
        let outcome = try both(circle.frames, focus: [(0, xterm)])
        // The clone got the press in its own frame and the release in its own: nothing waited.
        #expect(outcome.keys == ["1@\(circle.press)", "0@\(circle.release)"])
        #expect(outcome.decisions == [.passed] && outcome.launched.isEmpty)
        #expect(outcome.lines.first?.hasPrefix("mouse passed") == true && outcome.lines.first!.contains("circle"), "\(outcome.lines)")
    }

    @Test("a press in Firefox is withheld and the circle fires the Firefox binding")
    func pressInFirefoxIsWithheld() throws {
        let outcome = try both(drawing("circle", from: 10).frames, focus: [(0, firefox)])
        #expect(outcome.keys.isEmpty && outcome.decisions == [.stroke] && outcome.launched == ["firefox-circle"])
    }

    @Test("a focus change during the stroke changes nothing: the focus of the press decides the claim and the match")
    func focusChangeMidStroke() throws {
        let circle = drawing("circle", from: 10)
        let middle = (circle.press + circle.release) / 2
        let claimed = try both(circle.frames, focus: [(0, firefox), (middle, xterm)])
        #expect(claimed.keys.isEmpty && claimed.decisions == [.stroke] && claimed.launched == ["firefox-circle"])
        let passed = try both(circle.frames, focus: [(0, xterm), (middle, firefox)])
        #expect(passed.keys == ["1@\(circle.press)", "0@\(circle.release)"])
        #expect(passed.decisions == [.passed] && passed.launched.isEmpty)
    }

    @Test("a claim: false binding fires from a passed press and from a withheld one")
    func unclaimedBindingFiresInBoth() throws {
        let triangle = drawing("triangle", from: 10)
        let inXterm = try both(triangle.frames, focus: [(0, xterm)])
        #expect(inXterm.keys.count == 2 && inXterm.decisions == [.passed] && inXterm.launched == ["triangle"])
        let inFirefox = try both(triangle.frames, focus: [(0, firefox)])
        #expect(inFirefox.keys.isEmpty && inFirefox.decisions == [.stroke] && inFirefox.launched == ["triangle"])
    }

    @Test("the policy claims a mouse's stroke button for stroke bindings without fingers that claim, on mice only")
    func policyOfAMouse() throws {
        let config = try configuration(mouseBindings)
        let mouseInput = InputDevice(id: 0, description: mouse)
        #expect(config.interceptionPolicy(for: mouseInput, focus: firefox).policy.claimsMouseStrokes)
        #expect(!config.interceptionPolicy(for: mouseInput, focus: xterm).policy.claimsMouseStrokes)
        #expect(!config.interceptionPolicy(for: mouseInput, focus: nil).policy.claimsMouseStrokes)
        // A touchpad's strokes are claimed only with claim: true, as before.
        let pad = InputDevice(id: 1, name: "SynPS/2 Synaptics TouchPad")
        #expect(config.interceptionPolicy(for: pad, focus: firefox).policy.claims.isEmpty)
    }
}
