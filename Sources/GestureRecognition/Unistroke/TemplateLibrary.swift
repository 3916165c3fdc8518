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

    /// The samples of gesture `name`.
    public func samples(named name: String) -> [[Point]] {
        templates.filter { $0.name == name }.map(\.points)
    }

    /// Adds a sample of gesture `name`.
    ///
    /// - Throws: ``LibraryError/invalidName(_:)`` for an empty name, or
    ///   ``LibraryError/degenerateSample(name:reason:)`` for points that are
    ///   not a stroke.
    public mutating func add(name: String, points: [Point]) throws(LibraryError) {
        guard Self.isValidName(name) else { throw .invalidName(name) }
        if case .failure(let reason) = UnistrokePipeline.sanitized(points, maximumPoints: Limits.standard.maximumPointsPerTemplate) {
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

    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 200 && !name.contains(where: { $0.isNewline })
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
            case .invalidName(let name): "invalid gesture name \(Excerpt.quoted(name)): it must be 1 to 200 characters on one line"
            case .degenerateSample(let name, let reason): "sample of \(Excerpt.quoted(name)) is not a stroke: \(reason)"
            case .tooLarge(let bytes, let limit): "the library is \(bytes) bytes, over the limit of \(limit)"
            case .notALibrary(let why): "not a template library: \(why)"
            case .unsupportedVersion(let v): "unsupported template library version \(v) (this program reads version \(TemplateLibrary.formatVersion))"
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

    private struct Header: Decodable {
        var format: String?
        var version: Int?
    }

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

    /// Loads a library from JSON, checking the version first and then every limit.
    public init(jsonData data: Data, limits: Limits = .standard) throws(LibraryError) {
        guard data.count <= limits.maximumBytes else { throw .tooLarge(bytes: data.count, limit: limits.maximumBytes) }
        let header: Header
        do { header = try JSONText.decode(Header.self, from: data) } catch {
            throw .notALibrary(error.description)
        }
        guard header.format == Self.formatName else {
            throw .notALibrary("the \"format\" key is \(header.format.map { Excerpt.quoted($0) } ?? "missing"), expected \"\(Self.formatName)\"")
        }
        guard let version = header.version else { throw .notALibrary("the \"version\" key is missing") }
        guard version == Self.formatVersion else { throw .unsupportedVersion(found: version) }
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw .notALibrary(JSONText.describe(decodingError: error))
        }
        guard file.templates.count <= limits.maximumTemplates else {
            throw .tooManyTemplates(count: file.templates.count, limit: limits.maximumTemplates)
        }
        for (index, stored) in file.templates.enumerated() {
            guard stored.points.count <= limits.maximumPointsPerTemplate else {
                throw .tooManyPoints(template: index, count: stored.points.count, limit: limits.maximumPointsPerTemplate)
            }
            var points: [Point] = []
            points.reserveCapacity(stored.points.count)
            for (p, pair) in stored.points.enumerated() {
                guard pair.count == 2, pair[0].isFinite, pair[1].isFinite else {
                    throw .invalidTemplate(index: index, "points[\(p)] is not a pair of finite numbers")
                }
                points.append(Point(x: pair[0], y: pair[1]))
            }
            do { try add(name: stored.name, points: points) } catch {
                throw .invalidTemplate(index: index, error.description)
            }
        }
    }

    /// The library as JSON (`{"format": "gestures-templates", "version": 1, "templates": [...]}`).
    public func jsonData() -> Data {
        let file = File(format: Self.formatName, version: Self.formatVersion,
                        templates: templates.map { StoredTemplate(name: $0.name, points: $0.points.map { [$0.x, $0.y] }) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding plain strings and finite numbers cannot fail.
        return (try? encoder.encode(file)) ?? Data()
    }
}
