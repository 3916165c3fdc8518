import Foundation
import GestureRecognition
import GestureTraces

/// What a shared recording's file name says it holds, and the check that
/// `gestures replay` gives exactly that.
///
/// The label is the file name after the device's name (up to the first dot,
/// or the name of the `.desc` it pairs with): `2-finger-tap`,
/// `three_finger_press`, `two-finger-scroll-down`, `move`. Its words say:
/// - `tap` (also `tap-and-move`): one tap with the fingers named (1 when none);
/// - `press`, `click`: a physical click, which is no gesture;
/// - `scroll`, `drag` with 2 or more fingers: one swipe, in the direction
///   named (`up`, `down`, `left`, `right`; `vert` for a vertical axis);
/// - `drag` with one finger, `move`, `touch-release`, `buttons`: no gesture
///   (pointer motion, an ordinary drag on a touchscreen, fingers resting and
///   lifting, buttons beside the pad).
/// A name that says none of these has no label: ``overrides`` must give its
/// expectation, with the evidence, or the test fails.
struct SharedRecordingLabel: Sendable, CustomStringConvertible {
    enum Expected: Sendable, Equatable {
        case tap(fingers: Int)
        case swipe(fingers: Int, direction: SwipeDirection?, vertical: Bool)
        /// Nothing completes that is not cancelled, and nothing is a tap.
        case noGesture
    }

    var expected: Expected
    /// Why, when the name alone does not say it.
    var evidence: String?

    var description: String {
        switch expected {
        case .tap(let fingers): "one \(fingers)-finger tap"
        case .swipe(let fingers, let direction, let vertical):
            "one \(fingers)-finger swipe" + (direction.map { " \($0.rawValue)" } ?? (vertical ? " (vertical)" : ""))
        case .noGesture: "no gesture"
        }
    }

    /// Recordings whose name does not say what they hold, or says it wrongly.
    static let overrides: [String: SharedRecordingLabel] = [
        "touchpads/ETPS2_Elantech_Touchpad.Samsung-700Z3A.events": SharedRecordingLabel(
            expected: .noGesture,
            evidence: "the name is the laptop's; SOURCES.txt says 7.4 s of 1-finger motion/taps, but it holds two touches "
                + "of 5.6 s and 0.35 s moving 57 mm and 14 mm, and libinput (libinput-output/) reports only pointer "
                + "motion and two cancelled holds, no tap: pointer motion, no gesture")
    ]

    /// The label of `file` (a path relative to the shared recordings), or nil.
    static func label(of file: String) -> SharedRecordingLabel? {
        if let override = overrides[file] { return override }
        let words = labelWords(of: file)
        let has = { (word: String) in words.contains(word) }
        let fingers = words.lazy.compactMap(fingerCount).first
        if has("press") || has("click") || has("buttons") || has("move") && !has("tap") || has("release") {
            return SharedRecordingLabel(expected: .noGesture)
        }
        if has("tap") { return SharedRecordingLabel(expected: .tap(fingers: fingers ?? 1)) }
        if has("scroll") || has("drag") {
            let count = fingers ?? (has("scroll") ? 2 : 1)
            if count == 1 { return SharedRecordingLabel(expected: .noGesture) }
            let directions = words.compactMap(SwipeDirection.init(rawValue:))
            return SharedRecordingLabel(
                expected: .swipe(
                    fingers: count, direction: directions.count == 1 ? directions[0] : nil,
                    vertical: has("vert") || (!directions.isEmpty && directions.allSatisfy { $0 == .up || $0 == .down })))
        }
        return nil
    }

    /// The words of the label part of `file`'s name, lowercased.
    static func labelWords(of file: String) -> [String] {
        let url = SharedRecordings.url(file)
        var name = url.deletingPathExtension().lastPathComponent
        let description = Trace.siblingDescription(of: url).deletingPathExtension().lastPathComponent
        if name.hasPrefix(description) && name.count > description.count {
            name = String(name.dropFirst(description.count + 1))
        } else if let dot = name.firstIndex(of: ".") {
            name = String(name[name.index(after: dot)...])
        }
        // ScrollButtons -> scroll buttons: split camel case, then at - _ .
        var spaced = ""
        for character in name {
            if character.isUppercase, let last = spaced.last, last.isLowercase { spaced.append(" ") }
            spaced.append(character)
        }
        return spaced.lowercased().split(whereSeparator: { " -_.".contains($0) }).map(String.init)
    }

    static func fingerCount(_ word: String) -> Int? {
        ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5][word] ?? Int(word).flatMap { (1...5).contains($0) ? $0 : nil }
    }

    /// Why `events` (a replay) is not what the label says, or nil.
    func problem(with events: [GestureEvent]) -> String? {
        let ends = events.filter(\.isCompletion)
        let done = ends.filter { $0.cancelled != true }
        let got = "got \(ends.map(\.description))"
        switch expected {
        case .tap(let fingers):
            return ends.count == 1 && ends[0].type == .tap && ends[0].fingers == fingers ? nil : "expected \(self), \(got)"
        case .swipe(let fingers, let direction, let vertical):
            guard done.count == 1, let swipe = done.first, swipe.type == .swipe, swipe.fingers == fingers else {
                return "expected \(self) and nothing else, \(got)"
            }
            if let direction, swipe.direction != direction { return "expected \(self), \(got)" }
            if vertical && abs(swipe.dyMillimeters ?? 0) <= abs(swipe.dxMillimeters ?? 0) { return "expected \(self), \(got)" }
            return nil
        case .noGesture:
            return done.isEmpty && !ends.contains { $0.type == .tap } ? nil : "expected \(self), \(got)"
        }
    }
}
