import Foundation
import GestureTraces
import Testing

/// The bundled recordings of the gestures repository this example sits in.
let recordings = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Recordings")

/// Replaying a recording in a test, with `import GestureTraces` alone: the
/// events GestureReplay hands back are asserted on through their members.
@Suite("Replaying a recording, as a package that depends on gestures would")
struct ReplayTests {
    @Test("a three-finger swipe left on the X1 Carbon's touchpad replays as one")
    func threeFingerSwipeLeft() throws {
        let trace = try Trace.load(contentsOf: recordings.appendingPathComponent("synthetic/x1carbon.3-finger-swipe-left.jsonl"))
        let gestures = GestureReplay().gestures(in: trace)
        let completed = gestures.filter(\.isCompletion)
        #expect(completed.count == 1)
        #expect(completed.first?.type == .swipe)
        #expect(completed.first?.fingers == 3)
        #expect(completed.first?.direction == .left)
        #expect(gestures.first?.phase == .begin)
    }

    @Test("every gesture of a recording is the line its .expected.jsonl holds, as `gestures replay` prints")
    func sameAsTheTool() throws {
        let name = "rmi4.2-finger-pinch-out"
        let trace = try Trace.load(contentsOf: recordings.appendingPathComponent("synthetic/\(name).jsonl"))
        let expected = try String(contentsOf: recordings.appendingPathComponent("synthetic/\(name).expected.jsonl"), encoding: .utf8)
        let lines = GestureReplay().gestures(in: trace).map(\.jsonLine)
        #expect(lines == expected.split(separator: "\n").map(String.init))
        #expect(lines.contains { $0.contains("\"type\":\"pinch\"") })
    }
}
