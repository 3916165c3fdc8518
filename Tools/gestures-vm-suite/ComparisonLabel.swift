import Foundation
import GestureTraces

/// What a labelled trace holds, read from its file name, for the comparison
/// with libinput (`LibinputComparison`).
///
/// Synthetic traces are named `DEVICE.LABEL[.VARIANT]`
/// (`rmi4.3-finger-swipe-down-left`, `magic.5-finger-hold.noisy`); the
/// shared evemu recordings `DEVICE.LABEL.events`, or `DEVICE-LABEL.events`
/// beside `DEVICE.desc` (`xit/SynPS2-Synaptics-TouchPad-tap.events`). The
/// label's words say:
/// - `N-finger-swipe-DIRECTION` (words before `from` or `with`), `scroll`
///   and `drag` with 2 or more fingers (2 when none is named; `vert` for up
///   or down): one swipe; one finger dragging is no gesture;
/// - `pinch-in`, `pinch-out`: one pinch; `rotate-clockwise`,
///   `rotate-anticlockwise`: one rotation;
/// - `hold`: one hold; `tap`, `double-tap`: one or two taps (1 finger when none is named);
/// - `nothing`, `press`, `click`, `buttons`, `release`, `move` without `tap`: no gesture.
/// Strokes and swipe sequences have no label here: libinput has neither.
struct ComparisonLabel: Equatable, CustomStringConvertible {
    enum Expected: Equatable {
        /// One swipe with `fingers` in one of `directions` (SwipeDirection raw values).
        case swipe(fingers: Int, directions: Set<String>)
        case pinch(fingers: Int, outward: Bool)
        case rotation(fingers: Int, clockwise: Bool)
        case hold(fingers: Int)
        case taps(fingers: Int, count: Int)
        case nothing
    }

    var expected: Expected

    /// Recordings whose name does not say what they hold (as in the tests'
    /// SharedRecordingLabel, with the evidence there).
    static let overrides: [String: Expected] = [
        "ETPS2_Elantech_Touchpad.Samsung-700Z3A.events": .nothing
    ]

    /// The label of the trace at `path`, or nil when its name gives none.
    init?(path: String) {
        let url = URL(fileURLWithPath: path)
        if let override = Self.overrides[url.lastPathComponent] {
            expected = override
            return
        }
        let words = Self.labelWords(of: url)
        let has = { (word: String) in words.contains(word) }
        let fingers = words.lazy.compactMap(Self.fingerCount).first
        if has("stroke") || has("sequence") { return nil }
        if has("nothing") || has("press") || has("click") || has("buttons") || has("release") || has("move") && !has("tap") {
            expected = .nothing
        } else if has("tap") {
            expected = .taps(fingers: fingers ?? 1, count: has("double") ? 2 : 1)
        } else if has("swipe") || has("scroll") || has("drag") {
            let count = fingers ?? (has("drag") ? 1 : 2)
            if count == 1 {
                expected = .nothing
            } else {
                let named = words.prefix { $0 != "from" && $0 != "with" }
                let vertical = named.first { $0 == "up" || $0 == "down" }
                let horizontal = named.first { $0 == "left" || $0 == "right" }
                let directions: Set<String>
                switch (vertical, horizontal) {
                case (let v?, let h?): directions = ["\(v)_\(h)"]
                case (let v?, nil): directions = [v]
                case (nil, let h?): directions = [h]
                case (nil, nil): directions = has("vert") ? ["up", "down"] : []
                }
                guard !directions.isEmpty else { return nil }
                expected = .swipe(fingers: count, directions: directions)
            }
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
    /// device's name (up to the first dot, or the name of the `.desc` it pairs with).
    static func labelWords(of url: URL) -> [String] {
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

    static func fingerCount(_ word: String) -> Int? {
        ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5][word] ?? Int(word).flatMap { (1...5).contains($0) ? $0 : nil }
    }

    /// The kind of gesture, for the summary per kind.
    var kind: String {
        switch expected {
        case .swipe(let fingers, _): fingers == 2 ? "2-finger swipe" : fingers == 5 ? "5-finger swipe" : "3-4-finger swipe"
        case .pinch: "pinch"
        case .rotation: "rotation"
        case .hold: "hold"
        case .taps(_, let count): count == 1 ? "tap" : "double tap"
        case .nothing: "nothing"
        }
    }

    var description: String {
        switch expected {
        case .swipe(let fingers, let directions): "swipe \(fingers) \(directions.sorted().joined(separator: "/"))"
        case .pinch(let fingers, let outward): "pinch \(fingers) \(outward ? "out" : "in")"
        case .rotation(let fingers, let clockwise): "rotate \(fingers) \(clockwise ? "cw" : "ccw")"
        case .hold(let fingers): "hold \(fingers)"
        case .taps(let fingers, let count): count == 1 ? "tap \(fingers)" : "\(count) taps \(fingers)"
        case .nothing: "nothing"
        }
    }
}
