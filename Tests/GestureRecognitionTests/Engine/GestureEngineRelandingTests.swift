import GestureRecognition
import Testing

/// A contact that lifts and lands again within `relandingGap` (60 ms) is the
/// same contact found again (a palm the firmware lost under a new tracking
/// id), not a new touch: neither the touch before nor the one after taps,
/// and the one after holds nothing. So a 1-finger tap (a palm comes back as
/// one contact) waits out the gap before it fires, stamped with its lift
/// time; a tap of more fingers fires at its lift.
@Suite struct GestureEngineRelandingTests {
    let surface = GestureSurface(kind: .touchpad, widthMillimeters: 100, heightMillimeters: 60)

    func frame(_ milliseconds: Int, _ points: [Point], firstID: Int = 1) -> GestureFrame {
        GestureFrame(
            time: .milliseconds(1_000 + milliseconds),
            contacts: points.enumerated().map { .init(id: firstID + $0.offset, position: $0.element) })
    }

    /// A still touch of `fingers` fingers from `from` to `to` ms, a frame every 10 ms, then the lift.
    func touch(_ fingers: Int, from: Int, to: Int, firstID: Int) -> [GestureFrame] {
        let points = (0..<fingers).map { Point(x: 30 + 12 * Double($0), y: 30) }
        return stride(from: from, to: to, by: 10).map { frame($0, points, firstID: firstID) } + [frame(to, [])]
    }

    @Test("a tap fires once the relanding gap is over, stamped with its lift")
    func aTapWaitsOutTheGap() {
        var engine = GestureEngine(surface: surface)
        var events: [GestureEvent] = []
        for frame in touch(1, from: 0, to: 60, firstID: 1) { engine.process(frame, into: &events) }
        #expect(events.isEmpty, "\(events.map(\.jsonLine))")
        #expect(engine.status.decision == .tapPending(fingers: 1))
        #expect(engine.nextDeadline == .milliseconds(1_120))
        #expect(engine.advance(to: .milliseconds(1_119)).isEmpty)
        let fired = engine.advance(to: .milliseconds(1_120))
        #expect(fired.map(\.type) == [.tap])
        #expect(fired.first?.time == .milliseconds(1_060))
        #expect(engine.status.decision == .noFingers)
        #expect(engine.nextDeadline == nil)
    }

    @Test("a contact landing again within the gap: neither touch taps, and the second holds nothing")
    func aRelandingTapsAndHoldsNothing() {
        var engine = GestureEngine(surface: surface)
        // A 60 ms touch, lifted for 30 ms, then resting 400 ms (a hold's time twice over).
        let frames = touch(1, from: 0, to: 60, firstID: 1) + touch(1, from: 90, to: 490, firstID: 2)
        var events: [GestureEvent] = []
        for frame in frames { engine.process(frame, into: &events) }
        events += engine.finish()
        #expect(events.isEmpty, "\(events.map(\.jsonLine))")
    }

    @Test("a tap of two or more fingers fires at its lift")
    func aTapOfMoreFingersFiresAtOnce() {
        for fingers in 2...5 {
            var engine = GestureEngine(surface: surface)
            var events: [GestureEvent] = []
            for frame in touch(fingers, from: 0, to: 60, firstID: 1) { engine.process(frame, into: &events) }
            #expect(events.map(\.fingers) == [fingers], "\(events.map(\.jsonLine))")
            #expect(engine.status.decision == .noFingers)
        }
    }

    @Test("a landing as the gap ends is a new touch: both tap")
    func aLandingAfterTheGapIsANewTouch() {
        let frames = touch(1, from: 0, to: 60, firstID: 1) + touch(1, from: 120, to: 180, firstID: 3)
        var engine = GestureEngine(surface: surface)
        var events: [GestureEvent] = []
        for frame in frames { engine.process(frame, into: &events) }
        events += engine.finish()
        #expect(events.map(\.type) == [.tap, .tap], "\(events.map(\.jsonLine))")
        #expect(events.map(\.time) == [.milliseconds(1_060), .milliseconds(1_180)])
    }

    @Test("finish fires a waiting tap; cancel drops it; a gap of 0 taps at the lift")
    func finishCancelAndNoGap() {
        var finished = GestureEngine(surface: surface)
        var events: [GestureEvent] = []
        for frame in touch(1, from: 0, to: 60, firstID: 1) { finished.process(frame, into: &events) }
        #expect(events.isEmpty)
        #expect(finished.finish().map(\.fingers) == [1])

        var cancelled = GestureEngine(surface: surface)
        for frame in touch(1, from: 0, to: 60, firstID: 1) { cancelled.process(frame, into: &events) }
        #expect(cancelled.cancel().isEmpty)
        #expect(cancelled.finish().isEmpty)

        var configuration = GestureEngine.Configuration()
        configuration.relandingGap = .zero
        var immediate = GestureEngine(surface: surface, configuration: configuration)
        for frame in touch(1, from: 0, to: 60, firstID: 1) { immediate.process(frame, into: &events) }
        #expect(events.map(\.type) == [.tap])
        #expect(immediate.status.decision == .noFingers)
    }
}
