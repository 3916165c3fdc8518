import GestureRecognition
import Testing

/// `GestureEngine.status`: the fingers as the engine counts them and what it
/// decided, which readers beside the engine (the interception's hand-over)
/// follow instead of counting again.
@Suite struct GestureEngineStatusTests {
    let surface = GestureSurface(kind: .touchpad, widthMillimeters: 100, heightMillimeters: 60)

    func frame(_ milliseconds: Int, _ contacts: [GestureFrame.Contact]) -> GestureFrame {
        GestureFrame(time: .milliseconds(1_000 + milliseconds), contacts: contacts)
    }

    @Test func aPalmStaysOutOfTheCountUntilItLiftsEvenWhenTheDeviceStopsSayingSo() {
        var engine = GestureEngine(surface: surface)
        #expect(engine.status == GestureEngine.Status(fingers: 0, contacts: [], decision: .noFingers))
        _ = engine.process(
            frame(0, [.init(id: 1, position: Point(x: 20, y: 20)), .init(id: 9, position: Point(x: 80, y: 50), isPalm: true)]))
        _ = engine.process(frame(10, [.init(id: 1, position: Point(x: 20, y: 20)), .init(id: 9, position: Point(x: 80, y: 50))]))
        #expect(engine.status.fingers == 1)
        #expect(engine.status.contacts.map(\.id) == [1])
        // Lifted, and landed again past the relanding gap (60 ms), it is a finger.
        _ = engine.process(frame(20, [.init(id: 1, position: Point(x: 20, y: 20))]))
        _ = engine.process(frame(100, [.init(id: 1, position: Point(x: 20, y: 20)), .init(id: 10, position: Point(x: 80, y: 50))]))
        #expect(engine.status.fingers == 2)
    }

    @Test func aPalmComingBackUnderANewIDWithinTheRelandingGapIsStillAPalm() {
        var engine = GestureEngine(surface: surface)
        let finger = GestureFrame.Contact(id: 1, position: Point(x: 20, y: 20))
        _ = engine.process(frame(0, [finger, .init(id: 9, position: Point(x: 80, y: 50), isPalm: true)]))
        _ = engine.process(frame(10, [finger]))
        // 10 ms later and 2 mm on, unflagged: the palm the pad lost, found again.
        _ = engine.process(frame(20, [finger, .init(id: 10, position: Point(x: 82, y: 50))]))
        #expect(engine.status.fingers == 1)
        #expect(engine.status.contacts.map(\.id) == [1])
        // Farther than palmRelandingDistanceMillimeters (10 mm) from where it lifted: a finger.
        _ = engine.process(frame(30, [finger, .init(id: 10, position: Point(x: 82, y: 50)), .init(id: 11, position: Point(x: 50, y: 50))]))
        #expect(engine.status.fingers == 2)
        // With the rule off, the piece is a finger.
        var configuration = GestureEngine.Configuration()
        configuration.palmRelandingDistanceMillimeters = 0
        var off = GestureEngine(surface: surface, configuration: configuration)
        _ = off.process(frame(0, [finger, .init(id: 9, position: Point(x: 80, y: 50), isPalm: true)]))
        _ = off.process(frame(10, [finger]))
        _ = off.process(frame(20, [finger, .init(id: 10, position: Point(x: 82, y: 50))]))
        #expect(off.status.fingers == 2)
    }

    @Test func theDecisionFollowsTheEngine() {
        var engine = GestureEngine(surface: surface)
        _ = engine.process(frame(0, [.init(id: 1, position: Point(x: 20, y: 20))]))
        #expect(engine.status.decision == .undecided)
        for step in 1...10 { _ = engine.process(frame(10 * step, [.init(id: 1, position: Point(x: 20 + Double(step), y: 20))])) }
        #expect(engine.status.decision == .ignored(.pointerMotion))
        _ = engine.process(frame(200, []))
        #expect(engine.status.decision == .noFingers)
        let three = { (step: Int) in
            (0..<3).map { GestureFrame.Contact(id: 10 + $0, position: Point(x: 20 + 10 * Double($0) + Double(step), y: 30)) }
        }
        for step in 0...12 { _ = engine.process(frame(400 + 10 * step, three(step))) }
        #expect(engine.status.decision == .gesture(.swipe))
        #expect(engine.status.fingers == 3 && engine.status.contacts.count == 3)
    }
}
