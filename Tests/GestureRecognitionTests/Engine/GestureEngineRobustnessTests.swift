import Foundation
import GestureEvaluation
import Testing

@testable import GestureRecognition

@Suite("GestureEngine robustness")
struct GestureEngineRobustnessTests {
    /// Random frames: contacts appearing, moving, jumping and vanishing,
    /// palms, fake fingers, repeated and backwards times, NaN positions,
    /// interleaved `advance`, `cancel` and `finish`.
    static func fuzz(seed: UInt64, surface: GestureSurface) -> (events: [GestureEvent], engine: GestureEngine) {
        var random = SplitMix64(seed: seed)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        var configuration = GestureEngine.Configuration()
        configuration.sequences = [.init(name: "up-up", directions: [.up, .up]), .init(name: "left", directions: [.left])]
        var engine = GestureEngine(surface: surface, configuration: configuration, templates: .dollarShapes)
        var events: [GestureEvent] = []
        var contacts: [Int: Point] = [:]
        var palms: Set<Int> = []
        var nextID = 0
        var time = Duration.zero
        for _ in 0..<3000 {
            time += .microseconds(Int64(random.next(below: 40_000)))
            if random.next(below: 50) == 0 { time -= .milliseconds(5) }
            switch random.next(below: 20) {
            case 0, 1:
                if contacts.count < 7 {
                    contacts[nextID] = Point(x: uniform() * 100, y: uniform() * 60)
                    if random.next(below: 6) == 0 { palms.insert(nextID) }
                    nextID += 1
                }
            case 2, 3:
                if let id = contacts.keys.sorted().first { contacts[id] = nil; palms.remove(id) }
            case 4:
                contacts = [:]; palms = []
            case 5:
                if let id = contacts.keys.sorted().last { contacts[id] = Point(x: uniform() * 100, y: uniform() * 60) }
            default:
                let step = Point(x: uniform() * 4 - 2, y: uniform() * 4 - 2)
                for id in contacts.keys { contacts[id] = contacts[id]! + step + Point(x: uniform() * 0.6 - 0.3, y: 0) }
            }
            var frameContacts = contacts.keys.sorted().map {
                GestureFrame.Contact(id: $0, position: contacts[$0]!, isPalm: palms.contains($0))
            }
            if random.next(below: 200) == 0, !frameContacts.isEmpty { frameContacts[0].position = Point(x: .nan, y: 3) }
            let extra = random.next(below: 10) == 0 ? random.next(below: 3) : 0
            events += engine.process(GestureFrame(time: time, contacts: frameContacts, fingerCount: frameContacts.count + extra))
            switch random.next(below: 100) {
            case 0: events += engine.cancel()
            case 1: events += engine.advance(to: time + .milliseconds(Int64(random.next(below: 300))))
            case 2: events += engine.finish(); contacts = [:]; palms = []
            default: break
            }
        }
        events += engine.finish()
        return (events, engine)
    }

    @Test(
        "random frame streams never break the machine or the begin/end pairing",
        arguments: [1, 2, 3, 42, 1234] as [UInt64], GestureSurface.Kind.allCases)
    func fuzzedStreamsStayWellFormed(seed: UInt64, kind: GestureSurface.Kind) {
        let surface = kind == .touchpad ? SyntheticTouch.pad : SyntheticTouch.screen
        let (events, engine) = Self.fuzz(seed: seed, surface: surface)
        #expect(!engine.diagnostics.contains { $0.kind == .unexpectedInput }, "\(engine.diagnostics.prefix(3))")
        #expect(isWellPaired(events))
        #expect(events.allSatisfy { (1...GestureEngine.maximumFingers).contains($0.fingers) })
        #expect(engine.stateName == .idle)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test("the same frames always give the same events, however often time is advanced")
    func outputIsDeterministic() {
        let frames =
            SyntheticTouch.swipe(fingers: 3, travel: Point(x: 0, y: 25), rest: 0.3).frames()
            + GestureEngineStrokeSequenceTests.swipes([.up, .up])
        var configuration = GestureEngine.Configuration()
        configuration.sequences = GestureEngineStrokeSequenceTests.sequences
        let first = run(frames, configuration: configuration).events
        #expect(first == run(frames, configuration: configuration).events)

        var engine = GestureEngine(surface: SyntheticTouch.pad, configuration: configuration)
        var second: [GestureEvent] = []
        for frame in frames {
            second += engine.advance(to: frame.time - .milliseconds(3))
            second += engine.process(frame)
        }
        second += engine.finish()
        #expect(second == first)
    }

    @Test("processing into a buffer appends the same events as returning them, buffer kept")
    func processIntoAppendsWhatProcessReturns() {
        let frames =
            SyntheticTouch.swipe(fingers: 3, travel: Point(x: 0, y: 25), rest: 0.3).frames()
            + SyntheticTouch.still(fingers: 2, contact: 1).frames()
        var returning = GestureEngine(surface: SyntheticTouch.pad)
        var appending = GestureEngine(surface: SyntheticTouch.pad)
        var all: [GestureEvent] = []
        var buffer = [GestureEvent(type: .tap, time: .zero, fingers: 1)]  // what the caller had stays
        for frame in frames {
            let returned = returning.process(frame)
            let before = buffer.count
            appending.process(frame, into: &buffer)
            #expect(Array(buffer[before...]) == returned)
            all += returned
        }
        #expect(buffer.first == GestureEvent(type: .tap, time: .zero, fingers: 1))
        #expect(Array(buffer.dropFirst()) == all)
        #expect(all.contains { $0.type == .swipe && $0.phase == .update })
    }

    @Test("cancel ends an active swipe cancelled and ignores the fingers until they lift")
    func cancelEndsActiveSwipe() {
        let frames = SyntheticTouch.swipe(fingers: 3, travel: Point(x: 30, y: 0), moveDuration: 0.4).frames()
        var engine = GestureEngine(surface: SyntheticTouch.pad)
        var events: [GestureEvent] = []
        for frame in frames.prefix(30) { events += engine.process(frame) }
        #expect(engine.stateName == .swiping)
        let cancelled = engine.cancel()
        #expect(cancelled.map(\.phase) == [.end])
        #expect(cancelled.first?.cancelled == true)
        var after: [GestureEvent] = []
        for frame in frames.dropFirst(30) { after += engine.process(frame) }
        #expect(after.isEmpty)
        #expect(engine.stateName == .idle)
        #expect(engine.diagnostics.isEmpty)
    }

    @Test("finish ends a gesture still in progress cancelled")
    func finishCancelsOpenGesture() {
        let frames = SyntheticTouch.still(fingers: 4, contact: 1).frames().prefix(60)
        let events = run(Array(frames)).events
        #expect(events.map(\.phase) == [.begin, .end])
        #expect(events.last?.cancelled == true)
    }

    @Test("a frame earlier than the previous one is reported and taken at the later time")
    func backwardsTimeIsReported() {
        var engine = GestureEngine(surface: SyntheticTouch.pad)
        _ = engine.process(GestureFrame(time: .seconds(2), contacts: []))
        _ = engine.process(GestureFrame(time: .seconds(1), contacts: [.init(id: 1, position: Point(x: 5, y: 5))]))
        #expect(engine.diagnostics.map(\.kind) == [.timeWentBackwards])
    }

    @Test("six fingers are no gesture")
    func sixFingersAreIgnored() {
        #expect(run(SyntheticTouch.still(fingers: 6, contact: 0.1).frames()).events.isEmpty)
        #expect(run(SyntheticTouch.swipe(fingers: 6, travel: Point(x: 0, y: 20)).frames()).events.isEmpty)
    }
}

@Suite("GestureEngine events and configuration")
struct GestureEngineContractTests {
    @Test(
        "numbers are written rounded to a thousandth, whole ones without a fraction",
        arguments: [
            (412.0, "412"), (-31.50004, "-31.5"), (0.91234, "0.912"), (120.5, "120.5"),
            (-0.0001, "0"), (Double.nan, "0"), (Double.infinity, "0"), (2e15, "2000000000000000.0"),
        ])
    func decimalText(value: Double, text: String) {
        #expect(GestureEvent.decimalText(value) == text)
    }

    @Test("an event reads as one line with its numbers written the same way")
    func descriptionIsOneLine() {
        let end = GestureEvent(
            type: .swipe, phase: .end, time: .microseconds(812_400), fingers: 3,
            direction: .left, dxMillimeters: -31.2004, dyMillimeters: 0.4)
        #expect(end.description == "812.4 ms  swipe end  3 fingers  left  -31.2, 0.4 mm")
    }

    @Test("a JSON configuration sets the thresholds it names and keeps the other defaults")
    func configurationDecodesPartially() throws {
        let json =
            #"{"swipeThresholdMillimeters": 9, "holdDelayMilliseconds": 350, "touchscreenStrokeFingers": null, "sequences": [{"name": "back", "directions": ["left"]}]}"#
        let configuration = try JSONDecoder().decode(GestureEngine.Configuration.self, from: Data(json.utf8))
        var expected = GestureEngine.Configuration()
        expected.swipeThresholdMillimeters = 9
        expected.holdDelay = .milliseconds(350)
        expected.touchscreenStrokeFingers = nil
        expected.sequences = [.init(name: "back", directions: [.left])]
        #expect(configuration == expected)
        let again = try JSONDecoder().decode(GestureEngine.Configuration.self, from: JSONEncoder().encode(configuration))
        #expect(again == configuration)
    }

    @Test("invalid sequences are reported and switched off")
    func invalidSequencesAreReported() {
        var configuration = GestureEngine.Configuration()
        configuration.sequences = [.init(name: "", directions: [.up])]
        let engine = GestureEngine(surface: SyntheticTouch.pad, configuration: configuration)
        #expect(engine.diagnostics.map(\.kind) == [.invalidConfiguration])
    }

}
