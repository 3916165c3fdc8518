import GestureRecognition
import Testing
import TouchInput

@Suite struct TouchStrokeTrackerTests {
    private func frame(_ positions: [Point], fingers: Int? = nil, dropped: Bool = false) -> TouchFrame {
        var frame = TouchFrame()
        frame.contacts = positions.enumerated().map { index, point in
            Contact(id: index, slot: index, position: point)
        }
        frame.fingerCount = fingers ?? positions.count
        frame.followsDroppedEvents = dropped
        return frame
    }

    @Test func oneFingerDrawsAStrokeInMillimetres() {
        var tracker = TouchStrokeTracker(fingers: 1)
        for x in stride(from: 0.0, through: 30, by: 5) { #expect(tracker.process(frame([Point(x: x, y: 10)])) == nil) }
        guard case .ended(let points)? = tracker.process(frame([])) else { Issue.record("no stroke"); return }
        #expect(points.first == Point(x: 0, y: 10) && points.last == Point(x: 30, y: 10) && points.count == 7)
    }

    @Test func twoFingersDrawTheirCentroid() {
        var tracker = TouchStrokeTracker(fingers: 2)
        _ = tracker.process(frame([Point(x: 0, y: 0), Point(x: 10, y: 0)]))
        _ = tracker.process(frame([Point(x: 20, y: 0), Point(x: 30, y: 0)]))
        #expect(tracker.process(frame([])) == .ended([Point(x: 5, y: 0), Point(x: 25, y: 0)]))
    }

    @Test func aShortTouchIsNotAStroke() {
        var tracker = TouchStrokeTracker(fingers: 1)
        _ = tracker.process(frame([Point(x: 0, y: 0)]))
        _ = tracker.process(frame([Point(x: 3, y: 0)]))
        #expect(tracker.process(frame([])) == .tooShort)
    }

    @Test func anotherFingerCountCancelsAndDrawsNothingUntilLift() {
        var tracker = TouchStrokeTracker(fingers: 1)
        _ = tracker.process(frame([Point(x: 0, y: 0)]))
        #expect(tracker.process(frame([Point(x: 5, y: 0), Point(x: 9, y: 9)])) == .cancelled)
        #expect(tracker.process(frame([Point(x: 40, y: 0)])) == nil)
        #expect(tracker.process(frame([])) == nil)
    }

    @Test func fingersLandingOneByOneStartTheStroke() {
        var tracker = TouchStrokeTracker(fingers: 3)
        #expect(tracker.process(frame([Point(x: 0, y: 0)])) == nil)
        #expect(tracker.process(frame([Point(x: 0, y: 0), Point(x: 10, y: 0)])) == nil)
        for x in stride(from: 0.0, through: 30, by: 10) {
            #expect(tracker.process(frame([Point(x: x, y: 0), Point(x: x + 10, y: 0), Point(x: x + 20, y: 0)])) == nil)
        }
        guard case .ended(let points)? = tracker.process(frame([])) else { Issue.record("no stroke"); return }
        #expect(points.first == Point(x: 10, y: 0) && points.last == Point(x: 40, y: 0))
    }

    @Test func fingersLiftingOneByOneEndTheStrokeWithoutDrawing() {
        var tracker = TouchStrokeTracker(fingers: 2)
        _ = tracker.process(frame([Point(x: 0, y: 0), Point(x: 10, y: 0)]))
        _ = tracker.process(frame([Point(x: 20, y: 0), Point(x: 30, y: 0)]))
        #expect(tracker.process(frame([Point(x: 90, y: 90)])) == nil)
        guard case .ended(let points)? = tracker.process(frame([])) else { Issue.record("no stroke"); return }
        #expect(points == [Point(x: 5, y: 0), Point(x: 25, y: 0)])
    }

    @Test func aFingerPutBackWhileLiftingCancels() {
        var tracker = TouchStrokeTracker(fingers: 2)
        _ = tracker.process(frame([Point(x: 0, y: 0), Point(x: 10, y: 0)]))
        _ = tracker.process(frame([Point(x: 20, y: 0), Point(x: 30, y: 0)]))
        #expect(tracker.process(frame([Point(x: 20, y: 0)])) == nil)
        #expect(tracker.process(frame([Point(x: 20, y: 0), Point(x: 30, y: 0)])) == .cancelled)
        #expect(tracker.process(frame([])) == nil)
    }

    @Test func lostEventsCancelTheStroke() {
        var tracker = TouchStrokeTracker(fingers: 1)
        _ = tracker.process(frame([Point(x: 0, y: 0)]))
        #expect(tracker.process(frame([Point(x: 50, y: 0)], dropped: true)) == .cancelled)
        #expect(tracker.process(frame([])) == nil)
    }
}
