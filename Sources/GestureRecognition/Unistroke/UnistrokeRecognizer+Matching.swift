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

    static func make(_ raw: [Point], configuration: UnistrokeRecognizer.Configuration) -> Result<NormalizedStroke, UnistrokeRecognizer.Degeneracy> {
        let clean: [Point]
        switch UnistrokePipeline.sanitized(raw, maximumPoints: configuration.maximumPoints) {
        case .success(let points): clean = points
        case .failure(let reason): return .failure(reason)
        }
        var points = UnistrokePipeline.resampled(clean, count: configuration.resampleCount)
        if configuration.orientation == .invariant {
            points = UnistrokePipeline.rotated(points, by: -UnistrokePipeline.indicativeAngle(points))
        }
        var stroke = NormalizedStroke()
        switch configuration.matcher {
        case .protractor:
            let centred = UnistrokePipeline.translatedToOrigin(points)
            var norm = 0.0
            for p in centred { norm += p.x * p.x + p.y * p.y }
            norm = norm.squareRoot()
            guard norm > 0, norm.isFinite else { return .failure(.singlePoint) }
            stroke.vector.reserveCapacity(2 * centred.count)
            for p in centred { stroke.vector.append(p.x / norm); stroke.vector.append(p.y / norm) }
        case .dollar1, .elastic:
            let normalized = UnistrokePipeline.translatedToOrigin(UnistrokePipeline.scaled(points))
            stroke.points.reserveCapacity(2 * normalized.count)
            for p in normalized { stroke.points.append(p.x); stroke.points.append(p.y) }
            if configuration.matcher == .elastic {
                stroke.directions.reserveCapacity(2 * normalized.count)
                for i in 1..<normalized.count {
                    let dx = normalized[i].x - normalized[i - 1].x, dy = normalized[i].y - normalized[i - 1].y
                    let length = (dx * dx + dy * dy).squareRoot()
                    if length > 0 { stroke.directions.append(dx / length); stroke.directions.append(dy / length) }
                    else { stroke.directions.append(0); stroke.directions.append(0) }
                }
            }
        }
        return .success(stroke)
    }
}

/// Per-recognition state: the candidate and scratch space reused across templates.
struct MatchContext {
    let configuration: UnistrokeRecognizer.Configuration
    let candidate: NormalizedStroke
    private var previousRow: [Double] = []
    private var currentRow: [Double] = []

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

    /// The score in 0...1 of the candidate against `template`. `bound` is the
    /// best score so far: a matcher may stop early and return anything below it.
    mutating func score(against template: NormalizedStroke, bound: Double) -> Double {
        let score: Double
        switch configuration.matcher {
        case .dollar1: score = dollar1Score(template)
        case .protractor: score = protractorScore(template)
        case .elastic: score = elasticScore(template, bound: bound)
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

    // MARK: Elastic

    /// Dynamic time warping inside a Sakoe-Chiba band; the local cost is the
    /// point distance (relative to the half diagonal) plus the weighted
    /// difference of step directions.
    mutating func elasticScore(_ template: NormalizedStroke, bound: Double) -> Double {
        let n = min(template.points.count, candidate.points.count) / 2
        guard n >= 2 else { return 0 }
        let band = max(1, Int((Double(n) * Self.elasticBandFraction).rounded()))
        let directionWeight = Self.elasticDirectionWeight
        // Both terms are normalised so that a cost of 1 per point is "nothing alike".
        let scale = 1 / UnistrokePipeline.halfDiagonal / (1 + directionWeight)
        let weight = directionWeight / (1 + directionWeight)
        // Scores below `bound` are useless: stop once every cell exceeds it.
        let costBound = (1 - bound) * Double(n)
        if previousRow.count != n {
            previousRow = Array(repeating: .infinity, count: n)
            currentRow = Array(repeating: .infinity, count: n)
        }
        let infinity = Double.infinity
        var result = infinity
        candidate.points.withUnsafeBufferPointer { p in
        template.points.withUnsafeBufferPointer { t in
        candidate.directions.withUnsafeBufferPointer { pd in
        template.directions.withUnsafeBufferPointer { td in
        previousRow.withUnsafeMutableBufferPointer { prev in
        currentRow.withUnsafeMutableBufferPointer { cur in
            for j in 0..<n { prev[j] = infinity; cur[j] = infinity }
            var previous = prev, current = cur
            for i in 0..<n {
                let lo = max(0, i - band), hi = min(n - 1, i + band)
                if lo > 0 { current[lo - 1] = infinity }
                var rowMinimum = infinity
                let px = p[2 * i], py = p[2 * i + 1]
                let di = min(i, n - 2)
                let pdx = pd[2 * di], pdy = pd[2 * di + 1]
                for j in lo...hi {
                    let dx = px - t[2 * j], dy = py - t[2 * j + 1]
                    let dj = min(j, n - 2)
                    let turn = 1 - (pdx * td[2 * dj] + pdy * td[2 * dj + 1])
                    let cost = (dx * dx + dy * dy).squareRoot() * scale + weight * turn
                    var best: Double
                    if i == 0 && j == 0 { best = 0 }
                    else {
                        best = infinity
                        if i > 0 { best = min(best, previous[j]) ; if j > 0 { best = min(best, previous[j - 1]) } }
                        if j > 0 { best = min(best, current[j - 1]) }
                    }
                    let value = best + cost
                    current[j] = value
                    rowMinimum = min(rowMinimum, value)
                }
                if hi < n - 1 { current[hi + 1] = infinity }
                if rowMinimum > costBound { return }
                swap(&previous, &current)
            }
            result = previous[n - 1]
        }}}}}}
        guard result.isFinite else { return 0 }
        return 1 - result / Double(n)
    }
}
