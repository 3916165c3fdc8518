import Foundation
import GestureRecognition
import Testing

@testable import GestureTraces

/// The 303 real recordings of two Chromebook touchpads in
/// `../shared/data/recordings/chromebook` (people following prompts: scrolls
/// with and without a resting palm or thumb, clicks, palms, taps), each
/// replayed with the defaults and judged by its label (``ChromebookLabel``).
/// The engine need not be right on every one, so the test asserts a floor
/// on the whole set and per class (what the engine reaches today: a rule
/// that loses a recording fails it), and prints the count per class, per
/// board and per class on each board, and every miss, for the report.
@Suite(
    "The labelled Chromebook recordings",
    .enabled(
        if: ChromebookLabel.directory != nil,
        "needs ../shared/data/recordings/chromebook (the shared data); skipped without it"))
struct ChromebookRecordingsTests {
    /// The fewest judged recordings the engine must get right.
    static let minimumRight = 243
    /// The fewest recordings of each class the engine must get right.
    static let minimumRightByClass: [String: Int] = [
        "click": 28,
        "click-drag": 12,
        "drum-roll-tap": 3,
        "palm": 39,
        "palm-click": 16,
        "palm-scroll": 36,
        "scroll": 59,
        "scroll-prior-state": 22,
        "scroll-then-click": 6,
        "tap-1f": 13,
        "tap-2f": 3,
        "tap-and-half": 6,
    ]

    @Test("the engine gives what the labels say on enough of the Chromebook recordings, in every class")
    func labelsHold() throws {
        let judged = ChromebookLabel.all.filter { $0.label.expect != .skip }
        #expect(judged.count == 253, "the labels judge \(judged.count) recordings; the shared data changed")
        var right: [String: Int] = [:], total: [String: Int] = [:]
        var misses: [String] = []
        for (recording, label) in judged {
            let board = String(recording.prefix { $0 != "/" })
            let events = GestureReplay().gestures(in: try Trace.load(contentsOf: ChromebookLabel.url(recording)))
            let problem = label.problem(with: events)
            // "CLASS @ BOARD" too: the figures a leave-one-board-out report needs.
            for key in [label.cls, "board " + board, "\(label.cls) @ \(board)", "all"] {
                total[key, default: 0] += 1
                if problem == nil { right[key, default: 0] += 1 }
            }
            if let problem { misses.append("\(recording) [\(label.cls)]: \(problem)") }
        }
        print("Chromebook recordings, right per class:")
        for key in total.keys.sorted() {
            let share = Double(right[key, default: 0]) / Double(total[key]!)
            print("  \(key): \(right[key, default: 0]) of \(total[key]!) (\(Int((share * 100).rounded())) %)")
        }
        print("misses:\n  " + misses.joined(separator: "\n  "))
        #expect(
            right["all", default: 0] >= Self.minimumRight,
            "\(right["all", default: 0]) of \(judged.count) right, fewer than \(Self.minimumRight)")
        let classes = total.keys.filter { !$0.hasPrefix("board ") && !$0.contains(" @ ") && $0 != "all" }
        #expect(Set(classes) == Set(Self.minimumRightByClass.keys), "the labels' classes changed: \(classes.sorted())")
        for key in classes {
            let minimum = Self.minimumRightByClass[key] ?? total[key]!
            #expect(
                right[key, default: 0] >= minimum, "class \(key): \(right[key, default: 0]) of \(total[key]!) right, fewer than \(minimum)")
        }
    }
}
