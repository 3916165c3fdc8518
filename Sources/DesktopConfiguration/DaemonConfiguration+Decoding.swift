import Foundation
import GestureRecognition
import GestureTraces
import InputChecks
import StructuredDocuments
import Validation

private typealias Limits = DaemonConfiguration.Limits

// The one way a configuration is read: its document (JSON or YAML, a
// `DocumentNode`) is decoded through `Decodable`, every section alike, the
// engine's through GestureEngine.Configuration's own conformance. Each
// section reads on past a bad value (`DecodingProblems`), so one pass reports
// every error with its path; closed words (keys, gestures, directions,
// buttons, key names) are `ClosedWords`, with one suggestion for a typing
// mistake.

extension DaemonConfiguration {
    /// The top-level keys, in the order messages list them.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, devices, engine, sequences, templates, actions, mouse, bindings, intercept
    }

    /// The keys a configuration may hold at its top level.
    public static let keys = ClosedWords.keys(CodingKeys.self)

    /// The keys of the `engine` section (those of `GestureEngine.Configuration`,
    /// but `sequences`, which goes at the top level).
    public static let engineKeys = ClosedWords(
        "key", GestureEngine.Configuration.keys.filter { $0 != "sequences" },
        expectation: "the engine's keys are listed in Docs/GestureEngine.md")

    /// Reads a configuration from `decoder`: the version first (the rest is
    /// read by its rules), then every section, then what bindings name
    /// (templates, sequences); relative template paths are taken from `baseDirectory`.
    ///
    /// - Throws: ``InputChecks/InvalidValues`` with every problem, in the
    ///   order of the sections.
    init(from decoder: any Decoder, baseDirectory: String) throws(InvalidValues) {
        self.init()
        let c: KeyedDecodingContainer<CodingKeys>
        do { c = try decoder.object(keyedBy: CodingKeys.self) } catch { throw InvalidValues([JSONText.invalidValue(error)]) }
        func only(_ message: String) -> InvalidValues {
            InvalidValues([InvalidValue(path: CodingKeys.version.stringValue, message: message)])
        }
        guard c.contains(.version) else { throw only("is required (write \"version\": \(Self.version) first)") }
        let version: Int
        do { version = try c.decode(Int.self, forKey: .version) } catch { throw InvalidValues([JSONText.invalidValue(error)]) }
        guard version == Self.version else {
            throw only("unsupported version \(version); this program reads version \(Self.version)")
        }

        var problems = DecodingProblems(unknownKeysOf: decoder, keyedBy: CodingKeys.self)
        /// The list at `key` (none when absent or unreadable: its problems are recorded).
        func list<T: Decodable>(_ type: T.Type, _ key: CodingKeys, of noun: String, limit: Int) -> [T] {
            do {
                return try c.decodeList(
                    type, forKey: key, of: noun, limit: limit, tooMany: { "\($0) \(noun), over the limit of \(limit)" },
                    problems: &problems) ?? []
            } catch {
                problems.record(error)
                return []
            }
        }
        devices = list(DeviceMatcher.self, .devices, of: "device matchers", limit: Limits.maximumDevices)
        if let flag = problems.attempt({ try c.decodeFlag(forKey: .intercept) }) { intercept = flag }
        do { sequences = try SwipeSequenceMatcher.NamedSequence.decodeList(from: c, forKey: .sequences, problems: &problems) ?? [] } catch {
            problems.record(error)
        }
        for problem in SwipeSequenceMatcher.problems(in: sequences) {
            var text = problem.description
            if text.hasSuffix(".") { text.removeLast() }
            problems.fail([CodingKeys.sequences], text)
        }
        if c.contains(.engine), let read = problems.attempt({ try Self.engine(try c.superDecoder(forKey: .engine)) }) { engine = read }
        engine.sequences = sequences
        var templatesKnown = true
        if let path = problems.attempt({ try c.decodeText(forKey: .templates) }) {
            templatesPath = path
            if let library = problems.attempt({ try Self.templates(path, baseDirectory: baseDirectory) }) {
                templates = library
            } else {
                templatesKnown = false
            }
        }
        if let settings = problems.attempt({ try c.decodeIfPresent(ActionSettings.self, forKey: .actions) }) { actions = settings }
        mouse = problems.attempt { try c.decodeIfPresent(MouseSettings.self, forKey: .mouse) }
        bindings = list(Binding.self, .bindings, of: "bindings", limit: Limits.maximumBindings)
        problems.record(referenceProblems(templateNames: templatesKnown ? Set(templates.names) : nil))
        try problems.finish()
    }

    /// The bindings' templates and sequences that the configuration does
    /// not define, each at its binding's key; `templateNames` nil when the
    /// library could not be read (its error is reported once, at `templates`).
    func referenceProblems(templateNames: Set<String>?) -> [InvalidValue] {
        let sequenceNames = Set(sequences.map(\.name))
        var problems: [InvalidValue] = []
        for binding in bindings {
            if let template = binding.match.template, let names = templateNames, !names.contains(template) {
                problems.append(
                    InvalidValue(
                        path: binding.path + ".template",
                        message: "no template named \(Excerpt.quoted(template)) in the library (it has: \(Self.names(names.sorted())))"
                            + Suggestion.hint(for: template, in: names.sorted())))
            }
            if let sequence = binding.match.sequence, !sequenceNames.contains(sequence) {
                let known = sequenceNames.isEmpty ? "none are defined" : "defined: \(Self.names(sequenceNames.sorted()))"
                problems.append(
                    InvalidValue(
                        path: binding.path + ".sequence",
                        message: "no sequence named \(Excerpt.quoted(sequence)) in sequences (\(known))"
                            + Suggestion.hint(for: sequence, in: sequenceNames.sorted())))
            }
        }
        return problems
    }

    /// At most five names, each shortened: `a, b, c, d, e and 7 more`.
    static func names(_ names: [String]) -> String {
        let shown = names.prefix(5).map { Excerpt.quoted($0, limit: 20) }.joined(separator: ", ")
        return names.count > 5 ? "\(shown) and \(names.count - 5) more" : shown
    }

    /// The `engine` section: its keys checked (every unknown one reported),
    /// then read by the engine's own `Decodable` conformance, which checks
    /// every value against `GestureEngine.Configuration.numberRanges`.
    static func engine(_ decoder: any Decoder) throws -> GestureEngine.Configuration {
        _ = try decoder.object(keyedBy: AnyCodingKey.self)
        var problems = DecodingProblems()
        for key in decoder.documentKeys where !engineKeys.contains(key) {
            problems.fail(
                decoder.codingPath + [AnyCodingKey(key)],
                key == "sequences"
                    ? "goes at the top level: write \"sequences\" beside \"engine\"" : engineKeys.problem(key, quoting: false))
        }
        try problems.finish()
        return try GestureEngine.Configuration(from: decoder)
    }

    /// Where `templates: path` is: `~` made the home folder (`$HOME`, as a
    /// shell makes it), a relative path inside `baseDirectory` (the
    /// configuration's folder). The one place the daemon, check-config and
    /// the page find the library.
    public static func templatesLocation(_ path: String, baseDirectory: String) -> String {
        PathName.joined(baseDirectory, PathName.expandingTilde(path))
    }

    /// The template library at `path` (see ``templatesLocation(_:baseDirectory:)``).
    static func templates(_ path: String, baseDirectory: String) throws -> TemplateLibrary {
        let full = templatesLocation(path, baseDirectory: baseDirectory)
        let limits = TemplateLibrary.Limits.standard
        let here = CodingKeys.templates.stringValue
        let data: Data
        do { data = try InputFile.read(full, maximumBytes: limits.maximumBytes) } catch {
            throw InvalidValue(path: here, message: "cannot read the template library \(error.description)")
        }
        do { return try TemplateLibrary(jsonData: data, limits: limits) } catch {
            throw InvalidValue(path: here, message: "\(full): \(error.description)")
        }
    }
}

extension KeyedDecodingContainer {
    /// A duration in seconds at `key`, in ``DaemonConfiguration/Limits/timeoutSecondsRange``.
    func decodeSeconds(forKey key: Key) throws -> Duration? {
        // In range, so the nanoseconds fit in Int64.
        try decodeNumber(forKey: key, in: DaemonConfiguration.Limits.timeoutSecondsRange)
            .map { .nanoseconds(Int64(($0 * 1e9).rounded())) }
    }
}

extension DaemonConfiguration.DeviceMatcher: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, vendor, product }

    /// Reads a matcher: at least one of its keys, the name a pattern that
    /// compiles and is at most ``DaemonConfiguration/Limits/maximumPatternLength``
    /// long, the ids 16-bit (an integer or a string such as `"0x06cb"`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.object(keyedBy: CodingKeys.self)
        var problems = DecodingProblems(unknownKeysOf: decoder, keyedBy: CodingKeys.self)
        if decoder.documentKeys.isEmpty { problems.fail(decoder.codingPath, "must give at least one of name, vendor, product") }
        self.init()
        if let pattern = problems.attempt({ try c.decodeText(forKey: .name) }) {
            if pattern.utf16.count > Limits.maximumPatternLength {
                problems.fail(
                    c.codingPath + [CodingKeys.name],
                    "the pattern is \(pattern.utf16.count) characters, over the limit of \(Limits.maximumPatternLength)")
            } else {
                do throws(PatternMatcher.InvalidPattern) {
                    _ = try PatternMatcher(pattern)
                    namePattern = pattern
                } catch {
                    problems.fail(c.codingPath + [CodingKeys.name], error.description)
                }
            }
        }
        vendor = problems.attempt { try Self.deviceID(c, .vendor) }
        product = problems.attempt { try Self.deviceID(c, .product) }
        try problems.finish()
    }

    /// A 16-bit id: an integer, or a hexadecimal string such as `"0x06cb"`.
    private static func deviceID(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Int? {
        guard let text = try? c.decodeIfPresent(String.self, forKey: key) else {
            return try c.decodeInteger(forKey: key, in: DaemonConfiguration.Limits.deviceIDRange)
        }
        let lower = text.lowercased()
        guard lower.hasPrefix("0x"), let value = Int(lower.dropFirst(2), radix: 16), (0...0xffff).contains(value) else {
            throw InvalidValue(
                codingPath: c.codingPath + [key],
                message: "must be an integer from 0 to 65535 or a hexadecimal string from \"0x0000\" to \"0xffff\"")
        }
        return value
    }
}

extension DaemonConfiguration.ActionSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case maximumConcurrent, queueLimit, timeoutSeconds }

    /// Reads the `actions` section; absent keys keep the defaults.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.object(keyedBy: CodingKeys.self)
        var problems = DecodingProblems(unknownKeysOf: decoder, keyedBy: CodingKeys.self)
        if let value = problems.attempt({ try c.decodeInteger(forKey: .maximumConcurrent, in: Limits.concurrentRange) }) {
            maximumConcurrent = value
        }
        if let value = problems.attempt({ try c.decodeInteger(forKey: .queueLimit, in: Limits.queueRange) }) { queueLimit = value }
        if let value = problems.attempt({ try c.decodeSeconds(forKey: .timeoutSeconds) }) { timeout = value }
        try problems.finish()
    }
}

// The mouse section's choices, as a configuration writes them.
extension DaemonConfiguration.MouseSettings.Button: ClosedWord { public static let closedWords = ClosedWords("button", Self.self) }
extension DaemonConfiguration.MouseSettings.Orientation: ClosedWord {
    public static let closedWords = ClosedWords("orientation", Self.self)
}
extension DaemonConfiguration.MouseSettings.PointerMotion: ClosedWord { public static let closedWords = ClosedWords("choice", Self.self) }

extension DaemonConfiguration.MouseSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case button, minimumLengthCounts, orientation, threshold, pressAfterMilliseconds, pointerMotion, minimumSizeCounts
    }

    /// Reads the `mouse` section; absent keys keep the defaults.
    public init(from decoder: any Decoder) throws {
        self.init()
        let c = try decoder.object(keyedBy: CodingKeys.self)
        var problems = DecodingProblems(unknownKeysOf: decoder, keyedBy: CodingKeys.self)
        if let value = problems.attempt({ try c.decodeIfPresent(Button.self, forKey: .button) }) { button = value }
        if let value = problems.attempt({ try c.decodeNumber(forKey: .minimumLengthCounts, in: Limits.minimumLengthCountsRange) }) {
            minimumLengthCounts = value
        }
        if let value = problems.attempt({ try c.decodeNumber(forKey: .minimumSizeCounts, in: Limits.minimumSizeCountsRange) }) {
            minimumSizeCounts = value
        }
        if let value = problems.attempt({ try c.decodeIfPresent(Orientation.self, forKey: .orientation) }) { orientation = value }
        if let value = problems.attempt({ try c.decodeNumber(forKey: .threshold, in: Limits.thresholdRange) }) { threshold = value }
        if let value = problems.attempt({ try c.decodeNumber(forKey: .pressAfterMilliseconds, in: Limits.pressAfterMillisecondsRange) }) {
            pressAfter = .nanoseconds(Int64((value * 1_000_000).rounded()))
        }
        if let value = problems.attempt({ try c.decodeIfPresent(PointerMotion.self, forKey: .pointerMotion) }) { pointerMotion = value }
        try problems.finish()
    }
}
