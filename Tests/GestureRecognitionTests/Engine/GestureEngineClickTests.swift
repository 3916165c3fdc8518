import Foundation
import Testing

@testable import GestureRecognition

@Suite("GestureEngine clicks")
struct GestureEngineClickTests {
    /// `fingers` resting fingers that press the pad down from `press` to
    /// `release` seconds and lift at `lift`.
    static func click(fingers: Int, press: Double, release: Double, lift: Double) -> SyntheticTouch {
        var touch = SyntheticTouch.still(fingers: fingers, contact: lift)
        touch.buttonDown = { t in t >= press && t < release }
        return touch
    }

    @Test("a click with 1 to 5 fingers is no tap, hold or gesture", arguments: 1...5, [0.05, 0.3])
    func clickIsNoGesture(fingers: Int, press: Double) {
        let touch = Self.click(fingers: fingers, press: press, release: press + 0.12, lift: press + 0.2)
        let events = run(touch.frames()).events
        // Pressed before the hold delay: nothing at all; after it: the hold
        // that began ends cancelled at the click.
        #expect(completions(events).allSatisfy { $0.cancelled == true }, "\(events.map(\.jsonLine))")
        if press < 0.2 { #expect(events.isEmpty, "\(events.map(\.jsonLine))") }
        #expect(isWellPaired(events))
    }

    @Test("a quick click is no tap, even with the fingers lifting at once")
    func quickClickIsNoTap() {
        let touch = Self.click(fingers: 1, press: 0.03, release: 0.06, lift: 0.08)
        #expect(run(touch.frames()).events.isEmpty)
    }

    @Test("a gesture in progress when the pad is clicked ends cancelled", arguments: ["swipe", "pinch", "hold"])
    func clickCancelsGestureInProgress(kind: String) {
        var touch: SyntheticTouch
        switch kind {
        case "swipe": touch = SyntheticTouch.swipe(fingers: 3, travel: Point(x: 30, y: 0), moveDuration: 0.5)
        case "pinch": touch = SyntheticTouch.pinch(fingers: 2, scale: 1.8, moveDuration: 0.5)
        default: touch = SyntheticTouch.still(fingers: 2, contact: 0.6)
        }
        touch.buttonDown = { t in t >= 0.4 && t < 0.5 }
        let events = run(touch.frames()).events
        let ends = completions(events)
        #expect(ends.count == 1, "\(events.map(\.jsonLine))")
        #expect(ends.first?.cancelled == true)
        #expect(ends.first.map { $0.time - .seconds(1) } == .milliseconds(400))
        #expect(events.last?.phase == .end)
        #expect(isWellPaired(events))
    }

    @Test("after a click nothing starts until every finger lifts; then gestures work again")
    func clickWaitsForLift() {
        var touch = SyntheticTouch.swipe(fingers: 3, travel: Point(x: 30, y: 0), moveDuration: 0.3, rest: 0.2)
        touch.buttonDown = { t in t >= 0.05 && t < 0.1 }  // clicked, released, then the fingers swipe
        #expect(run(touch.frames()).events.isEmpty)
        var later = SyntheticTouch.swipe(fingers: 3, travel: Point(x: 30, y: 0), moveDuration: 0.3)
        later.origin = .seconds(3)
        let both = touch.frames() + later.frames()
        #expect(completions(run(both).events).map(\.type) == [.swipe])
    }

    @Test("a button held with no finger on the pad is nothing")
    func buttonWithoutTouch() {
        let frames = [
            GestureFrame(time: .milliseconds(0), contacts: [], isButtonDown: true),
            GestureFrame(time: .milliseconds(50), contacts: [], isButtonDown: false),
        ]
        let (events, engine) = run(frames)
        #expect(events.isEmpty)
        #expect(engine.stateName == .idle)
    }
}
