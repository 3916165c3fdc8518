/// The normalised forms the matchers compare, for pictures and explanations.
extension UnistrokeRecognizer {
    /// `points` as this recognizer's matcher compares them: resampled, rotated
    /// to the indicative angle (orientation-invariant mode), then scaled into
    /// the reference square and centred ($1, elastic) or centred and scaled
    /// to unit length (Protractor). The reason when `points` are not a stroke.
    ///
    ///     UnistrokeRecognizer().normalized(circle)   // .success([64 points centred on (0, 0)])
    ///
    /// - Complexity: O(*n* + resample count).
    public func normalized(_ points: [Point]) -> Result<[Point], Degeneracy> {
        NormalizedStroke.make(points, configuration: configuration).map(\.comparedPoints)
    }
}

extension UnistrokeRecognizer.Template {
    /// The sample as the recognizer's matcher compares it (see
    /// ``UnistrokeRecognizer/normalized(_:)``).
    public var normalizedPoints: [Point] { shape.comparedPoints }
}

extension NormalizedStroke {
    /// The form the configured matcher compares, as points.
    var comparedPoints: [Point] {
        let flat = points.isEmpty ? vector : points
        return stride(from: 0, to: flat.count - 1, by: 2).map { Point(x: flat[$0], y: flat[$0 + 1]) }
    }
}
