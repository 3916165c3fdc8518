import Foundation
import Testing

@testable import GestureRecognition

@Suite("GestureEngine taps and holds")
struct GestureEngineTapHoldTests {
    @Test(
        "fingers landing and lifting quickly are one tap with all of them",
        arguments: 1...5, GestureSurface.Kind.allCases)
    func tapIsRecognized(fingers: Int, kind: GestureSurface.Kind) {
        let surface = kind == .touchpad ? SyntheticTouch.pad : SyntheticTouch.screen
        for (spread, jitter) in [(0.0, 0.0), (0.06, 0.3)] {
            var touch = SyntheticTouch.still(fingers: fingers, contact: 0.09, landingSpread: spread)
            touch.jitterMillimeters = jitter
            touch.frameRate = 125
            let events = run(touch.frames(), on: surface).events
            #expect(
                events == [GestureEvent(type: .tap, time: events.first?.time ?? .zero, fingers: fingers)],
                "\(events)")
        }
    }

    @Test("a tap counts fingers the pad reports without a slot")
    func tapCountsFingersWithoutSlots() {
        // Three fingers on a pad with two slots: BTN_TOOL_TRIPLETAP says three.
        var touch = SyntheticTouch.still(fingers: 2, contact: 0.1)
        touch.fingerCount = { t, contacts in contacts == 2 && t > 0.01 && t < 0.08 ? 3 : contacts }
        let events = run(touch.frames()).events
        #expect(events.map(\.type) == [.tap])
        #expect(events.first?.fingers == 3)
    }

    @Test("fingers touching longer than the tap time, or moving, do not tap")
    func slowOrMovingTouchIsNoTap() {
        var holdsOff = GestureEngine.Configuration()
        holdsOff.holds = false
        let tapSeconds = Double(holdsOff.tapMaximumDuration.components.attoseconds) / 1e18
        let long = SyntheticTouch.still(fingers: 2, contact: tapSeconds + 0.02)
        #expect(run(long.frames(), configuration: holdsOff).events.isEmpty)
        #expect(run(long.frames()).events.map(\.type) == [.hold, .hold])
        var moving = SyntheticTouch.swipe(fingers: 2, travel: Point(x: 3, y: 0), moveDuration: 0.05, rest: 0.02)
        moving.frameRate = 100
        #expect(run(moving.frames()).events.filter { $0.type == .tap }.isEmpty)
    }

    @Test("fingers resting still become a hold that ends when they lift", arguments: 1...5)
    func holdIsRecognized(fingers: Int) {
        for (spread, jitter) in [(0.0, 0.0), (0.06, 0.3)] {
            var touch = SyntheticTouch.still(fingers: fingers, contact: 0.6, landingSpread: spread)
            touch.jitterMillimeters = jitter
            let events = run(touch.frames()).events
            #expect(events.map(\.type) == [.hold, .hold], "\(events)")
            #expect(events.first?.phase == .begin)
            #expect(events.first?.fingers == fingers)
            #expect(events.first.map { $0.time - .seconds(1) } == .seconds(fingers > 1 ? spread : 0) + .milliseconds(200))
            #expect(events.last?.phase == .end)
            #expect(events.last?.cancelled == false)
        }
    }

    @Test("motion after a hold cancels it and the swipe begins", arguments: 3...4)
    func motionCancelsHold(fingers: Int) {
        let touch = SyntheticTouch.swipe(fingers: fingers, travel: Point(x: 0, y: -25), moveDuration: 0.2, rest: 0.4)
        let events = run(touch.frames()).events
        let ends = completions(events)
        #expect(ends.map(\.type) == [.hold, .swipe])
        #expect(ends.first?.cancelled == true)
        #expect(ends.last?.direction == .up)
        #expect(abs((ends.last?.dyMillimeters ?? 0) + 25) < 1)
        #expect(isWellPaired(events))
    }

    @Test("a finger joining a hold makes a hold with more fingers, counted from its landing")
    func fingerJoiningHoldRestartsHoldFromItsLanding() {
        // Two fingers rest; a third lands 250 ms later (after the hold began).
        let touch = SyntheticTouch(
            fingers: (0..<3).map { i in
                SyntheticTouch.Finger(id: i, down: i == 2 ? 0.25 : 0, up: 0.8) { _ in Point(x: 30 + 12 * Double(i), y: 30) }
            })
        let configuration = GestureEngine.Configuration()
        let events = run(touch.frames(), configuration: configuration).events
        #expect(events.map(\.fingers) == [2, 2, 3, 3])
        #expect(events.map(\.cancelled) == [nil, true, nil, false])
        let landed = Duration.seconds(1.25)
        #expect(events[1].time == landed + configuration.fingerChangeDebounce)
        #expect(events[2].time == landed + configuration.holdDelay)
    }

    /// A semi-MT two-finger tap as the ALPS GlidePoint reports it: one
    /// position for both fingers, jumping as the second lands and drifting 9 mm
    /// over the next frame, then still until the fingers lift.
    static func semiMultitouchTap() -> [GestureFrame] {
        func frame(_ ms: Int, _ fingers: Int, _ x: Double, _ y: Double) -> GestureFrame {
            GestureFrame(
                time: .milliseconds(ms), contacts: fingers == 0 ? [] : [.init(id: 0, position: Point(x: x, y: y))],
                fingerCount: fingers)
        }
        var frames = [frame(0, 1, 26.5, 30.6), frame(11, 1, 26.2, 28.6), frame(31, 2, 47.7, 12.9), frame(52, 2, 47, 21.7)]
        for (k, ms) in stride(from: 72, through: 194, by: 20).enumerated() {
            frames.append(frame(ms, 2, 47 - 0.1 * Double(k % 3), 21.7 + 0.3 * Double(k % 4 - 2)))
        }
        frames += [frame(214, 1, 47.3, 13.6), frame(225, 0, 0, 0)]
        return frames
    }

    @Test("on a semi-multitouch pad the settling position of a two-finger tap is no motion")
    func semiMultitouchTapIsATap() {
        var pad = SyntheticTouch.pad
        pad.positionsAreApproximate = true
        #expect(run(Self.semiMultitouchTap(), on: pad).events == [GestureEvent(type: .tap, time: .milliseconds(225), fingers: 2)])
        // The same positions from a pad that tracks each finger are a swipe.
        #expect(completions(run(Self.semiMultitouchTap()).events).map(\.type) == [.swipe])
    }

    @Test("holds can be turned off")
    func holdsCanBeTurnedOff() {
        var configuration = GestureEngine.Configuration()
        configuration.holds = false
        #expect(run(SyntheticTouch.still(fingers: 3, contact: 0.6).frames(), configuration: configuration).events.isEmpty)
    }
}

@Suite("GestureEngine strokes and sequences")
struct GestureEngineStrokeSequenceTests {
    static func circle(center: Point, radius: Double) -> [Point] {
        (0...72).map { k in
            let angle = -Double.pi / 2 - Double(k) / 64 * 2 * Double.pi
            return center + Point(x: cos(angle), y: sin(angle)) * radius
        }
    }

    static func triangle(at origin: Point, size: Double) -> [Point] {
        [(0.45, 0.0), (0, 1), (1, 1), (0.45, 0)].map { origin + Point(x: $0.0, y: $0.1) * size }
    }

    @Test(
        "one finger drawing on a touchscreen is recognised as a stroke",
        arguments: [("circle", 0.0), ("circle", 0.3), ("triangle", 0.0), ("triangle", 0.3)])
    func strokeIsRecognized(shape: String, jitter: Double) {
        let path =
            shape == "circle"
            ? Self.circle(center: Point(x: 100, y: 60), radius: 25)
            : Self.triangle(at: Point(x: 70, y: 30), size: 50)
        var touch = SyntheticTouch.drawing(path, duration: 0.8)
        touch.jitterMillimeters = jitter
        touch.frameRate = 120
        let events = run(touch.frames(), on: SyntheticTouch.screen, templates: .dollarShapes).events
        #expect(events.count == 1, "\(events)")
        #expect(events.first?.type == .stroke)
        #expect(events.first?.template == shape)
        #expect((events.first?.score ?? 0) >= 0.75)
        #expect(events.first?.fingers == 1)
    }

    @Test("a touchpad draws strokes only with the configured finger count")
    func touchpadStrokeTrigger() {
        let path = Self.circle(center: Point(x: 50, y: 30), radius: 20)
        var threeFingers = SyntheticTouch()
        for i in 0..<3 {
            threeFingers.fingers.append(
                .init(id: i, down: 0, up: 0.81) { t in
                    let position = min(max(t / 0.8, 0), 1) * Double(path.count - 1)
                    let k = min(Int(position), path.count - 2)
                    return path[k] + (path[k + 1] - path[k]) * (position - Double(k)) + Point(x: Double(i - 1) * 10, y: 0)
                })
        }
        let off = run(threeFingers.frames(), templates: .dollarShapes).events
        #expect(off.filter { $0.type == .stroke }.isEmpty)
        var configuration = GestureEngine.Configuration()
        configuration.touchpadStrokeFingers = 3
        let on = run(threeFingers.frames(), configuration: configuration, templates: .dollarShapes).events
        #expect(on.map(\.type) == [.stroke])
        #expect(on.first?.template == "circle")
        #expect(on.first?.fingers == 3)
    }

    static func swipes(_ directions: [SwipeDirection], gap: Double = 0.4) -> [GestureFrame] {
        var frames: [GestureFrame] = []
        for (k, direction) in directions.enumerated() {
            var touch = SyntheticTouch.swipe(
                fingers: 3, from: Point(x: 50, y: 30) - direction.unitVector * 12, travel: direction.unitVector * 24,
                moveDuration: 0.15)
            touch.origin = .seconds(1) + .seconds(Double(k) * gap)
            touch.jitterMillimeters = 0.3
            touch.seed = UInt64(k + 3)
            frames += touch.frames()
        }
        return frames
    }

    static let sequences: [SwipeSequenceMatcher.NamedSequence] = [
        .init(name: "up-up", directions: [.up, .up]),
        .init(name: "up-down", directions: [.up, .down]),
        .init(name: "left", directions: [.left]),
        .init(name: "left-left-right", directions: [.left, .left, .right]),
    ]

    @Test(
        "completed swipes make named sequences",
        arguments: [
            ([SwipeDirection.up, .up], ["up-up"]),
            ([.up, .down], ["up-down"]),
            ([.left, .left, .right], ["left-left-right"]),
            ([.left, .up, .up], ["left", "up-up"]),
            ([.down, .right], []),
        ])
    func sequencesAreRecognized(directions: [SwipeDirection], names: [String]) {
        var configuration = GestureEngine.Configuration()
        configuration.sequences = Self.sequences
        let events = run(Self.swipes(directions), configuration: configuration).events
        #expect(events.filter { $0.type == .swipe && $0.phase == .end }.map(\.direction) == directions)
        #expect(events.filter { $0.type == .sequence }.map(\.name) == names)
        #expect(events.filter { $0.type == .sequence }.allSatisfy { $0.fingers == 3 })
    }

    @Test("a waiting sequence fires when the gap passes, at the time it was due")
    func waitingSequenceFiresOnAdvance() {
        var configuration = GestureEngine.Configuration()
        configuration.sequences = Self.sequences
        var engine = GestureEngine(surface: SyntheticTouch.pad, configuration: configuration)
        var events: [GestureEvent] = []
        for frame in Self.swipes([.left]) { events += engine.process(frame) }
        let end = events.last { $0.type == .swipe }!
        #expect(events.filter { $0.type == .sequence }.isEmpty)
        events += engine.advance(to: end.time + .milliseconds(500))
        #expect(events.filter { $0.type == .sequence }.isEmpty)
        events += engine.advance(to: end.time + .seconds(3))
        let fired = events.filter { $0.type == .sequence }
        #expect(fired.map(\.name) == ["left"])
        #expect(fired.first?.time == end.time + .milliseconds(800))
    }

    @Test("fired timers leave the clock at the last one, so a frame stamped before the call is in order")
    func fireTimersKeepsTheClockAtTheTimer() {
        var configuration = GestureEngine.Configuration()
        configuration.sequences = Self.sequences
        var engine = GestureEngine(surface: SyntheticTouch.pad, configuration: configuration)
        var events: [GestureEvent] = []
        for frame in Self.swipes([.left]) { events += engine.process(frame) }
        let end = events.last { $0.type == .swipe }!
        let fired = engine.fireTimers(dueBy: end.time + .seconds(3))
        #expect(fired.map(\.name) == ["left"])
        #expect(fired.first?.time == end.time + .milliseconds(800))
        #expect(engine.nextDeadline == nil)
        _ = engine.process(GestureFrame(time: end.time + .seconds(1), contacts: [], fingerCount: 0))
        #expect(engine.diagnostics.isEmpty, "\(engine.diagnostics)")
        // advance(to:) moves the clock all the way: the same frame is then late.
        var advanced = GestureEngine(surface: SyntheticTouch.pad, configuration: configuration)
        for frame in Self.swipes([.left]) { _ = advanced.process(frame) }
        _ = advanced.advance(to: end.time + .seconds(3))
        _ = advanced.process(GestureFrame(time: end.time + .seconds(1), contacts: [], fingerCount: 0))
        #expect(advanced.diagnostics.map(\.kind) == [.timeWentBackwards])
    }
}
