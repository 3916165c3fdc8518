import EvdevInput
import GestureRecognition
import InputChecks
import StructuredDocuments

/// What bindings are checked against: the names the configuration defines.
struct BindingContext {
    /// The template names, or nil when the library could not be read (its
    /// error is reported once, at `templates`).
    var templateNames: Set<String>?
    /// The sequence names.
    var sequenceNames: Set<String>
}

extension ConfigurationReader {
    mutating func binding(_ node: DocumentNode, at path: String, context: BindingContext) -> DaemonConfiguration.Binding? {
        guard let members = object(node, at: path) else { return nil }
        let before = errors.count
        unknownKeys(members, allowed: Self.bindingKeys, at: path)

        var name: String?
        if let node = node["name"], let text = string(node, at: "\(path).name") {
            if text.isEmpty || text.count > Limits.maximumNameLength || text.contains(where: \.isNewline) {
                fail("\(path).name", "must be 1 to \(Limits.maximumNameLength) characters on one line")
            } else {
                name = text
            }
        }

        var gesture: GestureEvent.Kind?
        if let node = node["gesture"] {
            if let text = string(node, at: "\(path).gesture") {
                gesture = GestureEvent.Kind(rawValue: text)
                if gesture == nil {
                    fail("\(path).gesture", "unknown gesture \(Excerpt.quoted(text)); expected one of \(GestureEvent.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
            }
        } else {
            fail("\(path).gesture", "is required (one of \(GestureEvent.Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var match = DaemonConfiguration.Match(gesture: gesture ?? .tap)
        if let gesture {
            for member in members {
                if let kinds = Self.applicable[member.key], !kinds.contains(gesture) {
                    fail("\(path).\(member.key)", "does not apply to a \(gesture.rawValue) binding")
                }
            }
        }

        if let node = node["fingers"] {
            match.fingers = integer(node, at: "\(path).fingers", in: Limits.fingersRange)
        }
        if let node = node["direction"], let gesture {
            if gesture == .swipe {
                match.swipeDirection = swipeDirection(node, at: "\(path).direction")
            } else if gesture == .pinch, let text = string(node, at: "\(path).direction") {
                match.pinchDirection = DaemonConfiguration.PinchDirection(rawValue: text)
                if match.pinchDirection == nil {
                    fail("\(path).direction", "unknown pinch direction \(Excerpt.quoted(text)); expected one of \(DaemonConfiguration.PinchDirection.allCases.map(\.rawValue).joined(separator: ", "))")
                }
            }
        }
        if let node = node["edge"], gesture == .swipe, let text = string(node, at: "\(path).edge") {
            match.edge = GestureEvent.Edge(rawValue: text)
            if match.edge == nil {
                fail("\(path).edge", "unknown edge \(Excerpt.quoted(text)); expected one of \(GestureEvent.Edge.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }
        if let node = node["template"], gesture == .stroke, let text = string(node, at: "\(path).template") {
            if let names = context.templateNames, !names.contains(text) {
                fail("\(path).template", "no template named \(Excerpt.quoted(text)) in the library (it has: \(Self.names(names.sorted())))")
            } else {
                match.template = text
            }
        }
        if let node = node["sequence"], gesture == .sequence, let text = string(node, at: "\(path).sequence") {
            if !context.sequenceNames.contains(text) {
                let known = context.sequenceNames.isEmpty ? "none are defined" : "defined: \(Self.names(context.sequenceNames.sorted()))"
                fail("\(path).sequence", "no sequence named \(Excerpt.quoted(text)) in sequences (\(known))")
            } else {
                match.sequence = text
            }
        }
        if let node = node["device"] { match.device = device(node, at: "\(path).device") }
        if let node = node["minimumDistanceMillimeters"], gesture == .swipe {
            match.minimumDistanceMillimeters = number(node, at: "\(path).minimumDistanceMillimeters", in: Limits.distanceRange)
        }
        if let node = node["minimumScale"], gesture == .pinch {
            match.minimumScale = number(node, at: "\(path).minimumScale", in: Limits.scaleRange)
        }
        if let node = node["maximumScale"], gesture == .pinch {
            match.maximumScale = number(node, at: "\(path).maximumScale", in: Limits.scaleRange)
        }
        if let minimum = match.minimumScale, let maximum = match.maximumScale, minimum > maximum {
            fail("\(path).minimumScale", "is greater than maximumScale, so nothing can match")
        }
        if let node = node["minimumAngleDegrees"], gesture == .pinch {
            match.minimumAngleDegrees = number(node, at: "\(path).minimumAngleDegrees", in: Limits.angleRange)
        }

        var claim: Bool?
        if let node = node["claim"], let gesture, Self.applicable["claim"]!.contains(gesture) {
            claim = boolean(node, at: "\(path).claim")
        }

        let action: DaemonConfiguration.Action?
        if let node = node["action"] {
            action = self.action(node, at: "\(path).action", match: match, known: gesture != nil, members: members, bindingPath: path)
        } else {
            fail("\(path).action", "is required")
            action = nil
        }
        guard errors.count == before, gesture != nil, let action else { return nil }
        return DaemonConfiguration.Binding(name: name, path: path, match: match, action: action,
                                           claim: claim ?? DaemonConfiguration.claimsByDefault(match))
    }

    private mutating func action(
        _ node: DocumentNode, at path: String, match: DaemonConfiguration.Match, known: Bool,
        members bindingMembers: [DocumentNode.Member], bindingPath: String
    ) -> DaemonConfiguration.Action? {
        guard let members = object(node, at: path) else { return nil }
        unknownKeys(members, allowed: Self.actionKeys, at: path)
        let given = Self.actionKinds.filter { node[$0] != nil }
        if given.count > 1 {
            fail("\(path).\(given[1])", "cannot be combined with \(given[0]); an action is one of \(Self.actionKinds.joined(separator: ", "))")
        }
        var command: [String]?
        var input: DaemonConfiguration.InputAction?
        switch given.first {
        case "keys"?: input = keys(node["keys"]!, at: "\(path).keys").map { .keys($0) }
        case "button"?: input = button(node["button"]!, at: "\(path).button").map { .click($0) }
        case "drag"?:
            input = button(node["drag"]!, at: "\(path).drag").map { .drag($0) }
            if known, match.gesture != .swipe {
                fail("\(path).drag", "a drag follows a swipe; this binding's gesture is \(match.gesture.rawValue)")
            }
            for key in ["phase", "every"] where node[key] != nil {
                fail("\(path).\(key)", "does not apply to a drag, which follows the whole swipe")
            }
            for key in ["direction", "minimumDistanceMillimeters"] where bindingMembers.contains(where: { $0.key == key }) {
                fail("\(bindingPath).\(key)", "does not apply to a drag, which follows the swipe every way from its start")
            }
        default: command = self.command(node["command"], at: "\(path).command")
        }
        if input != nil, node["timeoutSeconds"] != nil {
            fail("\(path).timeoutSeconds", "applies to commands only; \(given[0]) happens at once")
        }

        var phaseName = "end"
        if let node = node["phase"], given.first != "drag", let text = string(node, at: "\(path).phase") {
            if ["end", "begin", "continuous"].contains(text) {
                phaseName = text
            } else {
                fail("\(path).phase", "unknown phase \(Excerpt.quoted(text)); expected end, begin or continuous")
            }
        }
        let gesture = match.gesture
        let single: Set<GestureEvent.Kind> = [.tap, .stroke, .sequence]
        if known, phaseName == "begin", single.contains(gesture) {
            fail("\(path).phase", "a \(gesture.rawValue) has no begin, it happens at once; use end")
        }
        if known, phaseName == "continuous", gesture != .swipe && gesture != .pinch {
            fail("\(path).phase", "continuous actions need a swipe or pinch binding, not \(gesture.rawValue)")
        }

        var every: Double?
        if given.first == "drag" {
            // A drag has no phase of its own.
        } else if let node = node["every"] {
            if phaseName != "continuous" {
                fail("\(path).every", "only applies to a continuous action (phase: continuous)")
            } else if known {
                // The range depends on the gesture, so the message says the unit too.
                let (range, unit) = Self.everyRange(for: match)
                if case .number(let value, _) = node, range.contains(value) {
                    every = value
                } else {
                    fail("\(path).every", "\(range.requirement) (\(unit))")
                }
            }
        } else if phaseName == "continuous" {
            fail("\(path).every", "is required for a continuous action (\(Self.everyRange(for: match).unit) between firings)")
        }
        if known, phaseName == "continuous" {
            if gesture == .pinch, match.pinchDirection == nil, bindingMembers.allSatisfy({ $0.key != "direction" }) {
                fail("\(bindingPath).direction", "a continuous pinch binding needs a direction: in, out, clockwise or counterclockwise")
            }
            for key in ["minimumDistanceMillimeters", "minimumScale", "maximumScale", "minimumAngleDegrees"]
            where bindingMembers.contains(where: { $0.key == key }) {
                fail("\(bindingPath).\(key)", "does not apply to a continuous action; its step is action.every")
            }
        }

        var timeout: Duration?
        if let node = node["timeoutSeconds"] { timeout = seconds(node, at: "\(path).timeoutSeconds") }

        guard command != nil || input != nil else { return nil }
        let phase: DaemonConfiguration.Phase
        switch phaseName {
        case "begin": phase = .begin
        case "continuous":
            guard let every else { return nil }
            phase = .continuous(every: every)
        default: phase = .end
        }
        if let input { return DaemonConfiguration.Action(input: input, phase: phase) }
        return DaemonConfiguration.Action(command: command ?? [], phase: phase, timeout: timeout)
    }

    /// The most keys in one chord: 8.
    static let maximumChordKeys = 8

    /// A chord: kernel key names (`leftmeta`, `KEY_RIGHT`), each once.
    private mutating func keys(_ node: DocumentNode, at path: String) -> [DaemonConfiguration.Key]? {
        guard let items = list(node, at: path) else { return nil }
        guard (1...Self.maximumChordKeys).contains(items.count) else {
            fail(path, items.isEmpty ? "must name at least one key" : "\(items.count) keys, over the limit of \(Self.maximumChordKeys)")
            return nil
        }
        var keys: [DaemonConfiguration.Key] = []
        var valid = true
        for (index, item) in items.enumerated() {
            guard let name = string(item, at: "\(path)[\(index)]") else { valid = false; continue }
            guard let code = KeyNames.code(named: name) else {
                let suggestion = Self.nearest(to: name.lowercased(), in: KeyNames.all).map { "; did you mean '\($0)'?" } ?? " (kernel key names without KEY_, such as leftmeta, right, volumeup)"
                fail("\(path)[\(index)]", "unknown key \(Excerpt.quoted(name))\(suggestion)")
                valid = false
                continue
            }
            if keys.contains(where: { $0.code == code }) {
                fail("\(path)[\(index)]", "names \(Excerpt.quoted(name)) twice; a chord presses each key once")
                valid = false
                continue
            }
            keys.append(DaemonConfiguration.Key(name: KeyNames.name(of: code) ?? name.lowercased(), code: code))
        }
        return valid ? keys : nil
    }

    /// `left`, `right` or `middle`.
    private mutating func button(_ node: DocumentNode, at path: String) -> DaemonConfiguration.MouseSettings.Button? {
        guard let text = string(node, at: path) else { return nil }
        guard let button = DaemonConfiguration.MouseSettings.Button(rawValue: text) else {
            fail(path, "unknown button \(Excerpt.quoted(text)); expected left, right or middle")
            return nil
        }
        return button
    }

    /// The candidate closest to `word` by edit distance, when it is close
    /// (at most a third of the word's length, and 3), else nil.
    static func nearest(to word: String, in candidates: [String]) -> String? {
        let limit = min(3, max(1, word.count / 3))
        var best: (String, Int)?
        let a = Array(word)
        for candidate in candidates {
            let b = Array(candidate)
            guard abs(a.count - b.count) <= limit else { continue }
            var previous = Array(0...b.count)
            for i in 1...max(a.count, 1) where !a.isEmpty {
                var current = [i] + Array(repeating: 0, count: b.count)
                for j in stride(from: 1, through: b.count, by: 1) {
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                }
                previous = current
            }
            let distance = a.isEmpty ? b.count : previous[b.count]
            if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// The range of `every` for the binding's gesture, and its unit.
    static func everyRange(for match: DaemonConfiguration.Match) -> (range: NumberRange, unit: String) {
        switch match.pinchDirection {
        case .in?, .out?: (Limits.everyScaleRange, "scale steps")
        case .clockwise?, .counterclockwise?: (Limits.everyDegreesRange, "degrees")
        case nil: match.gesture == .pinch ? (Limits.everyScaleRange, "scale steps") : (Limits.everyMillimetersRange, "mm")
        }
    }

    private mutating func command(_ node: DocumentNode?, at path: String) -> [String]? {
        guard let node else {
            fail(path, "is required: the program and its arguments, as a list")
            return nil
        }
        guard let items = list(node, at: path) else { return nil }
        guard !items.isEmpty else {
            fail(path, "must name a program: the list is empty")
            return nil
        }
        guard items.count <= Limits.maximumCommandArguments else {
            fail(path, "\(items.count) words, over the limit of \(Limits.maximumCommandArguments)")
            return nil
        }
        var words: [String] = []
        var total = 0
        var valid = true
        for (index, item) in items.enumerated() {
            let itemPath = "\(path)[\(index)]"
            let word: String
            switch item {
            case .string(let text): word = text
            case .number(_, let text): word = text
            default:
                fail(itemPath, "must be a string, not \(item.kindDescription)")
                valid = false
                continue
            }
            if word.utf8.count > Limits.maximumArgumentBytes {
                fail(itemPath, "is \(word.utf8.count) bytes, over the limit of \(Limits.maximumArgumentBytes)")
                valid = false
            } else if word.utf8.contains(0) {
                fail(itemPath, "must not contain a NUL character")
                valid = false
            } else if index == 0, word.isEmpty {
                fail(itemPath, "must name a program, not be empty")
                valid = false
            }
            total += word.utf8.count
            words.append(word)
        }
        if total > Limits.maximumCommandBytes {
            fail(path, "is \(total) bytes in all, over the limit of \(Limits.maximumCommandBytes)")
            valid = false
        }
        return valid ? words : nil
    }
}
