import EvdevInput
import Foundation
import GestureRecognition
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

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

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
            fail("version", "unsupported version \(text); this program reads version \(DaemonConfiguration.version)")
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

    mutating func positive(_ node: DocumentNode, at path: String) -> Double? {
        guard let value = number(node, at: path) else { return nil }
        guard value > 0 else {
            fail(path, "must be positive")
            return nil
        }
        return value
    }

    mutating func integer(_ node: DocumentNode, at path: String, in range: ClosedRange<Int>) -> Int? {
        guard case .number(let value, _) = node, value == value.rounded(), let integer = Int(exactly: value) else {
            fail(path, "must be an integer, not \(Self.describe(node))")
            return nil
        }
        guard range.contains(integer) else {
            fail(path, "must be from \(range.lowerBound) to \(range.upperBound)")
            return nil
        }
        return integer
    }

    mutating func seconds(_ node: DocumentNode, at path: String) -> Duration? {
        guard let value = positive(node, at: path) else { return nil }
        let limit = Double(Limits.maximumTimeout.components.seconds)
        guard value <= limit else {
            fail(path, "must be at most \(Int(limit)) seconds")
            return nil
        }
        return .nanoseconds(Int64((value * 1e9).rounded()))
    }

    /// `a number` for numbers that are not integers, the kind otherwise.
    static func describe(_ node: DocumentNode) -> String {
        if case .number(_, let text) = node { return text }
        return node.kindDescription
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
        return integer(node, at: path, in: 0...0xffff)
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
            let path = "engine.\(member.key)"
            if member.key == "sequences" {
                fail(path, "goes at the top level: write \"sequences\" beside \"engine\"")
            } else if !Self.engineKeys.contains(member.key) {
                fail(path, "unknown key; expected one of \(Self.engineKeys.joined(separator: ", "))")
            } else if case .number(let value, _) = member.value, value < 0 {
                fail(path, "must not be negative")
            }
        }
        guard errors.count == before else { return nil }
        do {
            let data = try JSONSerialization.data(withJSONObject: Self.foundationObject(node))
            return try JSONDecoder().decode(GestureEngine.Configuration.self, from: data)
        } catch {
            fail(Self.decodingPath(error, under: "engine"), Self.decodingMessage(error))
            return nil
        }
    }

    mutating func sequences(_ node: DocumentNode) -> [SwipeSequenceMatcher.NamedSequence] {
        guard let items = list(node, at: "sequences") else { return [] }
        guard items.count <= Limits.maximumSequences else {
            fail("sequences", "\(items.count) sequences, over the limit of \(Limits.maximumSequences)")
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
                fail("\(path).directions", "\(directionNodes.count) directions, over the limit of \(Limits.maximumSequenceLength)")
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
            fail(path, "unknown direction '\(text)'; expected one of \(SwipeDirection.clockwise.map(\.rawValue).joined(separator: ", "))")
            return nil
        }
        return direction
    }

    mutating func templates(_ path: String) -> TemplateLibrary? {
        let expanded = (path as NSString).expandingTildeInPath
        let full = expanded.hasPrefix("/") ? expanded : (baseDirectory as NSString).appendingPathComponent(expanded)
        let limits = TemplateLibrary.Limits.standard
        guard let handle = FileHandle(forReadingAtPath: full) else {
            fail("templates", "cannot read the template library \(full)")
            return nil
        }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: limits.maximumBytes + 1) else {
            fail("templates", "cannot read the template library \(full)")
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
           let value = integer(node, at: "actions.maximumConcurrent", in: 1...Limits.maximumConcurrent) {
            settings.maximumConcurrent = value
        }
        if let node = node["queueLimit"], let value = integer(node, at: "actions.queueLimit", in: 0...Limits.maximumQueue) {
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
                fail("mouse.button", "unknown button '\(text)'; expected one of right, middle, left")
            }
        }
        if let node = node["minimumLengthCounts"], let value = number(node, at: "mouse.minimumLengthCounts") {
            if value >= 0 && value.isFinite { settings.minimumLengthCounts = value } else {
                fail("mouse.minimumLengthCounts", "must not be negative")
            }
        }
        if let node = node["orientation"], let text = string(node, at: "mouse.orientation") {
            if let orientation = DaemonConfiguration.MouseSettings.Orientation(rawValue: text) { settings.orientation = orientation } else {
                fail("mouse.orientation", "unknown orientation '\(text)'; expected sensitive or invariant")
            }
        }
        if let node = node["threshold"], let value = number(node, at: "mouse.threshold") {
            if (0...1).contains(value) { settings.threshold = value } else { fail("mouse.threshold", "must be from 0 to 1") }
        }
        if let node = node["pressAfterMilliseconds"], let value = number(node, at: "mouse.pressAfterMilliseconds") {
            if (0...Limits.maximumPressAfterMilliseconds).contains(value) {
                settings.pressAfter = .nanoseconds(Int64((value * 1_000_000).rounded()))
            } else {
                fail("mouse.pressAfterMilliseconds", "must be from 0 to \(Self.format(Limits.maximumPressAfterMilliseconds))")
            }
        }
        if let node = node["pointerMotion"], let text = string(node, at: "mouse.pointerMotion") {
            if let motion = DaemonConfiguration.MouseSettings.PointerMotion(rawValue: text) { settings.pointerMotion = motion } else {
                fail("mouse.pointerMotion", "unknown choice '\(text)'; expected pass or withhold")
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

    static func decodingPath(_ error: any Error, under root: String) -> String {
        let keys: [any CodingKey]
        switch error as? DecodingError {
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?:
            keys = context.codingPath
        case .keyNotFound(let key, let context)?:
            keys = context.codingPath + [key]
        default:
            keys = []
        }
        return keys.reduce(root) { path, key in
            key.intValue.map { "\(path)[\($0)]" } ?? "\(path).\(key.stringValue)"
        }
    }

    static func decodingMessage(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .typeMismatch(let type, _)?:
            let name = "\(type)"
            if name.contains("Double") || name.contains("Int") { return "must be a number" }
            if name.contains("Bool") { return "must be true or false" }
            if name.contains("String") { return "must be a string" }
            return "has the wrong type"
        case .valueNotFound?: return "must not be null"
        case .keyNotFound?: return "is required"
        case .dataCorrupted(let context)?:
            return context.debugDescription.isEmpty ? "has an invalid value" : "has an invalid value (\(context.debugDescription))"
        default: return "cannot be read"
        }
    }
}
