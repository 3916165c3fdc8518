import Foundation

/// A stroke after the $1 pipeline, in the forms the matchers compare.
struct NormalizedStroke: Sendable {
    /// Resampled, rotated (orientation-invariant mode), scaled into the
    /// reference square and centred: x0, y0, x1, y1, ...
    var points: [Double] = []
    /// Protractor's form: resampled, rotated, centred, scaled to unit length.
    var vector: [Double] = []
    /// Unit direction of each step between resampled points (elastic matcher).
    var directions: [Double] = []

    static func make(_ raw: [Point], configuration: UnistrokeRecognizer.Configuration) -> Result<
        NormalizedStroke, UnistrokeRecognizer.Degeneracy
    > {
        let made = withNormalizedPoints(raw, configuration: configuration) { normalized -> NormalizedStroke? in
            var stroke = NormalizedStroke()
            switch configuration.matcher {
            case .protractor:
                var norm = 0.0
                for p in normalized { norm += p.x * p.x + p.y * p.y }
                norm = norm.squareRoot()
                guard norm > 0, norm.isFinite else { return nil }
                stroke.vector.reserveCapacity(2 * normalized.count)
                for p in normalized { stroke.vector.append(p.x / norm); stroke.vector.append(p.y / norm) }
            case .dollar1, .elastic:
                stroke.points.reserveCapacity(2 * normalized.count)
                for p in normalized { stroke.points.append(p.x); stroke.points.append(p.y) }
                if configuration.matcher == .elastic {
                    stroke.directions.reserveCapacity(2 * normalized.count)
                    for i in 1..<normalized.count {
                        let (dx, dy) = stepDirection(normalized, i)
                        stroke.directions.append(dx)
                        stroke.directions.append(dy)
                    }
                }
            }
            return stroke
        }
        switch made {
        case .success(let stroke?): return .success(stroke)
        case .success(nil): return .failure(.singlePoint)
        case .failure(let reason): return .failure(reason)
        }
    }

    /// Runs the pipeline on `raw` in scratch memory and calls `body` with the
    /// result: resampled, rotated to the indicative angle (orientation-
    /// invariant mode), then scaled into the reference square and centred
    /// ($1, elastic) or only centred (Protractor).
    static func withNormalizedPoints<R>(
        _ raw: [Point], configuration: UnistrokeRecognizer.Configuration,
        _ body: (UnsafeMutableBufferPointer<Point>) -> R
    ) -> Result<R, UnistrokeRecognizer.Degeneracy> {
        if raw.count > configuration.maximumPoints { return .failure(.tooManyPoints(raw.count, limit: configuration.maximumPoints)) }
        return withUnsafeTemporaryAllocation(of: Point.self, capacity: max(raw.count, 1)) { clean in
            let sanitized = raw.withUnsafeBufferPointer {
                UnistrokePipeline.sanitize($0, into: clean, maximumPoints: configuration.maximumPoints)
            }
            let count: Int
            switch sanitized {
            case .success(let n): count = n
            case .failure(let reason): return .failure(reason)
            }
            return withUnsafeTemporaryAllocation(of: Point.self, capacity: configuration.resampleCount) { points in
                UnistrokePipeline.resample(UnsafeBufferPointer(rebasing: clean[0..<count]), into: points)
                if configuration.orientation == .invariant {
                    UnistrokePipeline.rotate(points, by: -UnistrokePipeline.indicativeAngle(UnsafeBufferPointer(points)))
                }
                if configuration.matcher != .protractor { UnistrokePipeline.scale(points, to: UnistrokePipeline.squareSize) }
                UnistrokePipeline.translateToOrigin(points)
                return .success(body(points))
            }
        }
    }

    /// The unit direction of the step from point `i - 1` to point `i`, or
    /// (0, 0) for a step of no length.
    @inline(__always)
    static func stepDirection(_ points: UnsafeMutableBufferPointer<Point>, _ i: Int) -> (Double, Double) {
        let dx = points[i].x - points[i - 1].x, dy = points[i].y - points[i - 1].y
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return (0, 0) }
        // Both divisions in one instruction, each rounded as alone.
        let unit = SIMD2(dx, dy) / SIMD2(repeating: length)
        return (unit.x, unit.y)
    }
}

/// Per-recognition state of the $1 and Protractor matchers, and the
/// matchers' constants (the elastic matcher searches through ``ElasticIndex``).
struct MatchContext {
    let configuration: UnistrokeRecognizer.Configuration
    let candidate: NormalizedStroke

    /// The golden ratio's conjugate, as in the $1 paper.
    static let phi = 0.5 * (-1 + 5.0.squareRoot())
    /// The rotation range searched by $1, in degrees.
    static let dollarSearchDegrees = 45.0
    /// The precision at which the $1 search stops, in degrees.
    static let dollarPrecisionDegrees = 2.0
    /// The Sakoe-Chiba band of the elastic matcher, as a fraction of the points.
    static let elasticBandFraction = 0.1
    /// Weight of the step-direction term against the point-distance term in
    /// the elastic matcher's cost (tuned on the $1 logs: 2 to 8 are within
    /// 0.1 points of each other; 0 loses 2 points at one template).
    static let elasticDirectionWeight = 4.0

    init(configuration: UnistrokeRecognizer.Configuration, candidate: NormalizedStroke) {
        self.configuration = configuration
        self.candidate = candidate
    }

    var toleranceRadians: Double {
        switch configuration.orientation {
        case .invariant: return Self.dollarSearchDegrees * .pi / 180
        case .sensitive(let degrees): return max(0, min(degrees, 180)) * .pi / 180
        }
    }

    /// The score in 0...1 of the candidate against `template`.
    func score(against template: NormalizedStroke) -> Double {
        let score: Double
        switch configuration.matcher {
        case .dollar1: score = dollar1Score(template)
        case .protractor: score = protractorScore(template)
        case .elastic: preconditionFailure("the elastic matcher searches its templates through ElasticIndex")
        }
        return score.isFinite ? max(0, min(1, score)) : 0
    }

    // MARK: $1

    func dollar1Score(_ template: NormalizedStroke) -> Double {
        var a = -toleranceRadians, b = toleranceRadians
        let threshold = Self.dollarPrecisionDegrees * .pi / 180
        var x1 = Self.phi * a + (1 - Self.phi) * b
        var f1 = pathDistance(template.points, angle: x1)
        var x2 = (1 - Self.phi) * a + Self.phi * b
        var f2 = pathDistance(template.points, angle: x2)
        while abs(b - a) > threshold {
            if f1 < f2 {
                b = x2; x2 = x1; f2 = f1
                x1 = Self.phi * a + (1 - Self.phi) * b
                f1 = pathDistance(template.points, angle: x1)
            } else {
                a = x1; x1 = x2; f1 = f2
                x2 = (1 - Self.phi) * a + Self.phi * b
                f2 = pathDistance(template.points, angle: x2)
            }
        }
        return 1 - min(f1, f2) / UnistrokePipeline.halfDiagonal
    }

    /// The mean distance between the candidate rotated by `angle` about its
    /// centroid (the origin) and `template`.
    func pathDistance(_ template: [Double], angle: Double) -> Double {
        let c = cos(angle), s = sin(angle)
        let n = min(template.count, candidate.points.count)
        return candidate.points.withUnsafeBufferPointer { p in
            template.withUnsafeBufferPointer { t in
                var sum = 0.0
                var i = 0
                while i < n {
                    let x = p[i] * c - p[i + 1] * s, y = p[i] * s + p[i + 1] * c
                    let dx = x - t[i], dy = y - t[i + 1]
                    sum += (dx * dx + dy * dy).squareRoot()
                    i += 2
                }
                return sum / Double(n / 2)
            }
        }
    }

    // MARK: Protractor

    func protractorScore(_ template: NormalizedStroke) -> Double {
        let n = min(template.vector.count, candidate.vector.count)
        var a = 0.0, b = 0.0
        candidate.vector.withUnsafeBufferPointer { v in
            template.vector.withUnsafeBufferPointer { t in
                var i = 0
                while i < n {
                    a += t[i] * v[i] + t[i + 1] * v[i + 1]
                    b += t[i] * v[i + 1] - t[i + 1] * v[i]
                    i += 2
                }
            }
        }
        var angle = atan2(b, a)
        let limit = toleranceRadians
        if case .sensitive = configuration.orientation { angle = max(-limit, min(limit, angle)) }
        let similarity = max(-1, min(1, a * cos(angle) + b * sin(angle)))
        return 1 - acos(similarity) / (.pi / 2)
    }
}
