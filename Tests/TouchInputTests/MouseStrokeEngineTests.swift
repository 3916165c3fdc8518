import Foundation
import GestureRecognition
import TestSupport
import Testing
import TouchInput

/// A mouse's pipeline: its timers, lost events and unplugging, from events
/// with their own times (the mouse of Recordings/devices/mouse.jsonl).
@Suite struct MouseStrokeEngineTests {
    /// Frames of a mouse, each ending in `SYN_REPORT` at its time.
    struct Script {
        var events: [InputEvent] = []
        mutating func frame(at ms: Int64, _ parts: [(UInt16, UInt16, Int32)]) {
            let time = ms * 1000
            events += parts.map { InputEvent(type: $0.0, code: $0.1, value: $0.2, microseconds: time) }
            events.append(InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: time))
        }
        mutating func press(at ms: Int64, _ value: Int32 = 1) { frame(at: ms, [(EV.KEY, BTN.RIGHT, value)]) }
        /// A circle of radius 100 counts drawn from `ms`, one frame every 8 ms.
        mutating func circle(from ms: Int64) -> Int64 {
            var last = Point(x: 0, y: -100)
            var time = ms
            for step in 1...40 {
                let angle = -Double.pi / 2 - Double(step) / 36 * 2 * Double.pi
                let point = Point(x: 100 * cos(angle), y: 100 * sin(angle))
                time = ms + Int64(step) * 8
                frame(
                    at: time, [(EV.REL, REL.X, Int32((point.x - last.x).rounded())), (EV.REL, REL.Y, Int32((point.y - last.y).rounded()))])
                last = Point(x: last.x + (point.x - last.x).rounded(), y: last.y + (point.y - last.y).rounded())
            }
            return time
        }
    }

    static func pipeline(withholding: Bool = true) throws -> GesturePipeline {
        let setup = GesturePipeline.Setup(mouse: MouseStrokeEngine.Settings(withholdsButton: withholding))
        return try #require(GesturePipeline(device: try RecordedDevices.mouse, originMicroseconds: 0, setup: setup))
    }

    @Test func aStrokeIsRecognisedWhenItsGraceIsOverByATimerAtItsDueTime() throws {
        var script = Script()
        script.press(at: 10)
        script.press(at: script.circle(from: 10) + 8, 0)
        var pipeline = try Self.pipeline()
        var gestures: [GestureEvent] = []
        for event in script.events { pipeline.process(event, into: &gestures) }
        let release = script.events.last!.microseconds
        #expect(gestures.isEmpty)
        #expect(pipeline.nextDeadlineMicroseconds == release + 100_000)
        #expect(pipeline.fireTimers(dueByMicroseconds: release + 99_999).isEmpty)
        let fired = pipeline.fireTimers(dueByMicroseconds: release + 250_000)
        #expect(fired.map(\.template) == ["circle"] && fired.first?.time == .microseconds(release + 100_000))
        #expect(pipeline.takeDecisions().map(\.kind) == [.stroke])
        #expect(pipeline.nextDeadlineMicroseconds == nil)
    }

    @Test func unpluggingWithinTheGraceCancelsTheStroke() throws {
        var script = Script()
        script.press(at: 10)
        script.press(at: script.circle(from: 10) + 8, 0)
        var pipeline = try Self.pipeline()
        for event in script.events { _ = pipeline.process(event) }
        #expect(pipeline.cancel(reason: "the device is gone").isEmpty)
        let decisions = pipeline.takeDecisions()
        #expect(decisions.map(\.kind) == [.cancelled] && decisions[0].reason == "the device is gone")
        #expect(pipeline.finish().isEmpty && pipeline.takeDecisions().isEmpty)
    }

    @Test func lostEventsCancelTheStrokeAndAButtonHeldAfterThemStartsNone() throws {
        var script = Script()
        script.press(at: 10)
        _ = script.circle(from: 10)
        // SYN_DROPPED, then the reader's resync showing the button still down.
        script.events.append(InputEvent(type: EV.SYN, code: SYN.DROPPED, value: 0, microseconds: 400_000))
        script.events.append(InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: 400_000))
        script.press(at: 400)
        _ = script.circle(from: 400)
        script.press(at: 800, 0)
        var pipeline = try Self.pipeline()
        var gestures: [GestureEvent] = []
        for event in script.events { pipeline.process(event, into: &gestures) }
        gestures += pipeline.finish()
        #expect(gestures.isEmpty)
        let decisions = pipeline.takeDecisions()
        #expect(decisions.map(\.kind) == [.cancelled] && decisions[0].reason == "events were lost")
        // The withheld button stayed from the clone through the resync; the release too.
        #expect(!pipeline.takeCloneFrames().flatMap { $0 }.contains { $0.type == EV.KEY })
    }

    @Test func withheldClicksReachTheCloneAtTheReleaseAndStrokesNever() throws {
        var script = Script()
        script.press(at: 10)
        script.press(at: 90, 0)
        script.press(at: 200)
        script.press(at: script.circle(from: 200) + 8, 0)
        var pipeline = try Self.pipeline()
        for event in script.events { _ = pipeline.process(event) }
        _ = pipeline.finish()
        let keys = pipeline.takeCloneFrames().flatMap { $0 }.filter { $0.type == EV.KEY }
        #expect(keys.map(\.value) == [1, 0] && keys.allSatisfy { $0.microseconds == 90_000 })
        #expect(pipeline.takeDecisions().map(\.kind) == [.click, .stroke])
    }

    @Test func notWithheldTheCloneGetsNothingAndAStillPressIsStillAStroke() throws {
        var script = Script()
        script.press(at: 10)
        script.press(at: script.circle(from: 500) + 8, 0)
        var pipeline = try Self.pipeline(withholding: false)
        var gestures: [GestureEvent] = []
        for event in script.events { pipeline.process(event, into: &gestures) }
        gestures += pipeline.finish()
        #expect(gestures.map(\.template) == ["circle"])
        #expect(pipeline.takeCloneFrames().isEmpty)
        // Withheld, the same press passes as a press at 310 ms and draws nothing.
        var withheld = try Self.pipeline()
        var none: [GestureEvent] = []
        for event in script.events { withheld.process(event, into: &none) }
        none += withheld.finish()
        let decisions = withheld.takeDecisions()
        #expect(none.isEmpty && decisions.map(\.kind) == [.press] && decisions[0].time == .milliseconds(310))
    }

    @Test func theVerdictIsTheStrokeRulesInCounts() throws {
        let engine = MouseStrokeEngine(settings: .init(), templates: .dollarShapes, originMicroseconds: 0)
        let circle = TemplateLibrary.dollarShapes.samples(named: "circle")[0]
        let rule = MouseStrokeEngine.Settings.defaultRule
        let recognizer = UnistrokeRecognizer(library: .dollarShapes, configuration: MouseStrokeEngine.Settings.defaultRecognition)
        #expect(engine.verdict(for: circle) == rule.judge(circle, with: recognizer))
        #expect(engine.verdict(for: circle).acceptedMatch?.name == "circle")
        #expect(engine.verdict(for: [.zero]).rejection?.rule == .stroke)
        // A circle 20 counts across is too short by the mouse's minimum, in counts.
        let small = circle.map { Point(x: $0.x * 0.2, y: $0.y * 0.2) }
        let verdict = engine.verdict(for: small)
        #expect(verdict.rejection?.rule == .length)
        #expect(verdict.description.hasPrefix("too short: ") && verdict.description.hasSuffix(" of 50 counts"), "\(verdict)")
        let touch = StrokeRule(GestureEngine.Configuration())
        #expect(rule.unit == .counts && rule.minimumLength == 50)
        #expect(rule.minimumWidthRatio == touch.minimumWidthRatio && rule.minimumMargin == touch.minimumMargin)
    }

    @Test func anUnclaimedPressReachesTheCloneAtOnceAndItsStrokeStillFires() throws {
        var script = Script()
        script.press(at: 10)
        script.press(at: script.circle(from: 10) + 8, 0)
        var pipeline = try Self.pipeline()
        var gestures: [GestureEvent] = []
        var asked = 0
        for event in script.events {
            pipeline.process(
                event, into: &gestures,
                claimsButton: {
                    asked += 1
                    return false
                })
        }
        gestures += pipeline.finish()
        // Asked once, at the press; the press and the release went out in their own frames, at their times.
        #expect(asked == 1)
        let keys = pipeline.takeCloneFrames().flatMap { $0 }.filter { $0.type == EV.KEY }
        #expect(keys.map(\.value) == [1, 0] && keys.first?.microseconds == 10_000)
        #expect(keys.last?.microseconds == script.events.last!.microseconds)
        #expect(gestures.map(\.template) == ["circle"] && gestures.first?.source == .mouse)
        let decisions = pipeline.takeDecisions()
        #expect(decisions.map(\.kind) == [.passed] && decisions[0].template == "circle", "\(decisions)")
        #expect(decisions[0].reason.hasPrefix("no binding claimed the press: it reached the desktop at once"), "\(decisions[0].reason)")
    }

    @Test func anUnclaimedClickOrStillPressPassesAtOnceWithOneDecision() throws {
        var script = Script()
        script.press(at: 10)
        script.frame(at: 30, [(EV.REL, REL.X, 2)])
        script.press(at: 50, 0)
        script.press(at: 100)  // held still well past the press delay
        script.press(at: 900, 0)
        var pipeline = try Self.pipeline()
        var gestures: [GestureEvent] = []
        for event in script.events { pipeline.process(event, into: &gestures, claimsButton: { false }) }
        gestures += pipeline.finish()
        let keys = pipeline.takeCloneFrames().flatMap { $0 }.filter { $0.type == EV.KEY }
        #expect(keys.map(\.microseconds) == [10_000, 50_000, 100_000, 900_000])
        let decisions = pipeline.takeDecisions()
        #expect(gestures.isEmpty && decisions.map(\.kind) == [.passed, .passed], "\(decisions)")
        #expect(decisions.map(\.time) == [.milliseconds(50), .milliseconds(900)])
    }

    @Test func theClaimIsDecidedAtThePressAndKeptForTheWholeStroke() throws {
        // Claimed at the press, unclaimed from the next frame on (a focus change mid-stroke): still withheld.
        var script = Script()
        script.press(at: 10)
        script.press(at: script.circle(from: 10) + 8, 0)
        var pipeline = try Self.pipeline()
        var gestures: [GestureEvent] = []
        var claimed = true
        for event in script.events {
            pipeline.process(event, into: &gestures, claimsButton: { claimed })
            if event.isSynReport { claimed = false }  // from the frame after the press's
        }
        gestures += pipeline.finish()
        #expect(!pipeline.takeCloneFrames().flatMap { $0 }.contains { $0.type == EV.KEY })
        #expect(gestures.map(\.template) == ["circle"] && pipeline.takeDecisions().map(\.kind) == [.stroke])
    }
}
