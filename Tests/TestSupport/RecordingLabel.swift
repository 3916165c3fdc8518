import Foundation
import GestureRecognition
import GestureTraces

/// What a recording's file name says it holds: the one grammar of labels in
/// file names, which the shared recordings' test (`GestureReplayTests`) and
/// the VM suite's comparison with libinput both read, and the check that a
/// replay gives it.
///
/// Synthetic traces are named `DEVICE.LABEL[.VARIANT]`
/// (`rmi4.3-finger-swipe-down-left`, `magic.5-finger-hold.noisy`); the
/// shared evemu recordings `DEVICE.LABEL.events`, or `DEVICE-LABEL.events`
/// beside `DEVICE.desc` (`xit/SynPS2-Synaptics-TouchPad-tap.events`). The
/// label's words (camel case split, then at `-`, `_` and `.`) say:
/// - `N-finger-swipe-DIRECTION` (the words before `from` or `with`), `scroll`
///   and `drag` with 2 or more fingers (2 when none is named, 1 for a bare
///   `drag`): one swipe, in the direction named (a vertical and a horizontal
///   word make a diagonal; `vert` is up or down; none named: any direction);
///   one finger dragging is no gesture;
/// - `pinch-in`, `pinch-out`: one pinch; `rotate-clockwise`,
///   `rotate-anticlockwise`: one rotation (both with the fingers named);
/// - `hold`: one hold (with the fingers named); `tap`, `double-tap`: one or
///   two taps (1 finger when none is named);
/// - `nothing`, `press`, `click`, `buttons`, `release`, `move` without `tap`: no gesture.
/// Strokes and swipe sequences have no label here (the synthetic traces'
/// own test reads those names), nor has a name that says none of these:
/// ``overrides`` gives its expectation, with the evidence.
///
///     RecordingLabel(fileAt: URL(fileURLWithPath: "rmi4.3-finger-swipe-down-left.jsonl"))?.description
///     // "swipe 3 down_left"
public struct RecordingLabel: Hashable, Sendable, CustomStringConvertible {
    /// What the recording holds.
    public enum Expected: Hashable, Sendable {
        /// One swipe with `fingers` in one of `directions` (any, when empty).
        case swipe(fingers: Int, directions: Set<SwipeDirection>)
        /// One pinch, outward (scale above 1) or inward.
        case pinch(fingers: Int, outward: Bool)
        /// One rotation, clockwise (a positive angle) or not.
        case rotation(fingers: Int, clockwise: Bool)
        /// One hold.
        case hold(fingers: Int)
        /// `count` taps, each with `fingers`.
        case taps(fingers: Int, count: Int)
        /// Nothing completes that is not cancelled, and nothing is a tap.
        case nothing
    }

    /// What the recording holds.
    public var expected: Expected
    /// Why, when the name alone does not say it.
    public var evidence: String?

    /// A label from its parts.
    public init(expected: Expected, evidence: String? = nil) {
        self.expected = expected
        self.evidence = evidence
    }

    /// Recordings whose name does not say what they hold, or says it wrongly, by file name.
    public static let overrides: [String: RecordingLabel] = [
        "ETPS2_Elantech_Touchpad.Samsung-700Z3A.events": RecordingLabel(
            expected: .nothing,
            evidence: "the name is the laptop's; SOURCES.txt says 7.4 s of 1-finger motion/taps, but it holds two touches "
                + "of 5.6 s and 0.35 s moving 57 mm and 14 mm, and libinput (libinput-output/) reports only pointer "
                + "motion and two cancelled holds, no tap: pointer motion, no gesture")
    ]

    /// The label of the recording at `url` (its override, else what its name says), or nil.
    public init?(fileAt url: URL) {
        if let override = Self.overrides[url.lastPathComponent] {
            self = override
            return
        }
        self.init(words: Self.words(ofFileAt: url))
    }

    /// The label the words of a name say, or nil.
    public init?(words: [String]) {
        let has = { (word: String) in words.contains(word) }
        let fingers = words.lazy.compactMap(Self.fingerCount).first
        if has("stroke") || has("sequence") { return nil }
        if has("nothing") || has("press") || has("click") || has("buttons") || has("release") || has("move") && !has("tap") {
            expected = .nothing
        } else if has("tap") {
            expected = .taps(fingers: fingers ?? 1, count: has("double") ? 2 : 1)
        } else if has("swipe") || has("scroll") || has("drag") {
            let count = fingers ?? (has("drag") && !has("scroll") ? 1 : 2)
            guard count > 1 else {
                expected = .nothing
                return
            }
            let named = words.prefix { $0 != "from" && $0 != "with" }
            let vertical = named.first { $0 == "up" || $0 == "down" }
            let horizontal = named.first { $0 == "left" || $0 == "right" }
            let directions: Set<SwipeDirection>
            switch (vertical, horizontal) {
            case (let v?, let h?): directions = Set([SwipeDirection(rawValue: "\(v)_\(h)")].compactMap { $0 })
            case (let v?, nil): directions = Set([SwipeDirection(rawValue: v)].compactMap { $0 })
            case (nil, let h?): directions = Set([SwipeDirection(rawValue: h)].compactMap { $0 })
            case (nil, nil): directions = has("vert") ? [.up, .down] : []
            }
            expected = .swipe(fingers: count, directions: directions)
        } else if has("pinch"), let fingers, has("in") != has("out") {
            expected = .pinch(fingers: fingers, outward: has("out"))
        } else if has("rotate"), let fingers, has("clockwise") != has("anticlockwise") {
            expected = .rotation(fingers: fingers, clockwise: has("clockwise"))
        } else if has("hold"), let fingers {
            expected = .hold(fingers: fingers)
        } else {
            return nil
        }
    }

    /// The words of the label part of the file name, lowercased: after the
    /// device's name (up to the first dot, or the name of the `.desc` an
    /// `.events` file pairs with), camel case split (`ScrollButtons`: scroll buttons).
    public static func words(ofFileAt url: URL) -> [String] {
        var name = url.lastPathComponent
        if name.hasSuffix(".jsonl") || name.hasSuffix(".events") { name = (name as NSString).deletingPathExtension }
        let description = Trace.siblingDescription(of: url).deletingPathExtension().lastPathComponent
        if url.pathExtension == "events", name.hasPrefix(description), name.count > description.count {
            name = String(name.dropFirst(description.count + 1))
        } else if let dot = name.firstIndex(of: ".") {
            name = String(name[name.index(after: dot)...])
        }
        var spaced = ""
        for character in name {
            if character.isUppercase, let last = spaced.last, last.isLowercase { spaced.append(" ") }
            spaced.append(character)
        }
        return spaced.lowercased().split(whereSeparator: { " -_.".contains($0) }).map(String.init)
    }

    /// The finger count a word names (`two`, `2`), 1 to 5.
    public static func fingerCount(_ word: String) -> Int? {
        ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5][word] ?? Int(word).flatMap { (1...5).contains($0) ? $0 : nil }
    }

    /// The kind of gesture, for a summary per kind.
    public var kind: String {
        switch expected {
        case .swipe(let fingers, _): fingers == 2 ? "2-finger swipe" : fingers == 5 ? "5-finger swipe" : "3-4-finger swipe"
        case .pinch: "pinch"
        case .rotation: "rotation"
        case .hold: "hold"
        case .taps(_, let count): count == 1 ? "tap" : "double tap"
        case .nothing: "nothing"
        }
    }

    /// `swipe 3 down_left`, `pinch 2 out`, `tap 1`, `nothing`.
    public var description: String {
        switch expected {
        case .swipe(let fingers, let directions):
            "swipe \(fingers) " + (directions.isEmpty ? "any" : directions.map(\.rawValue).sorted().joined(separator: "/"))
        case .pinch(let fingers, let outward): "pinch \(fingers) \(outward ? "out" : "in")"
        case .rotation(let fingers, let clockwise): "rotate \(fingers) \(clockwise ? "cw" : "ccw")"
        case .hold(let fingers): "hold \(fingers)"
        case .taps(let fingers, let count): count == 1 ? "tap \(fingers)" : "\(count) taps \(fingers)"
        case .nothing: "nothing"
        }
    }

    /// The least summed angle, in degrees, that counts as a rotation.
    public static let rotationDegrees = 10.0

    /// Why `events` (a replay) is not what the label says, or nil.
    public func problem(with events: [GestureEvent]) -> String? {
        let ends = events.filter(\.isCompletion)
        let done = ends.filter { $0.cancelled != true }
        let wrong = "expected \(self), got \(ends.map(\.description))"
        switch expected {
        case .swipe(let fingers, let directions):
            guard done.count == 1, let swipe = done.first, swipe.type == .swipe, swipe.fingers == fingers else { return wrong }
            return directions.isEmpty || swipe.direction.map(directions.contains) == true ? nil : wrong
        case .pinch(let fingers, let outward):
            guard done.count == 1, done[0].type == .pinch, done[0].fingers == fingers, let scale = done[0].scale else { return wrong }
            return (outward ? scale > 1 : scale < 1) ? nil : wrong
        case .rotation(let fingers, let clockwise):
            guard done.count == 1, done[0].type == .pinch, done[0].fingers == fingers, let angle = done[0].angleDegrees,
                abs(angle) >= Self.rotationDegrees
            else { return wrong }
            return clockwise == (angle > 0) ? nil : wrong
        case .hold(let fingers):
            return done.count == 1 && done[0].type == .hold && done[0].fingers == fingers ? nil : wrong
        case .taps(let fingers, let count):
            // A cancelled hold is no gesture (as for `.nothing`): a tap and then a finger that lands and
            // moves (a tap-and-a-half) is one tap. Every tap counts, every completed gesture is a tap.
            let taps = ends.filter { $0.type == .tap }
            return taps.count == count && taps.allSatisfy { $0.fingers == fingers } && done.allSatisfy { $0.type == .tap } ? nil : wrong
        case .nothing:
            return done.isEmpty && !ends.contains { $0.type == .tap } ? nil : wrong
        }
    }
}
