import Foundation
import InputChecks

/// Named stroke samples to train a ``UnistrokeRecognizer``: several samples
/// per gesture name, saved and loaded as versioned JSON.
///
///     var library = TemplateLibrary()
///     try library.add(name: "circle", points: drawn)
///     let data = try library.jsonData()
///     let again = try TemplateLibrary(jsonData: data)
public struct TemplateLibrary: Hashable, Sendable {
    /// One sample of a gesture.
    public struct Template: Hashable, Sendable, Codable {
        public var name: String
        public var points: [Point]

        public init(name: String, points: [Point]) {
            self.name = name
            self.points = points
        }
    }

    /// Every sample, in the order they were added.
    public private(set) var templates: [Template] = []

    /// An empty library.
    public init() {}

    /// A library of `templates`; degenerate samples are rejected.
    public init(templates: [Template]) throws {
        for template in templates { try add(name: template.name, points: template.points) }
    }

    /// The gesture names, each once, in order of first appearance.
    public var names: [String] {
        var seen = Set<String>()
        return templates.compactMap { seen.insert($0.name).inserted ? $0.name : nil }
    }

    /// How big it is, in the words every command and the page use:
    /// `17 gestures, 40 samples` (a template is one sample of a gesture).
    public var summary: String {
        let gestures = names.count, samples = templates.count
        return "\(gestures) gesture\(gestures == 1 ? "" : "s"), \(samples) sample\(samples == 1 ? "" : "s")"
    }

    /// The samples of gesture `name`.
    public func samples(named name: String) -> [[Point]] {
        templates.filter { $0.name == name }.map(\.points)
    }

    /// Adds a sample of gesture `name`, within `limits` (the ones every
    /// reader of a library file applies, so that what is added can be read back).
    ///
    /// - Throws: ``LibraryError/invalidName(_:)`` for an empty name, one with
    ///   control characters or too long; ``LibraryError/degenerateSample(name:reason:)``
    ///   for points that are not a stroke; ``LibraryError/tooManyTemplates(count:limit:)``
    ///   when the library is full.
    public mutating func add(name: String, points: [Point], limits: Limits = .standard) throws(LibraryError) {
        guard Self.isValidName(name) else { throw .invalidName(name) }
        guard templates.count < limits.maximumTemplates else {
            throw .tooManyTemplates(count: templates.count + 1, limit: limits.maximumTemplates)
        }
        if case .failure(let reason) = UnistrokePipeline.sanitized(points, maximumPoints: limits.maximumPointsPerTemplate) {
            throw .degenerateSample(name: name, reason: reason)
        }
        templates.append(Template(name: name, points: points))
    }

    /// Removes every sample of gesture `name`; returns how many were removed.
    @discardableResult
    public mutating func remove(name: String) -> Int {
        let before = templates.count
        templates.removeAll { $0.name == name }
        return before - templates.count
    }

    /// Removes the sample at `index` of ``templates``.
    public mutating func remove(at index: Int) {
        templates.remove(at: index)
    }

    /// Renames gesture `old` to `new`; returns how many samples were renamed.
    @discardableResult
    public mutating func rename(_ old: String, to new: String) throws(LibraryError) -> Int {
        guard Self.isValidName(new) else { throw .invalidName(new) }
        var count = 0
        for i in templates.indices where templates[i].name == old {
            templates[i].name = new
            count += 1
        }
        return count
    }

    /// The most characters a gesture name has.
    public static let maximumNameLength = 200

    /// Whether `name` can name a gesture: 1 to 200 characters, none of them
    /// a control character, line or paragraph separator or bidirectional
    /// control (whatever `Excerpt` would escape), so that a name printed to a
    /// terminal is only ever text.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= maximumNameLength && Excerpt.isPrintable(name)
    }
}

extension TemplateLibrary {
    /// Limits applied when a library is loaded from untrusted JSON.
    public struct Limits: Hashable, Sendable {
        public var maximumBytes: Int
        public var maximumTemplates: Int
        public var maximumPointsPerTemplate: Int

        public init(maximumBytes: Int = 16 << 20, maximumTemplates: Int = 10_000, maximumPointsPerTemplate: Int = 10_000) {
            self.maximumBytes = maximumBytes
            self.maximumTemplates = maximumTemplates
            self.maximumPointsPerTemplate = maximumPointsPerTemplate
        }

        /// 16 MiB, 10,000 templates, 10,000 points per template.
        public static let standard = Limits()
    }

    /// Why a library could not be built or loaded.
    public enum LibraryError: Error, Hashable, Sendable, CustomStringConvertible {
        case invalidName(String)
        case degenerateSample(name: String, reason: UnistrokeRecognizer.Degeneracy)
        case tooLarge(bytes: Int, limit: Int)
        case notALibrary(String)
        case unsupportedVersion(found: Int)
        case tooManyTemplates(count: Int, limit: Int)
        case tooManyPoints(template: Int, count: Int, limit: Int)
        case invalidTemplate(index: Int, String)

        public var description: String {
            switch self {
            case .invalidName(let name):
                "invalid gesture name \(Excerpt.quoted(name)): it must be 1 to \(TemplateLibrary.maximumNameLength) characters of text, without control characters"
            case .degenerateSample(let name, let reason): "sample of \(Excerpt.quoted(name)) is not a stroke: \(reason)"
            case .tooLarge(let bytes, let limit): "the library is \(bytes) bytes, over the limit of \(limit)"
            case .notALibrary(let why): "not a template library: \(why)"
            case .unsupportedVersion(let v):
                "unsupported template library version \(v) (this program reads version \(TemplateLibrary.formatVersion))"
            case .tooManyTemplates(let count, let limit): "the library has \(count) templates, over the limit of \(limit)"
            case .tooManyPoints(let index, let count, let limit): "templates[\(index)] has \(count) points, over the limit of \(limit)"
            case .invalidTemplate(let index, let why): "templates[\(index)]: \(why)"
            }
        }
    }

    /// The value of the `format` key of a library file.
    public static let formatName = "gestures-templates"
    /// The version this code writes and reads.
    public static let formatVersion = 1

    private struct File: Codable {
        var format: String
        var version: Int
        var templates: [StoredTemplate]
    }

    private struct StoredTemplate: Codable {
        var name: String
        /// `[[x, y], ...]`
        var points: [[Double]]
    }

    /// Loads a library from JSON, checking the version first and every limit
    /// while it reads: a template's points are counted as they are read, so
    /// the memory it takes stays proportional to what it accepts (16 bytes a
    /// point, 45 MB for the most points 16 MiB can hold).
    public init(jsonData data: Data, limits: Limits = .standard) throws(LibraryError) {
        guard data.count <= limits.maximumBytes else { throw .tooLarge(bytes: data.count, limit: limits.maximumBytes) }
        // A limit passed while reading: said as itself, not as a JSON error.
        var failure: LibraryError?
        func fail(_ error: LibraryError) -> JSONText.ReadError {
            failure = error
            return .value(InvalidValue(path: "", message: error.description))
        }
        var library = TemplateLibrary()
        do {
            try JSONText.read(data) { cursor throws(JSONText.ReadError) in
                // First the header, wherever its keys are (the templates are skipped).
                var header = cursor
                var format: String?, version: Double?
                try header.readObject(at: "the top level") { cursor, key throws(JSONText.ReadError) in
                    switch key {
                    case "format": format = try cursor.readString(at: "format", maximumBytes: 1_000)
                    case "version": version = try cursor.readNumber(at: "version")
                    default: cursor.skipValue()
                    }
                }
                guard format == Self.formatName else {
                    throw fail(
                        .notALibrary(
                            "the \"format\" key is \(format.map { Excerpt.quoted($0) } ?? "missing"), expected \"\(Self.formatName)\""))
                }
                guard let version else { throw fail(.notALibrary("the \"version\" key is missing")) }
                guard version == Double(Self.formatVersion) else {
                    throw fail(.unsupportedVersion(found: version.isFinite && abs(version) < 1e15 ? Int(version) : 0))
                }
                var sawTemplates = false
                try cursor.readObject(at: "the top level") { cursor, key throws(JSONText.ReadError) in
                    guard key == "templates" else { return cursor.skipValue() }
                    sawTemplates = true
                    try cursor.readList(at: "templates") { cursor, index throws(JSONText.ReadError) in
                        guard index < limits.maximumTemplates else {
                            // Count the rest without keeping them, for the message.
                            var count = index + 1
                            cursor.skipValue()
                            while cursor.skipSeparatorAndValue() { count += 1 }
                            throw fail(.tooManyTemplates(count: count, limit: limits.maximumTemplates))
                        }
                        try library.readTemplate(&cursor, index: index, limits: limits, fail: fail)
                    }
                }
                guard sawTemplates else { throw fail(.notALibrary("templates: is required")) }
            }
        } catch {
            throw failure ?? .notALibrary(error.description)
        }
        self = library
    }

    /// Reads `{"name": ..., "points": [[x, y], ...]}` at `cursor` and adds it.
    private mutating func readTemplate(
        _ cursor: inout JSONCursor, index: Int, limits: Limits, fail: (LibraryError) -> JSONText.ReadError
    ) throws(JSONText.ReadError) {
        var name: String?
        var points: [Point]?
        try cursor.readObject(at: "templates[\(index)]") { cursor, key throws(JSONText.ReadError) in
            switch key {
            case "name":
                // Four bytes a character at most, six for an escape.
                name = try cursor.readString(at: "templates[\(index)].name", maximumBytes: 6 * Self.maximumNameLength)
            case "points":
                do throws(PointListError) {
                    points = try cursor.readPoints(at: "templates[\(index)].points", maximumCount: limits.maximumPointsPerTemplate)
                } catch {
                    switch error {
                    case .tooMany(let count):
                        throw fail(.tooManyPoints(template: index, count: count, limit: limits.maximumPointsPerTemplate))
                    case .notAPair(let point):
                        throw fail(.invalidTemplate(index: index, "points[\(point)] is not a pair of finite numbers"))
                    case .read(let error):
                        throw error
                    }
                }
            default: cursor.skipValue()
            }
        }
        guard let name else { throw fail(.invalidTemplate(index: index, "name: is required")) }
        guard let points else { throw fail(.invalidTemplate(index: index, "points: is required")) }
        do { try add(name: name, points: points, limits: limits) } catch {
            throw fail(.invalidTemplate(index: index, error.description))
        }
    }

    /// The library as JSON (`{"format": "gestures-templates", "version": 1, "templates": [...]}`).
    public func jsonData() -> Data {
        let file = File(
            format: Self.formatName, version: Self.formatVersion,
            templates: templates.map { StoredTemplate(name: $0.name, points: $0.points.map { [$0.x, $0.y] }) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain strings and finite numbers cannot fail.
        return (try? encoder.encode(file)) ?? Data()
    }
}
