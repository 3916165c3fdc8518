import GestureRecognition
import Testing
import TouchInput

@Suite struct MouseStrokeTrackerTests {
    private func frame(_ events: InputEvent...) -> [InputEvent] { events }
    private func button(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: EV.KEY, code: code, value: value, microseconds: 0) }
    private func move(_ dx: Int32, _ dy: Int32) -> [InputEvent] {
        frame(InputEvent(type: EV.REL, code: REL.X, value: dx, microseconds: 0), InputEvent(type: EV.REL, code: REL.Y, value: dy, microseconds: 0))
    }

    @Test func motionWithTheRightButtonHeldDrawsAStroke() {
        var tracker = MouseStrokeTracker()
        #expect(tracker.process(move(5, 5)) == nil)
        #expect(tracker.process(frame(button(BTN.RIGHT, 1))) == .began)
        #expect(tracker.process(move(10, 0)) == nil)
        #expect(tracker.process(move(0, 20)) == nil)
        let end = tracker.process(frame(button(BTN.RIGHT, 0)))
        #expect(end == .ended([Point(x: 5, y: 5), Point(x: 15, y: 5), Point(x: 15, y: 25)]))
        #expect(!tracker.isDrawing)
    }

    @Test func pressWithoutMotionIsAClick() {
        var tracker = MouseStrokeTracker()
        _ = tracker.process(frame(button(BTN.RIGHT, 1)))
        _ = tracker.process(move(3, 4))
        #expect(tracker.process(frame(button(BTN.RIGHT, 0))) == .click)
    }

    @Test func otherButtonsDoNotDraw() {
        var tracker = MouseStrokeTracker()
        #expect(tracker.process(frame(button(BTN.LEFT, 1))) == nil)
        _ = tracker.process(move(50, 0))
        #expect(tracker.process(frame(button(BTN.LEFT, 0))) == nil)
    }

    @Test func configurableButtonDraws() {
        var tracker = MouseStrokeTracker(button: BTN.MIDDLE)
        #expect(tracker.process(frame(button(BTN.MIDDLE, 1))) == .began)
        _ = tracker.process(move(50, 0))
        #expect(tracker.process(frame(button(BTN.MIDDLE, 0))) == .ended([.zero, Point(x: 50, y: 0)]))
    }

    @Test func cancelAbandonsTheStrokeInProgress() {
        var tracker = MouseStrokeTracker()
        #expect(tracker.cancel() == nil)
        _ = tracker.process(frame(button(BTN.RIGHT, 1)))
        _ = tracker.process(move(50, 0))
        #expect(tracker.cancel() == .cancelled)
        #expect(tracker.process(frame(button(BTN.RIGHT, 0))) == nil)
    }

    @Test func drawnCircleIsRecognised() throws {
        let template = try #require(TemplateLibrary.dollarShapes.samples(named: "circle").first)
        var tracker = MouseStrokeTracker()
        _ = tracker.process(frame(button(BTN.RIGHT, 1)))
        var last = template[0]
        for point in template.dropFirst() {
            _ = tracker.process(move(Int32((point.x - last.x).rounded()), Int32((point.y - last.y).rounded())))
            last = Point(x: last.x + (point.x - last.x).rounded(), y: last.y + (point.y - last.y).rounded())
        }
        guard case .ended(let stroke)? = tracker.process(frame(button(BTN.RIGHT, 0))) else {
            Issue.record("no stroke"); return
        }
        let outcome = UnistrokeRecognizer(library: .dollarShapes).recognize(stroke)
        #expect(outcome.match?.name == "circle")
    }
}
