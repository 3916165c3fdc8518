extension StrokeRule {
    /// A template that the margin rule makes useless: a stroke drawn just
    /// like it scores its own name less than ``StrokeRule/minimumMargin``
    /// ahead of another name, so it fires nothing, and it blurs that other
    /// name's strokes too. `gestures train` warns with it when a sample is added.
    public struct Ambiguity: Hashable, Sendable, CustomStringConvertible {
        /// The index of the template in the library's `templates`.
        public var template: Int
        /// Its name.
        public var name: String
        /// Its own name's score for a stroke drawn like it: the best of its
        /// other samples, or 1 when it is its name's only sample (it matches itself).
        public var ownScore: Double
        /// The best template with another name, and its score.
        public var other: UnistrokeRecognizer.Match
        /// The margin it fails.
        public var margin: Double

        /// How much nearer its own name is than the other
        /// (``StrokeRule/lead(of:over:)``; negative: farther).
        public var lead: Double { StrokeRule.lead(of: ownScore, over: other.score) }

        /// `L (template 19) is within the 0.05 margin of v (template 16): ...`
        public var description: String {
            let head =
                "\(name) (template \(template + 1)) is within the \(StrokeVerdict.decimal(margin, digits: 4)) margin of \(other.name) (template \(other.templateIndex + 1))"
            let figures =
                lead < 0
                ? "a stroke drawn like it scores \(other.name) \(StrokeVerdict.decimal(other.score, digits: 4)), ahead of \(name) \(StrokeVerdict.decimal(ownScore, digits: 4))"
                : "a stroke drawn like it scores \(name) \(StrokeVerdict.decimal(ownScore, digits: 4)) and \(other.name) \(StrokeVerdict.decimal(other.score, digits: 4)), only \(StrokeVerdict.decimal(lead, digits: 4)) nearer"
            return "\(head): \(figures), so such strokes fire neither \(name) nor \(other.name)"
        }
    }

    /// The templates among `indices` (of `library.templates`) that the margin
    /// rule makes ambiguous, each judged against every other template of
    /// `library` as the engine would judge a stroke drawn just like it,
    /// with a recognizer of `configuration`. Empty when the margin is off.
    ///
    /// - Complexity: one pass of the recognizer over the library per index.
    public func ambiguities(
        of indices: some Sequence<Int>, in library: TemplateLibrary,
        configuration: UnistrokeRecognizer.Configuration
    ) -> [Ambiguity] {
        guard minimumMargin > 0 else { return [] }
        // The recognizer's index of each library template (a degenerate one has none).
        var recognizer = UnistrokeRecognizer(configuration: configuration)
        var position: [Int: Int] = [:]
        for (index, template) in library.templates.enumerated() where recognizer.add(name: template.name, points: template.points) == nil {
            position[index] = recognizer.templates.count - 1
        }
        var libraryIndex: [Int: Int] = [:]
        for (index, recognized) in position { libraryIndex[recognized] = index }
        var found: [Ambiguity] = []
        for index in indices {
            guard library.templates.indices.contains(index), let own = position[index] else { continue }
            let template = library.templates[index]
            let scores = recognizer.scores(for: template.points).filter { $0.templateIndex != own }
            guard var other = scores.first(where: { $0.name != template.name }) else { continue }
            let ownScore = scores.first { $0.name == template.name }?.score ?? 1
            guard StrokeRule.lead(of: ownScore, over: other.score) < minimumMargin else { continue }
            other.templateIndex = libraryIndex[other.templateIndex] ?? other.templateIndex
            found.append(Ambiguity(template: index, name: template.name, ownScore: ownScore, other: other, margin: minimumMargin))
        }
        return found
    }
}
