import Foundation
import TestSupport

/// What one stack (libinput or `gestures watch`) reported for one trace:
/// its completed gestures, each with the time its begin line arrived, and
/// what it reported besides (pointer motion, physical clicks, touches,
/// cancelled gestures), read from its output lines.
///
/// The mapping from libinput's events to gestures (written down in
/// Docs/GestureEngine.md, "Side by side with libinput"):
/// - GESTURE_SWIPE_BEGIN ... END: a swipe with its finger count, in the
///   direction of the summed unaccelerated deltas (8 sectors of 45°);
/// - GESTURE_PINCH_BEGIN ... END: a pinch with the last scale and the
///   summed angle deltas (positive: clockwise);
/// - GESTURE_HOLD_BEGIN ... END: a hold;
/// - any of these ended `cancelled`: no gesture, counted as cancelled;
/// - POINTER_SCROLL_FINGER: a 2-finger swipe in the direction the fingers
///   moved (libinput's reading of two fingers moving; natural scrolling is off);
/// - POINTER_BUTTON pressed: a tap (BTN_LEFT 1 finger, BTN_RIGHT 2, BTN_MIDDLE 3),
///   or a click when the trace itself presses a button;
/// - POINTER_MOTION, TOUCH_*: no gesture.
struct StackReport: CustomStringConvertible {
    /// A completed gesture.
    struct Gesture {
        enum Kind: String { case swipe, pinch, hold, tap, other }
        var kind: Kind
        var fingers: Int
        /// Swipes: a SwipeDirection raw value.
        var direction: String?
        var scale: Double?
        var angleDegrees: Double?
        /// The name of what the stack said, for the table (`BTN_RIGHT`, `scroll`, a type).
        var name: String?
        /// When the line that began it arrived (µs, CLOCK_MONOTONIC).
        var began: Int64
    }

    var gestures: [Gesture] = []
    var cancelled = 0
    var motion = 0
    var touches = 0
    var clicks: [String] = []

    /// Reads libinput debug-events lines (with their arrival times);
    /// `tracePresses` says whether the trace presses a physical button.
    init(libinput lines: [(line: String, arrived: Int64)], tracePresses: Bool) {
        var open: (kind: Gesture.Kind, fingers: Int, began: Int64)?
        var dx = 0.0, dy = 0.0, scale = 1.0, angle = 0.0
        var scroll: (horizontal: Double, vertical: Double, began: Int64)?
        for (line, arrived) in lines {
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            // "-event7   GESTURE_SWIPE_BEGIN  +1.234s  3": the node column first.
            guard words.count >= 2, words[0].contains("event") else { continue }
            let type = words[1]
            let rest = Array(words.dropFirst(3))
            if type.hasPrefix("GESTURE_") {
                let parts = type.split(separator: "_")
                guard parts.count == 3, let kind = Gesture.Kind(rawValue: parts[1].lowercased()) else { continue }
                let fingers = rest.first.flatMap { Int($0) } ?? 0
                switch parts[2] {
                case "BEGIN":
                    open = (kind, fingers, arrived)
                    dx = 0; dy = 0; scale = 1; angle = 0
                case "UPDATE":
                    let (delta, pinch) = Self.gestureUpdate(line)
                    dx += delta.dx; dy += delta.dy
                    if let pinch { scale = pinch.scale; angle += pinch.angle }
                case "END":
                    guard let began = open else { continue }
                    open = nil
                    if rest.contains("cancelled") { cancelled += 1; continue }
                    var gesture = Gesture(kind: began.kind, fingers: began.fingers, began: began.began)
                    switch began.kind {
                    case .swipe: gesture.direction = Self.direction(dx: dx, dy: dy)
                    case .pinch: gesture.scale = scale; gesture.angleDegrees = angle
                    default: break
                    }
                    gestures.append(gesture)
                default: continue
                }
            } else if type == "POINTER_SCROLL_FINGER" {
                let vertical =
                    words.firstIndex(of: "vert").flatMap { $0 + 1 < words.count ? VMLibinput.Summary.numbers(words[$0 + 1]).first : nil }
                    ?? 0
                let horizontal =
                    words.firstIndex(of: "horiz").flatMap { $0 + 1 < words.count ? VMLibinput.Summary.numbers(words[$0 + 1]).first : nil }
                    ?? 0
                var sum = scroll ?? (0, 0, arrived)
                sum.horizontal += horizontal; sum.vertical += vertical
                scroll = sum
            } else if type == "POINTER_BUTTON", words.contains("pressed,") {
                let button = words.first { $0.hasPrefix("BTN_") } ?? "?"
                if tracePresses {
                    clicks.append(button)
                } else {
                    let fingers = ["BTN_LEFT": 1, "BTN_RIGHT": 2, "BTN_MIDDLE": 3][button] ?? 0
                    gestures.append(Gesture(kind: .tap, fingers: fingers, name: button, began: arrived))
                }
            } else if type == "POINTER_MOTION" {
                motion += 1
            } else if type == "TOUCH_DOWN" {
                touches += 1
            }
        }
        if let scroll, scroll.horizontal != 0 || scroll.vertical != 0 {
            gestures.append(
                Gesture(
                    kind: .swipe, fingers: 2, direction: Self.direction(dx: scroll.horizontal, dy: scroll.vertical),
                    name: "scroll", began: scroll.began))
            gestures.sort { $0.began < $1.began }
        }
    }

    /// Reads `gestures watch` lines (the replay contract, one JSON object a line).
    init(gestures lines: [(line: String, arrived: Int64)]) {
        var began: [String: Int64] = [:]
        for (line, arrived) in lines {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let type = object["type"] as? String
            else { continue }
            let fingers = object["fingers"] as? Int ?? 0
            switch object["phase"] as? String {
            case "begin":
                began[type] = arrived
            case "update":
                continue
            case let phase:
                // An end, or a single event (tap, stroke) without a phase.
                let start = phase == "end" ? began.removeValue(forKey: type) ?? arrived : arrived
                if object["cancelled"] as? Bool == true { cancelled += 1; continue }
                var gesture = Gesture(kind: Gesture.Kind(rawValue: type) ?? .other, fingers: fingers, began: start)
                gesture.direction = object["direction"] as? String
                gesture.scale = (object["scale"] as? NSNumber)?.doubleValue
                gesture.angleDegrees = (object["angle_degrees"] as? NSNumber)?.doubleValue
                if gesture.kind == .other { gesture.name = type }
                gestures.append(gesture)
            }
        }
    }

    /// The deltas of a GESTURE_*_UPDATE line (unaccelerated: the numbers in
    /// the parentheses), and for a pinch its scale and angle delta.
    /// `3  0.50/-0.10 ( 0.60/-0.12 unaccelerated)  1.23 @ -4.56`
    static func gestureUpdate(_ line: String) -> (delta: (dx: Double, dy: Double), pinch: (scale: Double, angle: Double)?) {
        guard let open = line.firstIndex(of: "("), let close = line.firstIndex(of: ")"), open < close else { return ((0, 0), nil) }
        let inside = line[line.index(after: open)..<close].replacingOccurrences(of: "unaccelerated", with: "")
        let deltas = inside.split(separator: "/").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        let delta = deltas.count == 2 ? (deltas[0], deltas[1]) : (0.0, 0.0)
        let after = line[line.index(after: close)...].split(separator: "@").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return (delta, after.count == 2 ? (after[0], after[1]) : nil)
    }

    /// The direction of a motion (y grows downwards) in 8 sectors of 45°, as a SwipeDirection raw value.
    static func direction(dx: Double, dy: Double) -> String {
        let degrees = atan2(-dy, dx) * 180 / .pi
        let names = ["right", "up_right", "up", "up_left", "left", "down_left", "down", "down_right"]
        let sector = Int(((degrees + 360 + 22.5).truncatingRemainder(dividingBy: 360)) / 45) % 8
        return names[sector]
    }

    /// The gestures of a kind `label` names.
    func agrees(with label: RecordingLabel) -> Bool {
        switch label.expected {
        case .swipe(let fingers, let directions):
            return gestures.count == 1 && gestures[0].kind == .swipe && gestures[0].fingers == fingers
                && directions.map(\.rawValue).contains(gestures[0].direction ?? "")
        case .pinch(let fingers, let outward):
            guard gestures.count == 1, gestures[0].kind == .pinch, gestures[0].fingers == fingers, let scale = gestures[0].scale else {
                return false
            }
            return outward ? scale > 1 : scale < 1
        case .rotation(let fingers, let clockwise):
            guard gestures.count == 1, gestures[0].kind == .pinch, gestures[0].fingers == fingers,
                let angle = gestures[0].angleDegrees, abs(angle) >= RecordingLabel.rotationDegrees
            else { return false }
            return clockwise == (angle > 0)
        case .hold(let fingers):
            return gestures.count == 1 && gestures[0].kind == .hold && gestures[0].fingers == fingers
        case .taps(let fingers, let count):
            return gestures.count == count && gestures.allSatisfy { $0.kind == .tap && $0.fingers == fingers }
        case .nothing:
            return gestures.isEmpty
        }
    }

    /// When the first gesture began, µs after `start`; nil without one.
    func delay(after start: Int64) -> Int64? {
        gestures.map(\.began).min().map { $0 - start }
    }

    /// One cell of the table: the gestures, then what else was reported.
    var description: String {
        var parts = gestures.map { gesture -> String in
            switch gesture.kind {
            case .swipe where gesture.name == "scroll": return "scroll \(gesture.direction ?? "?")"
            case .swipe: return "swipe \(gesture.fingers) \(gesture.direction ?? "?")"
            case .pinch:
                var text = "pinch \(gesture.fingers) ×\(String(format: "%.2f", gesture.scale ?? 1))"
                if let angle = gesture.angleDegrees, abs(angle) >= RecordingLabel.rotationDegrees {
                    text += String(format: " %+.0f°", angle)
                }
                return text
            case .hold: return "hold \(gesture.fingers)"
            case .tap: return gesture.name.map { "tap \($0)" } ?? "tap \(gesture.fingers)"
            case .other: return "\(gesture.name ?? "?") \(gesture.fingers)"
            }
        }
        if !clicks.isEmpty { parts.append("click \(clicks.joined(separator: " "))") }
        if cancelled > 0 { parts.append("\(cancelled) cancelled") }
        if parts.isEmpty && motion > 0 { parts.append("pointer motion") }
        if parts.isEmpty && touches > 0 { parts.append("touches") }
        return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
    }
}
