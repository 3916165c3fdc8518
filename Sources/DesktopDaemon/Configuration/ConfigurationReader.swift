import EvdevInput
import Foundation
import GestureRecognition
import GestureTraces
import InputChecks
import StructuredDocuments
import Validation

/// Checks a parsed configuration document key by key, collecting every error
/// with the path of the bad key.
struct ConfigurationReader {
    /// The directory relative template paths are resolved from.
    var baseDirectory: String
    /// Every error so far, in document order.
    private(set) var errors: [ConfigurationError] = []

    init(baseDirectory: String) {
        self.baseDirectory = baseDirectory
    }

    typealias Limits = DaemonConfiguration.Limits

    static let topKeys = ["version", "devices", "engine", "sequences", "templates", "actions", "mouse", "bindings", "intercept"]
    static let bindingKeys = [
        "name", "gesture", "fingers", "direction", "edge", "template", "sequence", "device",
        "minimumDistanceMillimeters", "minimumScale", "maximumScale", "minimumAngleDegrees", "claim", "action",
    ]
    /// The gestures each condition applies to.
    static let applicable: [String: Set<GestureEvent.Kind>] = [
        "direction": [.swipe, .pinch], "edge": [.swipe], "template": [.stroke], "sequence": [.sequence],
        "minimumDistanceMillimeters": [.swipe],
        "minimumScale": [.pinch], "maximumScale": [.pinch], "minimumAngleDegrees": [.pinch],
        "claim": [.swipe, .pinch, .hold, .tap, .stroke],
    ]
    static let actionKeys = ["command", "phase", "every", "timeoutSeconds", "keys", "button", "drag"]
    /// What an action does: one of these.
    static let actionKinds = ["command", "keys", "button", "drag"]
    static let actionSettingsKeys = ["maximumConcurrent", "queueLimit", "timeoutSeconds"]
    static let deviceKeys = ["name", "vendor", "product"]
    static let mouseKeys = ["button", "minimumLengthCounts", "orientation", "threshold", "pressAfterMilliseconds", "pointerMotion"]

    mutating func fail(_ path: String, _ message: String) {
        errors.append(ConfigurationError(path, message))
    }

    /// `path.key`, the key (from the document) shortened and escaped.
    static func join(_ path: String, _ key: String) -> String {
        let name = Excerpt.escaped(key)
        return path.isEmpty ? name : "\(path).\(name)"
    }

    /// The candidate within three edits of `key` (ignoring case), if one is.
    static func closest(to key: String, in candidates: [String]) -> String? {
        guard key.count <= 64 else { return nil }
        let typed = Array(key.lowercased())
        func distance(_ other: [Character]) -> Int {
            var previous = Array(0...other.count)
            for (i, a) in typed.enumerated() {
                var current = [i + 1]
                for (j, b) in other.enumerated() {
                    current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a == b ? 0 : 1)))
                }
                previous = current
            }
            return previous[other.count]
        }
        let scored = candidates.map { ($0, distance(Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 3 else { return nil }
        return best.0
    }

    /// At most five names, each shortened: `a, b, c, d, e and 7 more`.
    static func names(_ names: [String]) -> String {
        let shown = names.prefix(5).map { Excerpt.quoted($0, limit: 20) }.joined(separator: ", ")
        return names.count > 5 ? "\(shown) and \(names.count - 5) more" : shown
    }

    // MARK: The document

    mutating func configuration(_ root: DocumentNode) -> DaemonConfiguration? {
        guard case .object(let members) = root else {
            fail("", "the document must be an object (a mapping), not \(root.kindDescription)")
            return nil
        }
        // The version first: the rest is read by its rules.
        guard let versionNode = root["version"] else {
            fail("version", "is required (write \"version\": \(DaemonConfiguration.version) first)")
            return nil
        }
        guard case .number(let version, let text) = versionNode, version == version.rounded() else {
            fail("version", "must be an integer, not \(versionNode.kindDescription)")
            return nil
        }
        guard Int(exactly: version) == DaemonConfiguration.version else {
            fail("version", "unsupported version \(Excerpt.escaped(text)); this program reads version \(DaemonConfiguration.version)")
            return nil
        }
        unknownKeys(members, allowed: Self.topKeys, at: "")

        var configuration = DaemonConfiguration()
        if let node = root["devices"], let items = list(node, at: "devices") {
            if items.count > Limits.maximumDevices {
                fail("devices", "\(items.count) device matchers, over the limit of \(Limits.maximumDevices)")
            } else {
                configuration.devices = items.enumerated().compactMap { device($0.element, at: "devices[\($0.offset)]") }
            }
        }
        if let node = root["intercept"], let flag = boolean(node, at: "intercept") { configuration.intercept = flag }
        if let node = root["sequences"] { configuration.sequences = sequences(node) }
        if let node = root["engine"], let engine = engine(node) { configuration.engine = engine }
        configuration.engine.sequences = configuration.sequences
        var templatesKnown = true
        if let node = root["templates"] {
            if let path = string(node, at: "templates") {
                configuration.templatesPath = path
                if let library = templates(path) { configuration.templates = library } else { templatesKnown = false }
            }
        }
        if let node = root["actions"], let settings = actionSettings(node) { configuration.actions = settings }
        if let node = root["mouse"], let settings = mouseSettings(node) { configuration.mouse = settings }
        if let node = root["bindings"], let items = list(node, at: "bindings") {
            if items.count > Limits.maximumBindings {
                fail("bindings", "\(items.count) bindings, over the limit of \(Limits.maximumBindings)")
            } else {
                let context = BindingContext(
                    templateNames: templatesKnown ? Set(configuration.templates.names) : nil,
                    sequenceNames: Set(configuration.sequences.map(\.name)))
                configuration.bindings = items.enumerated().compactMap {
                    binding($0.element, at: "bindings[\($0.offset)]", context: context)
                }
            }
        }
        return configuration
    }

    // MARK: Typed reads

    mutating func unknownKeys(_ members: [DocumentNode.Member], allowed: [String], at path: String) {
        for member in members where !allowed.contains(member.key) {
            fail(Self.join(path, member.key), "unknown key; expected one of \(allowed.joined(separator: ", "))")
        }
    }

    mutating func object(_ node: DocumentNode, at path: String) -> [DocumentNode.Member]? {
        guard case .object(let members) = node else {
            fail(path, "must be an object, not \(node.kindDescription)")
            return nil
        }
        return members
    }

    mutating func list(_ node: DocumentNode, at path: String) -> [DocumentNode]? {
        guard case .array(let items) = node else {
            fail(path, "must be a list, not \(node.kindDescription)")
            return nil
        }
        return items
    }

    mutating func string(_ node: DocumentNode, at path: String) -> String? {
        guard case .string(let text) = node else {
            fail(path, "must be a string, not \(node.kindDescription)")
            return nil
        }
        return text
    }

    mutating func boolean(_ node: DocumentNode, at path: String) -> Bool? {
        guard case .bool(let flag) = node else {
            fail(path, "must be true or false, not \(node.kindDescription)")
            return nil
        }
        return flag
    }

    mutating func number(_ node: DocumentNode, at path: String) -> Double? {
        guard case .number(let value, _) = node else {
            fail(path, "must be a number, not \(node.kindDescription)")
            return nil
        }
        return value
    }

    /// A number in `range`; anything else fails with the range's requirement
    /// (the same words the engine's decoder uses).
    mutating func number(_ node: DocumentNode, at path: String, in range: NumberRange) -> Double? {
        guard case .number(let value, _) = node, range.contains(value) else {
            fail(path, range.requirement)
            return nil
        }
        return value
    }

    /// A whole number in `range`, as ``number(_:at:in:)``.
    mutating func integer(_ node: DocumentNode, at path: String, in range: NumberRange) -> Int? {
        guard case .number(let value, _) = node, let integer = range.integer(value) else {
            fail(path, range.requirement)
            return nil
        }
        return integer
    }

    /// A timeout in seconds, in ``DaemonConfiguration/Limits/timeoutSecondsRange``.
    mutating func seconds(_ node: DocumentNode, at path: String) -> Duration? {
        guard let value = number(node, at: path, in: Limits.timeoutSecondsRange) else { return nil }
        // In range, so the nanoseconds fit in Int64.
        return .nanoseconds(Int64((value * 1e9).rounded()))
    }

    // MARK: Devices

    mutating func device(_ node: DocumentNode, at path: String) -> DaemonConfiguration.DeviceMatcher? {
        guard let members = object(node, at: path) else { return nil }
        unknownKeys(members, allowed: Self.deviceKeys, at: path)
        guard !members.isEmpty else {
            fail(path, "must give at least one of name, vendor, product")
            return nil
        }
        var matcher = DaemonConfiguration.DeviceMatcher()
        var valid = true
        if let node = node["name"] {
            if let pattern = string(node, at: "\(path).name") {
                if pattern.utf16.count > Limits.maximumPatternLength {
                    fail("\(path).name", "the pattern is \(pattern.utf16.count) characters, over the limit of \(Limits.maximumPatternLength)")
                    valid = false
                } else {
                    do throws(PatternMatcher.InvalidPattern) {
                        _ = try PatternMatcher(pattern)
                        matcher.namePattern = pattern
                    } catch {
                        fail("\(path).name", error.description)
                        valid = false
                    }
                }
            } else { valid = false }
        }
        for key in ["vendor", "product"] {
            guard let node = node[key] else { continue }
            guard let id = deviceID(node, at: "\(path).\(key)") else { valid = false; continue }
            if key == "vendor" { matcher.vendor = id } else { matcher.product = id }
        }
        return valid ? matcher : nil
    }

    /// A 16-bit id: an integer, or a hexadecimal string such as `"0x06cb"`.
    mutating func deviceID(_ node: DocumentNode, at path: String) -> Int? {
        if case .string(let text) = node {
            let lower = text.lowercased()
            guard lower.hasPrefix("0x"), let value = Int(lower.dropFirst(2), radix: 16), (0...0xffff).contains(value) else {
                fail(path, "must be an integer from 0 to 65535 or a hexadecimal string from \"0x0000\" to \"0xffff\"")
                return nil
            }
            return value
        }
        return integer(node, at: path, in: Limits.deviceIDRange)
    }

    // MARK: Engine, sequences, templates, action settings

    /// The keys `GestureEngine.Configuration` reads, taken from what it writes.
    static let engineKeys: [String] = {
        guard let data = try? JSONEncoder().encode(GestureEngine.Configuration()),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [] }
        return object.keys.filter { $0 != "sequences" }.sorted()
    }()

    mutating func engine(_ node: DocumentNode) -> GestureEngine.Configuration? {
        guard let members = object(node, at: "engine") else { return nil }
        let before = errors.count
        for member in members {
            let path = Self.join("engine", member.key)
            if member.key == "sequences" {
                fail(path, "goes at the top level: write \"sequences\" beside \"engine\"")
            } else if !Self.engineKeys.contains(member.key) {
                // The engine has too many keys to list in one line.
                let suggestion = Self.closest(to: member.key, in: Self.engineKeys).map { "did you mean \($0)? " } ?? ""
                fail(path, "unknown key; \(suggestion)the engine's keys are listed in Docs/GestureEngine.md")
            }
        }
        guard errors.count == before else { return nil }
        // The engine's own decoder checks every value against its ranges
        // (GestureEngine.Configuration.numberRanges); `replay`, `watch` and
        // `train` read their engine through here too.
        do {
            let data = try JSONSerialization.data(withJSONObject: Self.foundationObject(node))
            return try JSONDecoder().decode(GestureEngine.Configuration.self, from: data)
        } catch {
            let invalid = JSONText.invalidValue(error)
            fail(invalid.path(under: "engine"), invalid.message)
            return nil
        }
    }

    mutating func sequences(_ node: DocumentNode) -> [SwipeSequenceMatcher.NamedSequence] {
        guard let items = list(node, at: "sequences") else { return [] }
        guard items.count <= Limits.maximumSequences else {
            fail("sequences", SwipeSequenceMatcher.countProblem(count: items.count))
            return []
        }
        var result: [SwipeSequenceMatcher.NamedSequence] = []
        for (index, item) in items.enumerated() {
            let path = "sequences[\(index)]"
            guard let members = object(item, at: path) else { continue }
            unknownKeys(members, allowed: ["name", "directions"], at: path)
            guard let nameNode = item["name"] else { fail("\(path).name", "is required"); continue }
            guard let name = string(nameNode, at: "\(path).name") else { continue }
            guard let directionsNode = item["directions"] else { fail("\(path).directions", "is required"); continue }
            guard let directionNodes = list(directionsNode, at: "\(path).directions") else { continue }
            guard directionNodes.count <= Limits.maximumSequenceLength else {
                fail("\(path).directions", SwipeSequenceMatcher.lengthProblem(count: directionNodes.count))
                continue
            }
            var directions: [SwipeDirection] = []
            for (d, directionNode) in directionNodes.enumerated() {
                if let direction = swipeDirection(directionNode, at: "\(path).directions[\(d)]") { directions.append(direction) }
            }
            guard directions.count == directionNodes.count else { continue }
            result.append(.init(name: name, directions: directions))
        }
        for problem in SwipeSequenceMatcher.problems(in: result) {
            var text = problem.description
            if text.hasSuffix(".") { text.removeLast() }
            fail("sequences", text)
        }
        return result
    }

    mutating func swipeDirection(_ node: DocumentNode, at path: String) -> SwipeDirection? {
        guard let text = string(node, at: path) else { return nil }
        guard let direction = SwipeDirection(rawValue: text) else {
            fail(path, "unknown direction \(Excerpt.quoted(text)); expected one of \(SwipeDirection.clockwise.map(\.rawValue).joined(separator: ", "))")
            return nil
        }
        return direction
    }

    mutating func templates(_ path: String) -> TemplateLibrary? {
        let expanded = (path as NSString).expandingTildeInPath
        let full = expanded.hasPrefix("/") ? expanded : (baseDirectory as NSString).appendingPathComponent(expanded)
        let limits = TemplateLibrary.Limits.standard
        let data: Data
        do { data = try InputFile.read(full, maximumBytes: limits.maximumBytes) } catch {
            fail("templates", "cannot read the template library \(error.description)")
            return nil
        }
        do { return try TemplateLibrary(jsonData: data, limits: limits) } catch {
            fail("templates", "\(full): \(error.description)")
            return nil
        }
    }

    mutating func actionSettings(_ node: DocumentNode) -> DaemonConfiguration.ActionSettings? {
        guard let members = object(node, at: "actions") else { return nil }
        unknownKeys(members, allowed: Self.actionSettingsKeys, at: "actions")
        var settings = DaemonConfiguration.ActionSettings()
        if let node = node["maximumConcurrent"],
           let value = integer(node, at: "actions.maximumConcurrent", in: Limits.concurrentRange) {
            settings.maximumConcurrent = value
        }
        if let node = node["queueLimit"], let value = integer(node, at: "actions.queueLimit", in: Limits.queueRange) {
            settings.queueLimit = value
        }
        if let node = node["timeoutSeconds"], let value = seconds(node, at: "actions.timeoutSeconds") {
            settings.timeout = value
        }
        return settings
    }

    mutating func mouseSettings(_ node: DocumentNode) -> DaemonConfiguration.MouseSettings? {
        guard let members = object(node, at: "mouse") else { return nil }
        unknownKeys(members, allowed: Self.mouseKeys, at: "mouse")
        var settings = DaemonConfiguration.MouseSettings()
        if let node = node["button"], let text = string(node, at: "mouse.button") {
            if let button = DaemonConfiguration.MouseSettings.Button(rawValue: text) { settings.button = button } else {
                fail("mouse.button", "unknown button \(Excerpt.quoted(text)); expected one of right, middle, left")
            }
        }
        if let node = node["minimumLengthCounts"],
           let value = number(node, at: "mouse.minimumLengthCounts", in: Limits.minimumLengthCountsRange) {
            settings.minimumLengthCounts = value
        }
        if let node = node["orientation"], let text = string(node, at: "mouse.orientation") {
            if let orientation = DaemonConfiguration.MouseSettings.Orientation(rawValue: text) { settings.orientation = orientation } else {
                fail("mouse.orientation", "unknown orientation \(Excerpt.quoted(text)); expected sensitive or invariant")
            }
        }
        if let node = node["threshold"], let value = number(node, at: "mouse.threshold", in: Limits.thresholdRange) {
            settings.threshold = value
        }
        if let node = node["pressAfterMilliseconds"],
           let value = number(node, at: "mouse.pressAfterMilliseconds", in: Limits.pressAfterMillisecondsRange) {
            settings.pressAfter = .nanoseconds(Int64((value * 1_000_000).rounded()))
        }
        if let node = node["pointerMotion"], let text = string(node, at: "mouse.pointerMotion") {
            if let motion = DaemonConfiguration.MouseSettings.PointerMotion(rawValue: text) { settings.pointerMotion = motion } else {
                fail("mouse.pointerMotion", "unknown choice \(Excerpt.quoted(text)); expected pass or withhold")
            }
        }
        return settings
    }

    // MARK: JSON bridging for the engine's Codable configuration

    static func foundationObject(_ node: DocumentNode) -> Any {
        switch node {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .number(let value, _): return value
        case .string(let text): return text
        case .array(let items): return items.map(foundationObject)
        case .object(let members):
            var result: [String: Any] = [:]
            for member in members { result[member.key] = foundationObject(member.value) }
            return result
        }
    }
}
