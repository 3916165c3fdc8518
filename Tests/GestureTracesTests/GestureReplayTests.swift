import Foundation
import Testing
import GestureRecognition
@testable import GestureTraces

/// What a labelled shared recording must give, judged from its file name.
struct RecordingExpectation: Sendable, CustomTestStringConvertible {
    var file: String
    var check: @Sendable ([GestureEvent]) -> String?
    var testDescription: String { file }
}

@Suite("GestureReplay of the labelled shared recordings")
struct GestureReplayTests {
    static func completions(_ events: [GestureEvent]) -> [GestureEvent] { events.filter(\.isCompletion) }

    static func onlyTap(fingers: Int) -> @Sendable ([GestureEvent]) -> String? {
        { events in
            let done = completions(events)
            return done.count == 1 && done[0].type == .tap && done[0].fingers == fingers
                ? nil : "expected one \(fingers)-finger tap, got \(done.map(\.description))"
        }
    }

    static func swipe(fingers: Int, vertical: Bool, direction: SwipeDirection? = nil) -> @Sendable ([GestureEvent]) -> String? {
        { events in
            let swipes = completions(events).filter { $0.type == .swipe && $0.cancelled != true }
            guard swipes.count == 1, let swipe = swipes.first, swipe.fingers == fingers else {
                return "expected one \(fingers)-finger swipe, got \(completions(events).map(\.description))"
            }
            if let direction, swipe.direction != direction { return "expected \(direction), got \(swipe.description)" }
            let dx = abs(swipe.dxMillimeters ?? 0), dy = abs(swipe.dyMillimeters ?? 0)
            if vertical && dy <= dx { return "expected a vertical swipe, got \(swipe.description)" }
            if completions(events).contains(where: { $0.type == .pinch || $0.type == .tap }) {
                return "expected nothing but the swipe, got \(completions(events).map(\.description))"
            }
            return nil
        }
    }

    static func hold(fingers: Int) -> @Sendable ([GestureEvent]) -> String? {
        { events in
            let done = completions(events)
            guard let last = done.last, last.type == .hold, last.fingers == fingers, last.cancelled != true else {
                return "expected to end with a \(fingers)-finger hold, got \(done.map(\.description))"
            }
            return done.contains { [.swipe, .pinch, .tap].contains($0.type) } ? "expected no swipe, pinch or tap: \(done.map(\.description))" : nil
        }
    }

    static let noMotionGesture: @Sendable ([GestureEvent]) -> String? = { events in
        let motion = completions(events).filter { [.swipe, .pinch, .stroke].contains($0.type) }
        return motion.isEmpty ? nil : "expected no swipe, pinch or stroke, got \(motion.map(\.description))"
    }

    static let expectations: [RecordingExpectation] = [
        .init(file: "touchpads/CyPS2_Cypress_Trackpad.three_finger_tap.events", check: onlyTap(fingers: 3)),
        .init(file: "touchpads/CyPS2_Cypress_Trackpad.two_finger_tap.events", check: onlyTap(fingers: 2)),
        // Regression trace: semi-MT, the one position jumps and drifts 8.8 mm
        // as the second finger lands, and the two are down together 184 ms
        // (it read as a 2-finger swipe down 7.7 mm before).
        .init(file: "touchpads/AlpsPS2_ALPS_GlidePoint.2-finger-tap.events", check: onlyTap(fingers: 2)),
        .init(file: "touchpads/SynPS2_Synaptics_TouchPad.two-finger-vert-scroll.events", check: swipe(fingers: 2, vertical: true)),
        .init(file: "touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events", check: swipe(fingers: 4, vertical: true, direction: .down)),
        .init(file: "touchpads/CyPS2_Cypress_Trackpad.three_finger_press.events", check: hold(fingers: 3)),
        .init(file: "touchpads/CyPS2_Cypress_Trackpad.two_finger_press.events", check: hold(fingers: 2)),
        .init(file: "touchpads/bcm5974.three-finger-click.events", check: noMotionGesture),
        .init(file: "touchscreens/Atmel_maXTouch_Touchscreen.2-fingers-touch-release.events", check: noMotionGesture),
        .init(file: "touchscreens/N-Trig_MultiTouch.2-fingers-touch-release.events", check: noMotionGesture),
        .init(file: "touchscreens/Atmel_maXTouch_Touchscreen.1-finger-drag-up-down.events", check: noMotionGesture),
    ]

    @Test("each labelled recording gives the gesture its name says",
          .enabled(if: SharedRecordings.isAvailable, "needs ../shared/data/recordings"),
          arguments: expectations)
    func recordingGivesItsGesture(_ expectation: RecordingExpectation) throws {
        let trace = try Trace.load(contentsOf: SharedRecordings.url(expectation.file))
        let events = GestureReplay().gestures(in: trace)
        if let problem = expectation.check(events) {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test("every begin has exactly one end, in order, on every shared recording",
          .enabled(if: SharedRecordings.isAvailable, "needs ../shared/data/recordings"),
          arguments: SharedRecordings.files.filter { $0.hasSuffix(".events") })
    func beginsAndEndsPair(file: String) throws {
        let events = GestureReplay().gestures(in: try Trace.load(contentsOf: SharedRecordings.url(file)))
        var open: GestureEvent.Kind?
        for event in events {
            switch event.phase {
            case .begin?:
                #expect(open == nil, "\(event) begins inside another gesture")
                open = event.type
            case .update?:
                #expect(open == event.type, "\(event) updates no open gesture")
            case .end?:
                #expect(open == event.type, "\(event) ends no open gesture")
                open = nil
            case nil:
                break
            }
        }
        #expect(open == nil, "a gesture is left open")
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test("replaying twice gives the same gestures",
          .enabled(if: SharedRecordings.isAvailable, "needs ../shared/data/recordings"))
    func replayIsDeterministic() throws {
        let trace = try Trace.load(contentsOf: SharedRecordings.url("touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events"))
        #expect(GestureReplay().gestures(in: trace) == GestureReplay().gestures(in: trace))
    }
}
