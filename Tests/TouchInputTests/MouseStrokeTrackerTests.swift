import GestureRecognition
import Testing
import TouchInput

@Suite struct MouseStrokeTrackerTests {
    /// The frames of one decoder, as a mouse's pipeline gives them to its tracker.
    struct Input {
        var decoder = MultitouchDecoder(device: StrokeButtonFilterTests.mouse)
        mutating func frame(_ events: InputEvent...) -> TouchFrame {
            for event in events { _ = decoder.process(event) }
            return decoder.process(InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: 0))!
        }
        mutating func move(_ dx: Int32, _ dy: Int32) -> TouchFrame {
            frame(
                InputEvent(type: EV.REL, code: REL.X, value: dx, microseconds: 0),
                InputEvent(type: EV.REL, code: REL.Y, value: dy, microseconds: 0))
        }
    }
    private func button(_ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(type: EV.KEY, code: code, value: value, microseconds: 0)
    }

    @Test func motionWithTheRightButtonHeldDrawsAStroke() {
        var input = Input()
        var tracker = MouseStrokeTracker()
        #expect(tracker.process(input.move(5, 5)) == nil)
        #expect(tracker.process(input.frame(button(BTN.RIGHT, 1))) == .began)
        #expect(tracker.process(input.move(10, 0)) == nil)
        #expect(tracker.process(input.move(0, 20)) == nil)
        let end = tracker.process(input.frame(button(BTN.RIGHT, 0)))
        #expect(end == .ended([Point(x: 5, y: 5), Point(x: 15, y: 5), Point(x: 15, y: 25)], lengthCounts: 30))
        #expect(!tracker.isDrawing)
    }

    @Test func pressWithoutMotionIsAClick() {
        var input = Input()
        var tracker = MouseStrokeTracker()
        _ = tracker.process(input.frame(button(BTN.RIGHT, 1)))
        _ = tracker.process(input.move(3, 4))
        #expect(tracker.process(input.frame(button(BTN.RIGHT, 0))) == .click(lengthCounts: 5))
    }

    @Test func otherButtonsDoNotDraw() {
        var input = Input()
        var tracker = MouseStrokeTracker()
        #expect(tracker.process(input.frame(button(BTN.LEFT, 1))) == nil)
        _ = tracker.process(input.move(50, 0))
        #expect(tracker.process(input.frame(button(BTN.LEFT, 0))) == nil)
    }

    @Test func configurableButtonDraws() {
        var input = Input()
        var tracker = MouseStrokeTracker(button: BTN.MIDDLE)
        #expect(tracker.process(input.frame(button(BTN.MIDDLE, 1))) == .began)
        _ = tracker.process(input.move(50, 0))
        #expect(tracker.process(input.frame(button(BTN.MIDDLE, 0))) == .ended([.zero, Point(x: 50, y: 0)], lengthCounts: 50))
    }

    @Test func cancelAbandonsTheStrokeInProgress() {
        var input = Input()
        var tracker = MouseStrokeTracker()
        #expect(tracker.cancel() == nil)
        _ = tracker.process(input.frame(button(BTN.RIGHT, 1)))
        _ = tracker.process(input.move(50, 0))
        #expect(tracker.cancel() == .cancelled)
        #expect(tracker.process(input.frame(button(BTN.RIGHT, 0))) == nil)
    }

    @Test func drawnCircleIsRecognised() throws {
        let template = try #require(TemplateLibrary.dollarShapes.samples(named: "circle").first)
        var input = Input()
        var tracker = MouseStrokeTracker()
        _ = tracker.process(input.frame(button(BTN.RIGHT, 1)))
        var last = template[0]
        for point in template.dropFirst() {
            _ = tracker.process(input.move(Int32((point.x - last.x).rounded()), Int32((point.y - last.y).rounded())))
            last = Point(x: last.x + (point.x - last.x).rounded(), y: last.y + (point.y - last.y).rounded())
        }
        guard case .ended(let stroke, _)? = tracker.process(input.frame(button(BTN.RIGHT, 0))) else {
            Issue.record("no stroke"); return
        }
        let outcome = UnistrokeRecognizer(library: .dollarShapes).recognize(stroke)
        #expect(outcome.match?.name == "circle")
    }
}
