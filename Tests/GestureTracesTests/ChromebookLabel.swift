import Foundation
import GestureRecognition

/// What `../shared/data/recordings/chromebook/labels.json` says the engine
/// should report for one recording of a Chromebook touchpad, and the check
/// that a replay gives it (the rules are the README's, in words in each
/// label's `rule`).
///
/// - `swipe`: at least one completed (not cancelled) swipe with `fingers`
///   and `direction`; no completed swipe with another direction or finger
///   count (a completed swipe without a direction is neither); no completed
///   pinch.
/// - `nothing-completed`: no completed swipe, pinch or hold, no stroke, and
///   no tap unless `taps_allowed`.
/// - `taps`: exactly `count` taps, all with `fingers`; no completed swipe,
///   pinch or hold, no stroke.
/// - `no-tap`: no tap, no completed hold or pinch.
/// - `skip`: not judged.
struct ChromebookLabel: Sendable, Decodable {
    enum Expect: String, Sendable, Decodable {
        case swipe
        case nothingCompleted = "nothing-completed"
        case taps
        case noTap = "no-tap"
        case skip
    }

    /// The class the label counts in (`scroll`, `palm`, `tap-1f`, ...).
    var cls: String
    var expect: Expect
    var fingers: Int?
    var direction: SwipeDirection?
    var count: Int?
    var tapsAllowed: Bool?

    enum CodingKeys: String, CodingKey {
        case cls, expect, fingers, direction, count
        case tapsAllowed = "taps_allowed"
    }

    /// The labels file: recordings (`board/name`, without `.events`) to labels.
    struct File: Decodable {
        var format: String
        var labels: [String: ChromebookLabel]
    }

    /// The folder of the Chromebook recordings, if the shared data is there.
    static let directory: URL? = SharedRecordings.directory.map { $0.appendingPathComponent("chromebook") }
        .flatMap { FileManager.default.fileExists(atPath: $0.appendingPathComponent("labels.json").path) ? $0 : nil }

    /// Every label, by recording, sorted by name; empty without the shared data.
    static let all: [(recording: String, label: ChromebookLabel)] = {
        guard let directory,
            let data = try? Data(contentsOf: directory.appendingPathComponent("labels.json")),
            let file = try? JSONDecoder().decode(File.self, from: data),
            file.format == "chromebook-touchpad-labels"
        else { return [] }
        return file.labels.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }()

    /// The recording file of `recording` (`link/NAME`).
    static func url(_ recording: String) -> URL {
        directory!.appendingPathComponent(recording + ".events")
    }

    /// Why `events` (a replay) is not what the label says, or nil.
    func problem(with events: [GestureEvent]) -> String? {
        let completed = events.filter { $0.isCompletion && $0.cancelled != true }
        let swipes = completed.filter { $0.type == .swipe }
        let taps = completed.filter { $0.type == .tap }
        func has(_ kind: GestureEvent.Kind) -> Bool { completed.contains { $0.type == kind } }
        let got = "got " + (completed.isEmpty ? "nothing" : completed.map(\.description).joined(separator: "; "))
        switch expect {
        case .skip:
            return nil
        case .swipe:
            let right = swipes.filter { $0.fingers == fingers && $0.direction == direction }
            let wrong = swipes.filter { $0.fingers != fingers || ($0.direction != nil && $0.direction != direction) }
            guard !right.isEmpty, wrong.isEmpty, !has(.pinch) else {
                return "expected a \(fingers ?? 0)-finger swipe \(direction?.rawValue ?? "?"), \(got)"
            }
            return nil
        case .nothingCompleted:
            guard swipes.isEmpty, !has(.pinch), !has(.hold), !has(.stroke), taps.isEmpty || tapsAllowed == true else {
                return "expected nothing completed" + (tapsAllowed == true ? " but taps" : "") + ", \(got)"
            }
            return nil
        case .taps:
            guard taps.count == count, taps.allSatisfy({ $0.fingers == fingers }),
                swipes.isEmpty, !has(.pinch), !has(.hold), !has(.stroke)
            else {
                return "expected \(count ?? 0) taps of \(fingers ?? 0) fingers, \(got)"
            }
            return nil
        case .noTap:
            guard taps.isEmpty, !has(.hold), !has(.pinch) else { return "expected no tap, hold or pinch, \(got)" }
            return nil
        }
    }
}
