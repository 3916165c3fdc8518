import DeviceScripts
import Foundation
import GestureRecognition
import InputInterception
import TestSupport
import Testing
import TouchInput

/// Mice on the daemon's loop over fake devices: one more `InterceptedDevice`
/// beside the touch devices, its pipeline deciding what its clone gets.
@Suite struct MouseLoopTests {
    let pad: DeviceDescription
    let mouse: DeviceDescription
    init() throws {
        pad = try RecordedDevices.rmi4
        mouse = try RecordedDevices.mouse
    }

    /// A mouse's frames, each ending in `SYN_REPORT` at its time (ms).
    struct MouseScript {
        var frames: [[InputEvent]] = []

        mutating func frame(at ms: Int64, _ parts: [(UInt16, UInt16, Int32)]) {
            let time = ms * 1000
            frames.append(
                parts.map { InputEvent(type: $0.0, code: $0.1, value: $0.2, microseconds: time) }
                    + [InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: time)])
        }

        mutating func button(at ms: Int64, _ value: Int32) { frame(at: ms, [(EV.KEY, BTN.RIGHT, value)]) }

        /// A circle 200 counts across drawn from `ms` with the button held,
        /// a frame every 8 ms; returns the time of its release.
        mutating func circle(from ms: Int64) -> Int64 {
            button(at: ms, 1)
            var last = Point(x: 0, y: -100)
            var time = ms
            for step in 1...40 {
                let angle = -Double.pi / 2 - Double(step) / 36 * 2 * Double.pi
                let point = Point(x: 100 * cos(angle), y: 100 * sin(angle))
                let dx = (point.x - last.x).rounded(), dy = (point.y - last.y).rounded()
                last = Point(x: last.x + dx, y: last.y + dy)
                time = ms + Int64(step) * 8
                frame(at: time, [(EV.REL, REL.X, Int32(dx)), (EV.REL, REL.Y, Int32(dy))])
            }
            button(at: time + 8, 0)
            return time + 8
        }

        /// A click: the button down and up again after moving 2 counts.
        mutating func click(at ms: Int64) {
            button(at: ms, 1)
            frame(at: ms + 20, [(EV.REL, REL.X, 2)])
            button(at: ms + 40, 0)
        }
    }

    /// A policy claiming mouse strokes (a `gesture: stroke` binding without `fingers`).
    static let strokes = PassThroughFilter.Policy(claims: [.init(gesture: .stroke)])

    /// What the loop handed out for each device, and what reached the clones.
    struct Run {
        var io: ScriptedDevices
        var outputs: [DeviceLoop<ScriptedDevices>.Output] = []
        var warnings: [String] = []

        func gestures(of id: Int) -> [GestureEvent] {
            outputs.compactMap { if case .gesture(let event, let device) = $0, device.id == id { event } else { nil } }
        }
        func decisions(of id: Int) -> [MouseDecision] {
            outputs.compactMap { if case .decision(let decision, let device) = $0, device.id == id { decision } else { nil } }
        }
        func written(to handle: Int) -> [[InputEvent]] { io.written.filter { $0.device == handle }.map(\.events) }
    }

    /// Runs the loop over a mouse (handle 2) scripted by `script`, beside a
    /// touchpad (handle 1) that stays still; gesture times count from 0.
    func run(
        _ script: MouseScript, kinds: DeviceKinds = .all, intercepts: Bool = true,
        claims: @escaping () -> PassThroughFilter.Policy = { Self.strokes },
        prepare: (ScriptedDevices) -> Void = { _ in }
    ) -> Run {
        let io = ScriptedDevices(start: 0, end: (script.frames.last?.last?.microseconds ?? 0) + 1_000_000)
        io.add(1, DeviceFacts(node: "/dev/input/event1", description: pad))
        io.add(2, DeviceFacts(node: "/dev/input/event2", description: mouse))
        io.schedule(frames: script.frames, device: 2)
        prepare(io)
        var run = Run(io: io)
        let loop = DeviceLoop(
            io: io, devices: [1, 2], kinds: kinds, intercepts: intercepts, setup: { _ in GesturePipeline.Setup() },
            claims: { _ in claims() }, warn: { run.warnings.append($0) })
        do {
            try loop.run { output in
                run.outputs.append(output)
                return true
            }
        } catch {
            Issue.record("the loop failed: \(error)")
        }
        #expect(io.grabbed.isEmpty, "the loop ended with a device grabbed")
        return run
    }

    /// What a replay's pipeline gives for the same events: the mouse's
    /// pipeline alone, its button withheld as when intercepted.
    func replayed(_ script: MouseScript, withholding: Bool = true) throws -> (gestures: [GestureEvent], decisions: [MouseDecision]) {
        var setup = GesturePipeline.Setup()
        setup.mouse.withholdsButton = withholding
        var pipeline = try #require(GesturePipeline(device: mouse, originMicroseconds: 0, setup: setup))
        var gestures: [GestureEvent] = []
        for event in script.frames.joined() { pipeline.process(event, into: &gestures) }
        gestures += pipeline.finish()
        return (gestures, pipeline.takeDecisions())
    }

    @Test func aMouseIsOneMoreDeviceOfTheLoopAndGivesWhatItsReplayGives() throws {
        var script = MouseScript()
        let released = script.circle(from: 10)
        script.click(at: released + 300)
        let run = self.run(script)
        let opened = run.outputs.compactMap { if case .opened(let device) = $0 { device } else { nil } }
        #expect(opened.map(\.node) == ["/dev/input/event1", "/dev/input/event2"])
        #expect(opened.map(\.cloneNode) == ["/dev/input/clone1", "/dev/input/clone2"])
        let gestures = run.gestures(of: 2)
        #expect(gestures.map(\.template) == ["circle"] && gestures[0].source == .mouse)
        // Recognised when the unplug grace is over, in the events' clock: a timer of the loop.
        #expect(gestures[0].time == .milliseconds(released) + MouseStrokeEngine.unplugGrace)
        #expect(run.decisions(of: 2).map(\.kind) == [.stroke, .click])
        // Live equals replay: the same gestures and decisions, points and all.
        let replay = try replayed(script)
        #expect(gestures == replay.gestures && run.decisions(of: 2) == replay.decisions)
        #expect(run.gestures(of: 1).isEmpty && run.decisions(of: 1).isEmpty)
    }

    @Test func theClickReachesTheMouseClonesAtItsReleaseAndTheStrokesButtonNever() {
        var script = MouseScript()
        let released = script.circle(from: 10)
        script.click(at: released + 300)
        let run = self.run(script)
        let buttons = run.written(to: 2).joined().filter { $0.type == EV.KEY }.map { "\($0.code):\($0.value)" }
        #expect(buttons == ["\(BTN.RIGHT):1", "\(BTN.RIGHT):0"], "\(buttons)")
        // The circle's motion passes (pointerMotion pass); the touchpad's clone got nothing.
        #expect(run.written(to: 2).joined().contains { $0.type == EV.REL })
        #expect(run.written(to: 1).isEmpty)
        let click = run.io.written.filter { $0.device == 2 && $0.events.contains { $0.type == EV.KEY } }
        #expect(click.allSatisfy { $0.time == (released + 340) * 1000 }, "\(click.map(\.time))")
    }

    @Test func aMouseIsReadOnlyWhenTheLoopReadsMice() {
        var script = MouseScript()
        _ = script.circle(from: 10)
        let run = self.run(script, kinds: .touch)
        #expect(run.io.closed == [2])
        #expect(run.gestures(of: 2).isEmpty && run.decisions(of: 2).isEmpty)
        let onlyMice = self.run(script, kinds: .mice)
        #expect(onlyMice.io.closed == [1])
        #expect(onlyMice.gestures(of: 1).map(\.template) == ["circle"], "the mouse is the first device read")
    }

    @Test func aMouseGoneWithinTheGraceCancelsItsStrokeBeforeItIsRemoved() {
        var script = MouseScript()
        let released = script.circle(from: 10)
        let run = self.run(script, prepare: { $0.schedule(.remove, device: 2, at: (released + 50) * 1000) })
        #expect(run.gestures(of: 2).isEmpty)
        let decisions = run.decisions(of: 2)
        #expect(decisions.map(\.kind) == [.cancelled] && decisions[0].reason == "the device is gone")
        guard case .removed(let device, _)? = run.outputs.last else {
            Issue.record("not removed last: \(run.outputs)")
            return
        }
        #expect(device.id == 2 && !run.io.grabbed.contains(2))
    }

    @Test func aMouseWhoseCloneCannotBeWrittenToIsReadBesideTheDesktopAndSaysSo() throws {
        var script = MouseScript()
        script.click(at: 10)
        let released = script.circle(from: 400)
        let run = self.run(script, prepare: { $0.failingClones = [2] })
        #expect(
            run.warnings == [
                "stopped intercepting /dev/input/event2 (\(mouse.name)), reading it beside the desktop: Cannot write to /dev/uinput: No such device."
            ])
        #expect(!run.io.grabbed.contains(2))
        // The click had its button kept from the desktop; the stroke after it no longer has.
        let decisions = run.decisions(of: 2)
        #expect(decisions.map(\.kind) == [.click, .stroke])
        #expect(decisions[1].reason.hasPrefix("circle, score ") && !decisions[1].reason.contains("kept from the desktop"), "\(decisions)")
        #expect(run.gestures(of: 2).first?.time == .milliseconds(released) + MouseStrokeEngine.unplugGrace)
    }

    @Test func aMouseReadBesideTheDesktopWithholdsNothing() throws {
        var script = MouseScript()
        script.click(at: 10)
        _ = script.circle(from: 400)
        let run = self.run(script, intercepts: false)
        #expect(run.io.written.isEmpty)
        let replay = try replayed(script, withholding: false)
        #expect(run.decisions(of: 2) == replay.decisions && run.gestures(of: 2) == replay.gestures)
        #expect(replay.decisions.map(\.kind) == [.click, .stroke])
    }
}
