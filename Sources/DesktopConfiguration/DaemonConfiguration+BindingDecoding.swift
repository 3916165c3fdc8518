import GestureRecognition
import InputChecks
import StructuredDocuments
import TouchInput
import Validation

private typealias Limits = DaemonConfiguration.Limits

extension DaemonConfiguration.PinchDirection: ClosedWord {
    /// The ways a pinch goes, as a binding's `direction` writes them.
    public static let closedWords = ClosedWords("pinch direction", Self.self)
}

extension DaemonConfiguration.Binding: Decodable {
    /// A binding's keys, in the order messages list them.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, gesture, fingers, direction, edge, template, sequence, device, apps, notApps, title
        case minimumDistanceMillimeters, minimumScale, maximumScale, minimumAngleDegrees, claim, action
    }

    /// The keys a binding may hold.
    public static let keys = ClosedWords.keys(CodingKeys.self)

    /// The gestures each condition applies to.
    static let applicable: [CodingKeys: Set<GestureEvent.Kind>] = [
        .direction: [.swipe, .pinch], .edge: [.swipe], .template: [.stroke], .sequence: [.sequence],
        .minimumDistanceMillimeters: [.swipe],
        .minimumScale: [.pinch], .maximumScale: [.pinch], .minimumAngleDegrees: [.pinch],
        .claim: [.swipe, .pinch, .hold, .tap, .stroke],
    ]

    /// Reads a binding: its gesture, the conditions that apply to it, and
    /// its action, every problem collected; its path (`bindings[3]`) is
    /// where it stands. The templates and sequences it names are checked
    /// against the whole file afterwards.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.object(keyedBy: CodingKeys.self)
        var problems = DecodingProblems(unknownKeysOf: decoder, keyedBy: CodingKeys.self)
        func at(_ key: CodingKeys) -> [any CodingKey] { c.codingPath + [key] }

        var name: String?
        if let text = problems.attempt({ try c.decodeText(forKey: .name) }) {
            if text.isEmpty || text.count > Limits.maximumNameLength || text.contains(where: \.isNewline) {
                problems.fail(at(.name), "must be 1 to \(Limits.maximumNameLength) characters on one line")
            } else if !Excerpt.isPrintable(text) {
                // Names reach the terminal in check-config, --explain and the log.
                problems.fail(at(.name), "holds a control character (\(Excerpt.quoted(text))); a name is printable text")
            } else {
                name = text
            }
        }
        var gesture: GestureEvent.Kind?
        if c.contains(.gesture) {
            gesture = problems.attempt { try c.decode(GestureEvent.Kind.self, forKey: .gesture) }
        } else {
            problems.fail(at(.gesture), "is required (one of \(GestureEvent.Kind.closedWords.words.joined(separator: ", ")))")
        }
        var match = DaemonConfiguration.Match(gesture: gesture ?? .tap)
        if let gesture {
            for key in c.allKeys where !(Self.applicable[key]?.contains(gesture) ?? true) {
                problems.fail(at(key), "does not apply to a \(gesture.rawValue) binding")
            }
        }

        match.fingers = problems.attempt { try c.decodeInteger(forKey: .fingers, in: Limits.fingersRange) }
        switch gesture {
        case .swipe?:
            match.swipeDirection = problems.attempt { try c.decodeIfPresent(SwipeDirection.self, forKey: .direction) }
            match.edge = problems.attempt { try c.decodeIfPresent(GestureEvent.Edge.self, forKey: .edge) }
            match.minimumDistanceMillimeters = problems.attempt {
                try c.decodeNumber(forKey: .minimumDistanceMillimeters, in: Limits.distanceRange)
            }
        case .pinch?:
            match.pinchDirection = problems.attempt { try c.decodeIfPresent(DaemonConfiguration.PinchDirection.self, forKey: .direction) }
            match.minimumScale = problems.attempt { try c.decodeNumber(forKey: .minimumScale, in: Limits.scaleRange) }
            match.maximumScale = problems.attempt { try c.decodeNumber(forKey: .maximumScale, in: Limits.scaleRange) }
            if let minimum = match.minimumScale, let maximum = match.maximumScale, minimum > maximum {
                problems.fail(at(.minimumScale), "is greater than maximumScale, so nothing can match")
            }
            match.minimumAngleDegrees = problems.attempt { try c.decodeNumber(forKey: .minimumAngleDegrees, in: Limits.angleRange) }
        case .stroke?:
            match.template = problems.attempt { try c.decodeText(forKey: .template) }
        case .sequence?:
            match.sequence = problems.attempt { try c.decodeText(forKey: .sequence) }
        default:
            break
        }
        match.device = problems.attempt { try c.decodeIfPresent(DaemonConfiguration.DeviceMatcher.self, forKey: .device) }
        match.application = problems.attempt { try Self.applicationFilter(c) }

        var claim: Bool?
        if let gesture, Self.applicable[.claim]?.contains(gesture) == true {
            claim = problems.attempt { try c.decodeFlag(forKey: .claim) }
        }
        var action: DaemonConfiguration.Action?
        if c.contains(.action) {
            action = problems.attempt {
                try DaemonConfiguration.Action(
                    from: try c.superDecoder(forKey: .action), match: match, known: gesture != nil,
                    bindingKeys: Set(c.allKeys), bindingPath: c.codingPath)
            }
        } else {
            problems.fail(at(.action), "is required")
        }
        try problems.finish()
        guard let action else { throw InvalidValue(codingPath: at(.action), message: "is required") }
        self.init(
            name: name, path: JSONText.keyPath(c.codingPath), match: match, action: action,
            claim: claim ?? DaemonConfiguration.claimsByDefault(match), claimsMouseStrokes: claim ?? true)
    }
}

extension DaemonConfiguration.Binding {
    /// The binding's `apps`, `notApps` and `title`, or nil when it has none:
    /// each pattern at most ``DaemonConfiguration/Limits/maximumPatternLength``
    /// long and compiled by `PatternMatcher`, each list of 1 to
    /// ``DaemonConfiguration/Limits/maximumApplicationPatterns`` (a single
    /// string is a list of one).
    static func applicationFilter(_ c: KeyedDecodingContainer<CodingKeys>) throws -> DaemonConfiguration.ApplicationFilter? {
        guard c.contains(.apps) || c.contains(.notApps) || c.contains(.title) else { return nil }
        var problems = DecodingProblems()
        let apps = problems.attempt { try patterns(c, .apps) } ?? []
        let notApps = problems.attempt { try patterns(c, .notApps) } ?? []
        var title: String?
        if let text = problems.attempt({ try c.decodeText(forKey: .title) }) {
            if let problem = patternProblem(text) { problems.fail(c.codingPath + [CodingKeys.title], problem) } else { title = text }
        }
        if !apps.isEmpty, let clash = notApps.first(where: apps.contains) {
            problems.fail(
                c.codingPath + [CodingKeys.notApps], "repeats \(Excerpt.quoted(clash)) of apps, so the binding could never apply there")
        }
        try problems.finish()
        guard !(apps.isEmpty && notApps.isEmpty && title == nil) else { return nil }
        do throws(PatternMatcher.InvalidPattern) {
            return try DaemonConfiguration.ApplicationFilter(apps: apps, notApps: notApps, title: title)
        } catch {
            throw InvalidValue(codingPath: c.codingPath, message: error.description)
        }
    }

    /// A list of application patterns at `key` (or one string), each checked.
    private static func patterns(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> [String] {
        let path = c.codingPath + [key]
        if let single = try? c.decodeIfPresent(String.self, forKey: key) {
            if let problem = patternProblem(single) { throw InvalidValue(codingPath: path, message: problem) }
            return [single]
        }
        guard c.contains(key) else { return [] }
        var list: UnkeyedDecodingContainer
        do { list = try c.nestedUnkeyedContainer(forKey: key) } catch {
            throw InvalidValue(codingPath: path, message: "must be a pattern or a list of patterns (application ids or X11 classes)")
        }
        let count = list.count ?? 0
        let limit = DaemonConfiguration.Limits.maximumApplicationPatterns
        guard (1...limit).contains(count) else {
            throw InvalidValue(
                codingPath: path,
                message: count == 0 ? "must name at least one application" : "\(count) patterns, over the limit of \(limit)")
        }
        var problems = DecodingProblems()
        var patterns: [String] = []
        while !list.isAtEnd {
            let itemPath = path + [AnyCodingKey(intValue: list.currentIndex)]
            let index = list.currentIndex
            guard let pattern = problems.attempt({ try list.decode(String.self) }) else {
                if list.currentIndex == index { break }
                continue
            }
            if let problem = patternProblem(pattern) { problems.fail(itemPath, problem) } else { patterns.append(pattern) }
        }
        try problems.finish()
        return patterns
    }

    /// Why `pattern` cannot be an application or title pattern (too long,
    /// a control character in it, or ICU rejects it), or nil.
    private static func patternProblem(_ pattern: String) -> String? {
        let limit = DaemonConfiguration.Limits.maximumPatternLength
        if pattern.utf16.count > limit { return "the pattern is \(pattern.utf16.count) characters, over the limit of \(limit)" }
        if !Excerpt.isPrintable(pattern) {
            return
                "the pattern \(Excerpt.quoted(pattern)) holds a control character; write it as an escape (\\t, \\x{1b}) if it must match one"
        }
        do throws(PatternMatcher.InvalidPattern) { _ = try PatternMatcher(pattern) } catch { return error.description }
        return nil
    }
}

extension DaemonConfiguration.Action {
    /// An action's keys, in the order messages list them.
    enum CodingKeys: String, CodingKey, CaseIterable { case command, phase, every, timeoutSeconds, keys, button, drag }

    /// What an action does: one of these.
    static let kinds: [CodingKeys] = [.command, .keys, .button, .drag]
    /// The phases an action may name.
    static let phases = ClosedWords("phase", ["end", "begin", "continuous"])

    /// The most keys in one chord: 8.
    public static let maximumChordKeys = 8

    /// Reads the action of a binding that matches `match` (`known`: its
    /// gesture could be read, so the checks that depend on it are made);
    /// `bindingKeys` are the binding's keys, at `bindingPath`.
    init(
        from decoder: any Decoder, match: DaemonConfiguration.Match, known: Bool,
        bindingKeys: Set<DaemonConfiguration.Binding.CodingKeys>, bindingPath: [any CodingKey]
    ) throws {
        typealias BindingKey = DaemonConfiguration.Binding.CodingKeys
        let c = try decoder.object(keyedBy: CodingKeys.self)
        var problems = DecodingProblems(unknownKeysOf: decoder, keyedBy: CodingKeys.self)
        func at(_ key: CodingKeys) -> [any CodingKey] { c.codingPath + [key] }
        let given = Self.kinds.filter { c.contains($0) }
        if given.count > 1 {
            problems.fail(
                at(given[1]),
                "cannot be combined with \(given[0].stringValue); an action is one of \(Self.kinds.map(\.stringValue).joined(separator: ", "))"
            )
        }
        var command: [String]?
        var input: DaemonConfiguration.InputAction?
        switch given.first {
        case .keys?: input = problems.attempt { try Self.chord(c) }.map { .keys($0) }
        case .button?:
            input = problems.attempt { try c.decode(DaemonConfiguration.MouseSettings.Button.self, forKey: .button) }.map { .click($0) }
        case .drag?:
            input = problems.attempt { try c.decode(DaemonConfiguration.MouseSettings.Button.self, forKey: .drag) }.map { .drag($0) }
            if known, match.gesture != .swipe {
                problems.fail(at(.drag), "a drag follows a swipe; this binding's gesture is \(match.gesture.rawValue)")
            }
            for key in [CodingKeys.phase, .every] where c.contains(key) {
                problems.fail(at(key), "does not apply to a drag, which follows the whole swipe")
            }
            for key in [BindingKey.direction, .minimumDistanceMillimeters] where bindingKeys.contains(key) {
                problems.fail(bindingPath + [key], "does not apply to a drag, which follows the swipe every way from its start")
            }
        default: command = problems.attempt { try Self.command(c) }
        }
        if input != nil, c.contains(.timeoutSeconds) {
            problems.fail(at(.timeoutSeconds), "applies to commands only; \(given[0].stringValue) happens at once")
        }

        var phaseName = "end"
        if given.first != .drag, let text = problems.attempt({ try c.decodeText(forKey: .phase) }) {
            if Self.phases.contains(text) { phaseName = text } else { problems.fail(at(.phase), Self.phases.problem(text)) }
        }
        let gesture = match.gesture
        let single: Set<GestureEvent.Kind> = [.tap, .stroke, .sequence]
        if known, phaseName == "begin", single.contains(gesture) {
            problems.fail(at(.phase), "a \(gesture.rawValue) has no begin, it happens at once; use end")
        }
        if known, phaseName == "continuous", gesture != .swipe && gesture != .pinch {
            problems.fail(at(.phase), "continuous actions need a swipe or pinch binding, not \(gesture.rawValue)")
        }

        var every: Double?
        if given.first == .drag {
            // A drag has no phase of its own.
        } else if c.contains(.every) {
            if phaseName != "continuous" {
                problems.fail(at(.every), "only applies to a continuous action (phase: continuous)")
            } else if known {
                // The range depends on the gesture, so the message says the unit too.
                let (range, unit) = Self.everyRange(for: match)
                do { every = try c.decodeNumber(forKey: .every, in: range) } catch {
                    problems.fail(at(.every), "\(range.requirement) (\(unit))")
                }
            }
        } else if phaseName == "continuous" {
            problems.fail(at(.every), "is required for a continuous action (\(Self.everyRange(for: match).unit) between firings)")
        }
        if known, phaseName == "continuous" {
            if gesture == .pinch, match.pinchDirection == nil, !bindingKeys.contains(.direction) {
                problems.fail(
                    bindingPath + [BindingKey.direction],
                    "a continuous pinch binding needs a direction: in, out, clockwise or counterclockwise")
            }
            for key in [BindingKey.minimumDistanceMillimeters, .minimumScale, .maximumScale, .minimumAngleDegrees]
            where bindingKeys.contains(key) {
                problems.fail(bindingPath + [key], "does not apply to a continuous action; its step is action.every")
            }
        }
        let timeout = problems.attempt { try c.decodeSeconds(forKey: .timeoutSeconds) }
        try problems.finish()

        let phase: DaemonConfiguration.Phase
        switch phaseName {
        case "begin": phase = .begin
        case "continuous":
            guard let every else { throw InvalidValue(codingPath: at(.every), message: "is required for a continuous action") }
            phase = .continuous(every: every)
        default: phase = .end
        }
        if let input {
            self.init(input: input, phase: phase)
        } else {
            self.init(command: command ?? [], phase: phase, timeout: timeout)
        }
    }

    /// The range of `every` for the binding's gesture, and its unit.
    static func everyRange(for match: DaemonConfiguration.Match) -> (range: NumberRange, unit: String) {
        switch match.pinchDirection {
        case .in?, .out?: return (Limits.everyScaleRange, "scale steps")
        case .clockwise?, .counterclockwise?: return (Limits.everyDegreesRange, "degrees")
        case nil: return match.gesture == .pinch ? (Limits.everyScaleRange, "scale steps") : (Limits.everyMillimetersRange, "mm")
        }
    }

    /// A chord: kernel key names (`leftmeta`, `KEY_RIGHT`), each once.
    private static func chord(_ c: KeyedDecodingContainer<CodingKeys>) throws -> [DaemonConfiguration.Key] {
        let path = c.codingPath + [CodingKeys.keys]
        var list = try c.nestedUnkeyedContainer(forKey: .keys)
        let count = list.count ?? 0
        guard (1...maximumChordKeys).contains(count) else {
            throw InvalidValue(
                codingPath: path,
                message: count == 0 ? "must name at least one key" : "\(count) keys, over the limit of \(maximumChordKeys)")
        }
        var problems = DecodingProblems()
        var keys: [DaemonConfiguration.Key] = []
        while !list.isAtEnd {
            let index = list.currentIndex
            let itemPath = path + [AnyCodingKey(intValue: index)]
            guard let name = problems.attempt({ try list.decode(String.self) }) else {
                if list.currentIndex == index { break }
                continue
            }
            guard let key = DaemonConfiguration.Key(named: name) else {
                problems.fail(itemPath, KeyNames.problem(name))
                continue
            }
            if keys.contains(key) {
                problems.fail(itemPath, "names \(Excerpt.quoted(name)) twice; a chord presses each key once")
                continue
            }
            keys.append(key)
        }
        try problems.finish()
        return keys
    }

    /// A command: the program and its arguments (strings, or numbers as
    /// written), within the limits on words and bytes.
    private static func command(_ c: KeyedDecodingContainer<CodingKeys>) throws -> [String] {
        let path = c.codingPath + [CodingKeys.command]
        guard c.contains(.command) else {
            throw InvalidValue(codingPath: path, message: "is required: the program and its arguments, as a list")
        }
        var list = try c.nestedUnkeyedContainer(forKey: .command)
        let count = list.count ?? 0
        guard count > 0 else { throw InvalidValue(codingPath: path, message: "must name a program: the list is empty") }
        guard count <= Limits.maximumCommandArguments else {
            throw InvalidValue(codingPath: path, message: "\(count) words, over the limit of \(Limits.maximumCommandArguments)")
        }
        var problems = DecodingProblems()
        var words: [String] = []
        var total = 0
        while !list.isAtEnd {
            let index = list.currentIndex
            let itemPath = path + [AnyCodingKey(intValue: index)]
            guard let word = problems.attempt({ try list.decode(WrittenScalar.self).text }) else {
                if list.currentIndex == index { break }
                continue
            }
            if word.utf8.count > Limits.maximumArgumentBytes {
                problems.fail(itemPath, "is \(word.utf8.count) bytes, over the limit of \(Limits.maximumArgumentBytes)")
            } else if word.utf8.contains(0) {
                problems.fail(itemPath, "must not contain a NUL character")
            } else if index == 0, word.isEmpty {
                problems.fail(itemPath, "must name a program, not be empty")
            }
            total += word.utf8.count
            words.append(word)
        }
        if total > Limits.maximumCommandBytes {
            problems.fail(path, "is \(total) bytes in all, over the limit of \(Limits.maximumCommandBytes)")
        }
        try problems.finish()
        return words
    }
}
