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
    ///   `engine.touchscreenStrokeFingers`), strokes with a finger count no
    ///   surface draws with, pinches with one finger;
    /// - bindings that fire together for one gesture, with the one that
    ///   fires first: found by playing a gesture that meets both bindings'
    ///   conditions through ``BindingMatcher``, so the rule is the matcher's,
    ///   not a copy;
    /// - sequence bindings whose swipes also fire swipe bindings, the same way.
    ///
    /// (A template or sequence that does not exist is an error, not a warning.)
    public func warnings() -> [ConfigurationWarning] {
        bindings.flatMap(fingerWarnings) + togetherWarnings() + sequenceWarnings()
    }

    /// The bindings whose device filter matches none of `devices` (the
    /// daemon's, or a replayed recording's): they never fire there; and the
    /// swipes whose minimum distance is longer than every touch surface of
    /// `devices` they can come from is across (its diagonal).
    public func warnings(devices: [InputDevice]) -> [ConfigurationWarning] {
        var warnings: [ConfigurationWarning] = []
        for binding in bindings {
            let taken = devices.filter { device in binding.match.device.map { $0.match(device) == .matched } ?? true }
            if binding.match.device != nil, taken.isEmpty {
                let seen = devices.isEmpty ? "there are none" : "there are \(Self.deviceList(devices))"
                warnings.append(
                    ConfigurationWarning(
                        "\(binding.path).device",
                        "matches no device gestures can come from (\(seen)), so \(binding.name.map { Excerpt.quoted($0) } ?? "the binding") never fires"
                    ))
                continue
            }
            // Swipes come from touch surfaces: judged when the size of every one it can come from is known.
            let touch = taken.filter { !$0.isMouse }
            let diagonals = touch.compactMap(\.diagonalMillimeters)
            if let minimum = binding.match.minimumDistanceMillimeters, binding.match.gesture == .swipe, !touch.isEmpty,
                diagonals.count == touch.count, let longest = diagonals.max(), minimum > longest
            {
                let named = touch.prefix(3).map {
                    "\(Excerpt.quoted($0.name)) \(GestureEvent.decimalText($0.diagonalMillimeters!.rounded())) mm"
                }
                let more = touch.count > 3 ? " and \(touch.count - 3) more" : ""
                warnings.append(
                    ConfigurationWarning(
                        "\(binding.path).minimumDistanceMillimeters",
                        "\(GestureEvent.decimalText(minimum)) mm is longer than the diagonal of every touch surface it can come from "
                            + "(\(named.joined(separator: ", "))\(more)), so this swipe never fires"))
            }
        }
        return warnings
    }

    /// A binding whose finger count no gesture of its kind has: swipes and
    /// pinches the engine draws as strokes instead, strokes drawn with
    /// other fingers, pinches with one.
    private func fingerWarnings(_ binding: Binding) -> [ConfigurationWarning] {
        guard let fingers = binding.match.fingers else { return [] }
        let path = "\(binding.path).fingers"
        switch binding.match.gesture {
        case .pinch where fingers < 2:
            return [ConfigurationWarning(path, "a pinch takes two fingers or more, so this \(fingers)-finger pinch never fires")]
        case .stroke:
            let drawing = [
                ("touchscreens", "touchscreenStrokeFingers", engine.touchscreenStrokeFingers),
                ("touchpads", "touchpadStrokeFingers", engine.touchpadStrokeFingers),
            ]
            guard !drawing.contains(where: { $0.2 == fingers }) else { return [] }
            let how = drawing.map { surface in
                surface.2.map { "\($0) on \(surface.0) (engine.\(surface.1))" } ?? "none on \(surface.0) (engine.\(surface.1) is not set)"
            }
            return [
                ConfigurationWarning(
                    path, "strokes are drawn with \(how.joined(separator: " and ")), so this \(fingers)-finger stroke never fires")
            ]
        case .swipe, .pinch:
            return strokeFingerWarnings(binding)
        case .tap, .hold, .sequence:
            return []
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

    /// Pairs of bindings that the same gesture fires, each pair once, the
    /// first in file order firing first: for each pair of one kind whose
    /// conditions can meet, a gesture that meets both (``merged(_:_:)``) is
    /// played through ``BindingMatcher`` with the two bindings alone.
    private func togetherWarnings() -> [ConfigurationWarning] {
        var warnings: [ConfigurationWarning] = []
        // Device and application filters need a device and a focused window to decide: only
        // bindings that apply to every device and every application are compared.
        let comparable = bindings.indices.filter { bindings[$0].match.device == nil && bindings[$0].match.application == nil }
        for (position, first) in comparable.enumerated() {
            for second in comparable[(position + 1)...] {
                guard let both = Self.merged(bindings[first].match, bindings[second].match),
                    fired(by: [bindings[first], bindings[second]], for: both) == [0, 1]
                else { continue }
                let (a, b) = (bindings[first], bindings[second])
                warnings.append(
                    ConfigurationWarning(
                        b.path,
                        "fires together with \(a.reference) for one \(Self.gestureWords(both)); \(a.path) fires first, being earlier in the file"
                    ))
            }
        }
        return warnings
    }

    /// Which of `some` (their indices in it) fire for the gesture that
    /// `match` makes, played through a ``BindingMatcher`` of them alone.
    private func fired(by some: [Binding], for match: Match) -> Set<Int> {
        var alone = self
        // Named by their place here, so that two of one name are told apart.
        alone.bindings = some.enumerated().map { index, binding in
            var named = binding
            named.name = "\(index)"
            return named
        }
        var matcher = BindingMatcher(configuration: alone)
        let device = InputDevice(id: 1, name: "any")
        var fired: Set<Int> = []
        for event in exemplar(match) {
            for action in matcher.process(event, from: device) { if let index = Int(action.binding) { fired.insert(index) } }
        }
        return fired
    }

    /// The conditions of a gesture that meets both `a` and `b`, or nil when
    /// none can (other kinds, fingers, directions, edges, shapes or sequences).
    static func merged(_ a: Match, _ b: Match) -> Match? {
        guard a.gesture == b.gesture else { return nil }
        var meets = true
        func take<T: Equatable>(_ x: T?, _ y: T?) -> T? {
            if let x, let y, x != y { meets = false }
            return x ?? y
        }
        var match = Match(gesture: a.gesture)
        match.fingers = take(a.fingers, b.fingers)
        match.swipeDirection = take(a.swipeDirection, b.swipeDirection)
        match.pinchDirection = take(a.pinchDirection, b.pinchDirection)
        match.edge = take(a.edge, b.edge)
        match.template = take(a.template, b.template)
        match.sequence = take(a.sequence, b.sequence)
        guard meets else { return nil }
        match.minimumDistanceMillimeters = [a.minimumDistanceMillimeters, b.minimumDistanceMillimeters].compactMap { $0 }.max()
        match.minimumScale = [a.minimumScale, b.minimumScale].compactMap { $0 }.max()
        match.maximumScale = [a.maximumScale, b.maximumScale].compactMap { $0 }.min()
        match.minimumAngleDegrees = [a.minimumAngleDegrees, b.minimumAngleDegrees].compactMap { $0 }.max()
        return match
    }

    /// Sequence bindings whose swipes also fire swipe bindings: the engine
    /// reports each swipe of a sequence as a swipe too, so a binding for one
    /// of its directions fires on the way to the sequence.
    private func sequenceWarnings() -> [ConfigurationWarning] {
        var warnings: [ConfigurationWarning] = []
        let swipes = bindings.filter { $0.match.gesture == .swipe && $0.match.device == nil && $0.match.application == nil }
        for binding in bindings where binding.match.gesture == .sequence {
            let named = binding.match.sequence.map { name in sequences.filter { $0.name == name } } ?? sequences
            for sequence in named {
                var taken: Set<Int> = []
                for direction in Set(sequence.directions) {
                    var swipe = Match(gesture: .swipe)
                    swipe.fingers = binding.match.fingers
                    swipe.swipeDirection = direction
                    for (index, other) in swipes.enumerated() where !taken.contains(index) {
                        if let both = Self.merged(swipe, other.match), !fired(by: [other], for: both).isEmpty { taken.insert(index) }
                    }
                }
                guard !taken.isEmpty else { continue }
                let list = DoctorWords.list(taken.sorted().map { swipes[$0].reference })
                let directions = sequence.directions.map(\.rawValue).joined(separator: ", ")
                warnings.append(
                    ConfigurationWarning(
                        binding.path,
                        "each swipe of sequence \(Excerpt.quoted(sequence.name)) (\(directions)) is a swipe too, so \(list) also "
                            + "\(taken.count == 1 ? "fires" : "fire") on the way to it"))
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
        if let edge = match.edge { words.append("from the \(edge.rawValue) edge") }
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
