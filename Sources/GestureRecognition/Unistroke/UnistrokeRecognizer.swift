import Foundation
import InputChecks

/// Recognises single-stroke drawn shapes against trainable templates: the
/// $1 unistroke recognizer family.
///
/// Every matcher reports a score in `0...1`, where 1 means the candidate is
/// identical to a template after normalisation and 0 means nothing alike.
/// A best score below ``Configuration/rejectionThreshold`` is "no match".
/// Input that cannot be a stroke (no points, one point, NaN) is a value too,
/// ``Outcome/degenerate(_:)``: the recognizer never traps.
///
///     var recognizer = UnistrokeRecognizer(library: .dollarShapes)
///     recognizer.recognize(points)   // .match(Match(name: "circle", score: 0.93))
public struct UnistrokeRecognizer: Sendable {
    /// How a candidate is compared with a template.
    public enum Matcher: String, CaseIterable, Sendable, Codable {
        /// $1: the mean point-to-point distance at the best rotation, found by
        /// golden-section search over +-45 degrees down to 2 degrees.
        case dollar1 = "dollar1"
        /// Protractor: the angle between the two strokes as vectors, at the
        /// rotation found in closed form.
        case protractor = "protractor"
        /// Elastic: dynamic time warping of the normalised strokes inside a
        /// band, combined with the turning directions along the path.
        case elastic = "elastic"

        /// The points strokes are resampled to unless configured: 64 ($1's
        /// choice) for $1 and elastic, 16 for Protractor (its paper's choice,
        /// as accurate as 64 on the $1 logs and four times as fast).
        public var defaultResampleCount: Int {
            self == .protractor ? 16 : 64
        }
    }

    /// Whether the orientation of a stroke matters.
    public enum Orientation: Sendable, Hashable, Codable {
        /// Strokes match in any orientation (the $1 study's setting).
        case invariant
        /// Strokes match only when within `toleranceDegrees` of the template's
        /// orientation: on a touchpad or with a mouse, right-to-left is not
        /// left-to-right.
        case sensitive(toleranceDegrees: Double)

        /// Orientation-sensitive with a 30 degree tolerance.
        public static let sensitive = Orientation.sensitive(toleranceDegrees: 30)
    }

    /// Options of a recognizer; templates are prepared with them.
    public struct Configuration: Sendable, Hashable, Codable {
        public var matcher: Matcher
        public var orientation: Orientation
        /// Best scores below this (in 0...1) are reported as no match.
        public var rejectionThreshold: Double
        /// Points a stroke is resampled to (8...1024; by default the matcher's
        /// ``Matcher/defaultResampleCount``).
        public var resampleCount: Int
        /// Strokes with more raw points than this are degenerate, not recognised.
        public var maximumPoints: Int

        public init(
            matcher: Matcher = .elastic, orientation: Orientation = .invariant,
            rejectionThreshold: Double = 0.75, resampleCount: Int? = nil,
            maximumPoints: Int = 100_000
        ) {
            self.matcher = matcher
            self.orientation = orientation
            self.rejectionThreshold = rejectionThreshold
            self.resampleCount = max(8, min(resampleCount ?? matcher.defaultResampleCount, 1024))
            self.maximumPoints = max(2, maximumPoints)
        }

        /// The resample counts a configuration may set: 8 to 1,024 points.
        public static let resampleCountRange = NumberRange.integers(8...1024)
        /// The rejection thresholds a configuration may set: 0 to 1.
        public static let rejectionThresholdRange = NumberRange(0...1)
        /// The point limits a configuration may set: 2 to 1,000,000 points.
        public static let maximumPointsRange = NumberRange.integers(2...1_000_000)
        /// The orientation tolerances a configuration may set: 0 to 180 degrees.
        public static let toleranceRange = NumberRange(0...180)

        private enum CodingKeys: String, CodingKey { case matcher, orientation, rejectionThreshold, resampleCount, maximumPoints }

        /// Reads a configuration; missing keys keep the defaults (the
        /// resample count the matcher's), and every value is checked against
        /// the ranges above, so no file can make the recognizer trap or
        /// allocate without bound.
        public init(from decoder: any Decoder) throws {
            let c: KeyedDecodingContainer<CodingKeys>
            do { c = try decoder.container(keyedBy: CodingKeys.self) } catch {
                throw InvalidValue(codingPath: decoder.codingPath, message: "must be an object")
            }
            let matcher = try c.decodeIfPresent(Matcher.self, forKey: .matcher) ?? .elastic
            self.init(
                matcher: matcher,
                orientation: try c.decodeIfPresent(Orientation.self, forKey: .orientation) ?? .invariant,
                rejectionThreshold: try c.decodeNumber(forKey: .rejectionThreshold, in: Self.rejectionThresholdRange) ?? 0.75,
                resampleCount: try c.decodeInteger(forKey: .resampleCount, in: Self.resampleCountRange),
                maximumPoints: try c.decodeInteger(forKey: .maximumPoints, in: Self.maximumPointsRange) ?? 100_000)
        }
    }

    /// Why a stroke could not be recognised.
    public enum Degeneracy: Error, Hashable, Sendable, CustomStringConvertible {
        case empty
        /// One point, or all points equal: a stroke needs a length.
        case singlePoint
        case nonFiniteCoordinate
        /// A coordinate beyond ±``UnistrokePipeline/maximumCoordinate``, where
        /// the arithmetic of normalisation would overflow.
        case coordinateOutOfRange
        case tooManyPoints(Int, limit: Int)

        public var description: String {
            switch self {
            case .empty: "the stroke has no points"
            case .singlePoint: "the stroke has no length (one point, or all points equal)"
            case .nonFiniteCoordinate: "the stroke has a NaN or infinite coordinate"
            case .coordinateOutOfRange: "the stroke has a coordinate beyond ±1e150, the limit"
            case .tooManyPoints(let n, let limit): "the stroke has \(n) points, over the limit of \(limit)"
            }
        }
    }

    /// The best template for a candidate.
    public struct Match: Hashable, Sendable {
        /// The template's gesture name.
        public var name: String
        /// The similarity in 0...1 (1 = identical after normalisation).
        public var score: Double
        /// The index of the matched sample in ``templates``.
        public var templateIndex: Int
    }

    /// The result of recognising one stroke.
    public enum Outcome: Hashable, Sendable {
        case match(Match)
        /// The best template scored below the rejection threshold, or there
        /// are no templates.
        case noMatch(best: Match?)
        case degenerate(Degeneracy)

        /// The match, if the stroke was recognised.
        public var match: Match? {
            if case .match(let m) = self { return m }
            return nil
        }
    }

    /// A template as the recognizer holds it: its name and normalised forms.
    public struct Template: Sendable {
        public let name: String
        /// Its width across its main axis as a fraction of its length
        /// along it, as drawn (``StrokeRule/Shape/widthRatio``).
        public let widthRatio: Double
        let shape: NormalizedStroke
    }

    public let configuration: Configuration
    public private(set) var templates: [Template] = []
    /// The elastic matcher's prepared templates (nil for the other matchers).
    // Its stored properties are part of this public struct's size, and the
    // Swift 6.3 driver's incremental build does not recompile other modules
    // when only internal stored properties change: a stale client then
    // copies a GesturePipeline with the old size and crashes. After changing
    // ElasticIndex's (or any type's) stored properties, build from clean
    // (`rm -rf .build`); see "Conventions" in the README.
    private(set) var elasticIndex: ElasticIndex?

    /// A recognizer without templates.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        if configuration.matcher == .elastic { elasticIndex = ElasticIndex(count: configuration.resampleCount) }
    }

    /// A recognizer holding every sample of `library`. Samples that are
    /// degenerate are skipped (``TemplateLibrary`` does not accept them).
    public init(library: TemplateLibrary, configuration: Configuration = Configuration()) {
        self.init(configuration: configuration)
        for template in library.templates {
            _ = add(name: template.name, points: template.points)
        }
    }

    /// Adds a template; returns why the points cannot be one, if so.
    @discardableResult
    public mutating func add(name: String, points: [Point]) -> Degeneracy? {
        switch NormalizedStroke.make(points, configuration: configuration) {
        case .success(let shape):
            templates.append(Template(name: name, widthRatio: StrokeRule.shape(of: points).widthRatio, shape: shape))
            elasticIndex?.add(shape, name: name)
            return nil
        case .failure(let reason):
            return reason
        }
    }

    /// Recognises `points` against every template.
    ///
    /// - Complexity: O(*t* x *n*) for *t* templates of *n* resampled points
    ///   (the elastic matcher: O(*t* x *n*) lower bounds, at most *t* of them
    ///   per group of templates, then O(*n* x band) for each template that
    ///   the bounds cannot rule out; see `ElasticIndex`).
    public func recognize(_ points: [Point]) -> Outcome {
        if let elasticIndex {
            switch ElasticIndex.withQuery(points, configuration: configuration, { elasticIndex.best(for: $0) }) {
            case .failure(let reason): return .degenerate(reason)
            case .success(nil): return .noMatch(best: nil)
            case .success(let found?):
                let best = Match(name: templates[found.index].name, score: found.score, templateIndex: found.index)
                return best.score >= configuration.rejectionThreshold ? .match(best) : .noMatch(best: best)
            }
        }
        let candidate: NormalizedStroke
        switch NormalizedStroke.make(points, configuration: configuration) {
        case .success(let shape): candidate = shape
        case .failure(let reason): return .degenerate(reason)
        }
        guard let best = bestMatch(for: candidate) else { return .noMatch(best: nil) }
        return best.score >= configuration.rejectionThreshold ? .match(best) : .noMatch(best: best)
    }

    /// The best template with another name than `name` for `points`, nil
    /// when there is none (or the input is degenerate): the runner-up that
    /// the margin of ``StrokeRule`` compares with, as ``scores(for:)`` would
    /// give it first among the other names, found without scoring every template.
    ///
    /// - Complexity: as ``recognize(_:)``, over the templates of the other names.
    public func bestMatch(for points: [Point], notNamed name: String) -> Match? {
        if let elasticIndex {
            guard
                case .success(let found?) = ElasticIndex.withQuery(
                    points, configuration: configuration, { elasticIndex.best(for: $0, excluding: name) })
            else { return nil }
            // All scores 0: the search reports the first template, which may be of `name`.
            if templates[found.index].name != name {
                return Match(name: templates[found.index].name, score: found.score, templateIndex: found.index)
            }
        }
        return scores(for: points).first { $0.name != name }
    }

    /// Every template's score for `points`, best first; empty for degenerate input.
    public func scores(for points: [Point]) -> [Match] {
        if let elasticIndex {
            guard case .success(let scores) = ElasticIndex.withQuery(points, configuration: configuration, { elasticIndex.scores(for: $0) })
            else { return [] }
            return scores.enumerated()
                .map { Match(name: templates[$0.offset].name, score: $0.element, templateIndex: $0.offset) }
                .sorted { $0.score > $1.score }
        }
        guard case .success(let candidate) = NormalizedStroke.make(points, configuration: configuration) else { return [] }
        var matches: [Match] = []
        let context = MatchContext(configuration: configuration, candidate: candidate)
        for (index, template) in templates.enumerated() {
            let score = context.score(against: template.shape)
            matches.append(Match(name: template.name, score: score, templateIndex: index))
        }
        return matches.sorted { $0.score > $1.score }
    }

    /// The first template with the highest score.
    func bestMatch(for candidate: NormalizedStroke) -> Match? {
        var best: Match?
        let context = MatchContext(configuration: configuration, candidate: candidate)
        for (index, template) in templates.enumerated() {
            let score = context.score(against: template.shape)
            if best == nil || score > best!.score {
                best = Match(name: template.name, score: score, templateIndex: index)
            }
        }
        return best
    }
}

extension UnistrokeRecognizer.Matcher: ClosedWord {
    /// The matchers' names: a file's `matcher` is read as one of these.
    public static let closedWords = ClosedWords("matcher", Self.self)
}

extension UnistrokeRecognizer.Orientation {
    private enum CodingKeys: String, CodingKey { case invariant, sensitive }
    private enum ToleranceKeys: String, CodingKey { case toleranceDegrees }

    private static let requirement = #"must be {"invariant": {}} or {"sensitive": {"toleranceDegrees": 0 to 180}}"#

    /// Reads `{"invariant": {}}` or `{"sensitive": {"toleranceDegrees": 30}}`
    /// (the tolerance 0 to 180 degrees, 30 when left out).
    public init(from decoder: any Decoder) throws {
        guard let c = try? decoder.container(keyedBy: CodingKeys.self), c.allKeys.count == 1 else {
            throw InvalidValue(codingPath: decoder.codingPath, message: Self.requirement)
        }
        if c.contains(.invariant) {
            self = .invariant
            return
        }
        guard let tolerance = try? c.nestedContainer(keyedBy: ToleranceKeys.self, forKey: .sensitive) else {
            throw InvalidValue(codingPath: decoder.codingPath, message: Self.requirement)
        }
        let degrees = try tolerance.decodeNumber(forKey: .toleranceDegrees, in: UnistrokeRecognizer.Configuration.toleranceRange)
        self = .sensitive(toleranceDegrees: degrees ?? 30)
    }
}
