import Foundation
import GestureRecognition
import TestSupport
import Testing

@testable import GestureTraces

@Suite("GestureReplay of the labelled shared recordings")
struct GestureReplayTests {
    /// Every shared recording with events: each one must have a label.
    static func recordings() throws -> [String] { try SharedRecordings.files().filter { $0.hasSuffix(".events") } }

    @Test(
        "each shared recording gives the gesture its name says, and nothing else completes",
        .enabled(if: SharedRecordings.isAvailable, "needs ../shared/data/recordings"),
        arguments: try recordings())
    func recordingGivesItsGesture(file: String) throws {
        let label = try #require(
            RecordingLabel(fileAt: SharedRecordings.url(file)),
            "\(file): the name says no gesture this test knows; add a rule or an override with the evidence")
        let events = GestureReplay().gestures(in: try Trace.load(contentsOf: SharedRecordings.url(file)))
        if let problem = label.problem(with: events) {
            Issue.record(Comment(rawValue: "\(file): \(problem)" + (label.evidence.map { " (\($0))" } ?? "")))
        }
    }

    @Test(
        "the labels read from the names are the ones meant",
        .enabled(if: SharedRecordings.isAvailable, "needs ../shared/data/recordings"))
    func labelsReadFromNames() {
        let cases: [(String, RecordingLabel.Expected?)] = [
            ("touchpads/AlpsPS2_ALPS_GlidePoint.2-finger-tap.events", .taps(fingers: 2, count: 1)),
            ("touchpads/CyPS2_Cypress_Trackpad.three_finger_tap.events", .taps(fingers: 3, count: 1)),
            ("touchpads/CyPS2_Cypress_Trackpad.two_finger_press.events", .nothing),
            ("touchpads/bcm5974.three-finger-click.events", .nothing),
            ("touchpads/SynPS2_Synaptics_TouchPad.two-finger-vert-scroll.events", .swipe(fingers: 2, directions: [.up, .down])),
            ("touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events", .swipe(fingers: 4, directions: [.down])),
            ("touchscreens/Atmel_maXTouch_Touchscreen.1-finger-drag-up-down.events", .nothing),
            ("touchscreens/N-Trig_MultiTouch.2-fingers-touch-release.events", .nothing),
            ("touchpads/xit/SynPS2-Synaptics-TouchPad-tap-and-move.events", .taps(fingers: 1, count: 1)),
            ("touchpads/xit/SynPS2-Synaptics-TouchPad-move.events", .nothing),
            ("touchpads/xit/SynPS2-Synaptics-TouchPad-two-finger-scroll-up.events", .swipe(fingers: 2, directions: [.up])),
            ("touchpads/xit/SynPS2-Synaptics-TouchPad-ScrollButtons.events", .nothing),
            ("touchpads/Pad.Samsung-700Z3A.events", nil),
        ]
        for (file, expected) in cases {
            #expect(RecordingLabel(fileAt: SharedRecordings.url(file))?.expected == expected, "\(file)")
        }
    }

    @Test(
        "every begin has exactly one end, in order, on every shared recording",
        .enabled(if: SharedRecordings.isAvailable, "needs ../shared/data/recordings"),
        arguments: try recordings())
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

    @Test(
        "shifting every time of a recording by the same amount changes none of its gestures",
        .enabled(if: SharedRecordings.isAvailable, "needs ../shared/data/recordings"))
    func replayIsTheSameAtAnotherTime() throws {
        let trace = try Trace.load(contentsOf: SharedRecordings.url("touchscreens/Atmel_maXTouch_Touchscreen.4-finger-drag-down.events"))
        var later = trace
        for index in later.frames.indices {
            for event in later.frames[index].events.indices { later.frames[index].events[event].microseconds += 86_400_000_000 }
        }
        let gestures = GestureReplay().gestures(in: trace)
        #expect(!gestures.isEmpty, "the recording gives no gesture, so the comparison shows nothing")
        // Gesture times count from the first event, so a day later they are the same.
        #expect(GestureReplay().gestures(in: later) == gestures)
    }
}
