import GestureRecognition
import InputChecks

/// Something a valid configuration asks for that will not work as written:
/// a binding that can never fire, two bindings that fire together for one
/// gesture, a device filter that matches no device. Never an error (the
/// daemon runs), unless `check-config --strict` is asked.
public struct ConfigurationWarning: Hashable, Sendable, CustomStringConvertible {
    /// Where in the file: `bindings[2].fingers`, or `bindings[0]` for a whole binding.
    public var path: String
    /// What will not work, as a phrase.
    public var message: String

    /// A warning at `path`.
    public init(_ path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

extension DaemonConfiguration {
    /// What in this configuration will not work as written, whatever the devices:
    ///
    /// - bindings that can never fire: swipes and pinches with the finger
    ///   count the engine turns into drawn strokes (`engine.touchpadStrokeFingers`,
    ///   `engine.touchscreenStrokeFingers`);
    /// - bindings that fire together for one gesture, with the one that
    ///   fires first: found by playing each binding's own gesture through
    ///   ``BindingMatcher``, so the rule is the matcher's, not a copy.
    ///
    /// (A template or sequence that does not exist is an error, not a warning.)
    public func warnings() -> [ConfigurationWarning] {
        bindings.flatMap(strokeFingerWarnings) + togetherWarnings()
    }

    /// The bindings whose device filter matches none of `devices` (the
    /// daemon's, or a replayed recording's): they never fire there.
    public func warnings(devices: [InputDevice]) -> [ConfigurationWarning] {
        bindings.compactMap { binding in
            guard let matcher = binding.match.device, !devices.contains(where: { matcher.match($0) == .matched }) else { return nil }
            let seen = devices.isEmpty ? "there are none" : "there are \(Self.deviceList(devices))"
            return ConfigurationWarning(
                "\(binding.path).device",
                "matches no device gestures can come from (\(seen)), so \(binding.name.map { Excerpt.quoted($0) } ?? "the binding") never fires"
            )
        }
    }

    private func strokeFingerWarnings(_ binding: Binding) -> [ConfigurationWarning] {
        guard binding.match.gesture == .swipe || binding.match.gesture == .pinch, let fingers = binding.match.fingers else { return [] }
        let surfaces = [
            ("touchpads", "touchpadStrokeFingers", engine.touchpadStrokeFingers),
            ("touchscreens", "touchscreenStrokeFingers", engine.touchscreenStrokeFingers),
        ]
        let taken = surfaces.filter { $0.2 == fingers }
        guard !taken.isEmpty else { return [] }
        let keys = taken.map { "engine.\($0.1): \(fingers)" }.joined(separator: " and ")
        let places = taken.map(\.0).joined(separator: " and ")
        let everywhere = taken.count == surfaces.count
        let gesture = binding.match.gesture == .swipe ? "swipe" : "pinch"
        return [
            ConfigurationWarning(
                "\(binding.path).fingers",
                "\(keys) makes every \(fingers)-finger motion on \(places) a drawn stroke, so this \(fingers)-finger \(gesture) \(everywhere ? "never fires" : "never fires there")"
            )
        ]
    }

    /// Pairs of bindings that the same gesture fires, each pair once, the first in file order firing first.
    private func togetherWarnings() -> [ConfigurationWarning] {
        var warnings: [ConfigurationWarning] = []
        var reported: Set<[Int]> = []
        let labels = Dictionary(bindings.enumerated().map { ($0.element.label, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for (index, binding) in bindings.enumerated() {
            // Device and application filters need a device and a focused window to decide: only
            // bindings that apply to every device and every application are compared.
            guard binding.match.device == nil, binding.match.application == nil else { continue }
            var comparable = self
            comparable.bindings = bindings.filter { $0.match.device == nil && $0.match.application == nil }
            var matcher = BindingMatcher(configuration: comparable)
            let device = InputDevice(id: 1, name: "any")
            var fired: [Int] = []
            for event in exemplar(binding.match) {
                for action in matcher.process(event, from: device) {
                    if let other = labels[action.binding], !fired.contains(other) { fired.append(other) }
                }
            }
            for other in fired where other != index {
                let pair = [min(index, other), max(index, other)]
                guard reported.insert(pair).inserted else { continue }
                let first = bindings[pair[0]], second = bindings[pair[1]]
                warnings.append(
                    ConfigurationWarning(
                        second.path,
                        "fires together with \(first.reference) for one \(Self.gestureWords(binding.match)); \(first.path) fires first, being earlier in the file"
                    ))
            }
        }
        return warnings
    }

    /// A gesture that `match` fires for: begin, update and end events (or
    /// one event for taps, strokes and sequences) that meet every condition.
    private func exemplar(_ match: Match) -> [GestureEvent] {
        let fingers = match.fingers ?? (match.gesture == .stroke ? 1 : 3)
        func event(_ phase: GestureEvent.Phase?, _ time: Int) -> GestureEvent {
            var event = GestureEvent(type: match.gesture, phase: phase, time: .milliseconds(time), fingers: fingers)
            event.edge = match.edge
            return event
        }
        switch match.gesture {
        case .swipe:
            let direction = match.swipeDirection ?? .right
            let length = max(80, (match.minimumDistanceMillimeters ?? 0) + 1)
            let unit = direction.unitVector
            var begin = event(.begin, 0), update = event(.update, 100), end = event(.end, 200)
            (begin.dxMillimeters, begin.dyMillimeters) = (0, 0)
            (update.dxMillimeters, update.dyMillimeters) = (unit.x * length / 2, unit.y * length / 2)
            (end.dxMillimeters, end.dyMillimeters) = (unit.x * length, unit.y * length)
            end.direction = direction
            return [begin, update, end]
        case .pinch:
            var scale = 1.0, angle = 0.0
            let scaleStep = max(engine.pinchScaleThreshold, 0.05) * 2, angleStep = max(engine.rotationThresholdDegrees, 5) * 2
            switch match.pinchDirection {
            case .in?: scale = 1 - min(scaleStep, 0.5)
            case .out?, nil: scale = 1 + scaleStep
            case .clockwise?: angle = angleStep
            case .counterclockwise?: angle = -angleStep
            }
            if let minimum = match.minimumScale { scale = max(scale, minimum + 0.01) }
            if let maximum = match.maximumScale { scale = min(scale, maximum - 0.01) }
            if let minimum = match.minimumAngleDegrees { angle = (angle < 0 ? -1 : 1) * max(abs(angle), minimum + 1) }
            var begin = event(.begin, 0), update = event(.update, 100), end = event(.end, 200)
            (begin.scale, begin.angleDegrees) = (1, 0)
            (update.scale, update.angleDegrees) = (1 + (scale - 1) / 2, angle / 2)
            (end.scale, end.angleDegrees) = (scale, angle)
            return [begin, update, end]
        case .hold:
            return [event(.begin, 0), event(.end, 500)]
        case .tap:
            return [event(nil, 0)]
        case .stroke:
            var stroke = event(nil, 0)
            stroke.template = match.template ?? templates.names.first
            stroke.score = 1
            return [stroke]
        case .sequence:
            var sequence = event(nil, 0)
            sequence.name = match.sequence ?? sequences.first?.name
            return [sequence]
        }
    }

    private static func gestureWords(_ match: Match) -> String {
        var words: [String] = []
        if let fingers = match.fingers { words.append("\(fingers)-finger") }
        words.append(match.gesture.rawValue)
        if let direction = match.swipeDirection { words.append(direction.rawValue) }
        if let direction = match.pinchDirection { words.append(direction.rawValue) }
        if let template = match.template { words.append(Excerpt.quoted(template)) }
        if let sequence = match.sequence { words.append(Excerpt.quoted(sequence)) }
        return words.joined(separator: " ")
    }

    /// The devices' names, each once (`'ELAN Touchpad' (2 devices)` when
    /// several share it), at most 3 then how many more names.
    static func deviceList(_ devices: [InputDevice]) -> String {
        var names: [(name: String, count: Int)] = []
        for device in devices {
            if let index = names.firstIndex(where: { $0.name == device.name }) {
                names[index].count += 1
            } else {
                names.append((device.name, 1))
            }
        }
        let shown = names.prefix(3).map { Excerpt.quoted($0.name) + ($0.count > 1 ? " (\($0.count) devices)" : "") }
        let more = names.count > 3 ? " and \(names.count - 3) more" : ""
        return shown.joined(separator: ", ") + more
    }
}
