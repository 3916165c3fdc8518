import Foundation
import GestureRecognition
import GestureTraces
import TestSupport
import Testing

/// The one grammar of labels in file names (`RecordingLabel`), read on the
/// synthetic traces as the VM suite reads them for its comparison with libinput.
@Suite struct RecordingLabelTests {
    static func labelled() throws -> [String] {
        let names = try TestFiles.names(
            in: TestFiles.recordings.appendingPathComponent("synthetic"), endingIn: ".jsonl", excluding: [".expected.jsonl"])
        return try TestFiles.required(
            names.filter { RecordingLabel(fileAt: URL(fileURLWithPath: $0)) != nil }, minimum: 40, "synthetic traces with a label")
    }

    @Test("each synthetic trace whose name gives a label replays to it", arguments: try labelled())
    func syntheticTraceReplaysToItsLabel(name: String) throws {
        let url = TestFiles.recordings.appendingPathComponent("synthetic").appendingPathComponent(name)
        let label = try #require(RecordingLabel(fileAt: url))
        let events = GestureReplay().gestures(in: try Trace.load(contentsOf: url))
        if let problem = label.problem(with: events) { Issue.record(Comment(rawValue: "\(name): \(problem)")) }
    }

    @Test("the labels read from synthetic names are the ones meant")
    func labelsReadFromSyntheticNames() {
        let cases: [(String, RecordingLabel.Expected?)] = [
            ("rmi4.3-finger-swipe-down-left.jsonl", .swipe(fingers: 3, directions: [.downLeft])),
            ("magic.4-finger-swipe-left-from-right-edge.expected.jsonl", .swipe(fingers: 4, directions: [.left])),
            ("magic.5-finger-hold.noisy.jsonl", .hold(fingers: 5)),
            ("p50.1-finger-double-tap.lift-slide.jsonl", .taps(fingers: 1, count: 2)),
            ("x1carbon.nothing-1-finger-pointer-motion.jsonl", .nothing),
            ("atmel.2-finger-pinch-out.jsonl", .pinch(fingers: 2, outward: true)),
            ("atmel.1-finger-stroke-circle.jsonl", nil),
            ("rmi4.3-finger-sequence-back-and-forth.jsonl", nil),
        ]
        for (name, expected) in cases {
            #expect(RecordingLabel(fileAt: URL(fileURLWithPath: name))?.expected == expected, "\(name)")
        }
    }
}
