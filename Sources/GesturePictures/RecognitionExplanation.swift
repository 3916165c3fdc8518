import GestureRecognition

/// A picture of why a stroke was recognised as it was: the stroke as drawn,
/// the stroke normalised as the matcher compares it, and over it the best and
/// the second-best templates (the best of another name), with their scores
/// against the rejection threshold and the next few names' scores.
///
///     let explanation = RecognitionExplanation(stroke: points, library: .dollarShapes)
///     explanation.outcome   // .match(circle, 0.98)
///     explanation.svg
public struct RecognitionExplanation: SVGPicture {
    /// The stroke as drawn, in its own coordinates (y grows downwards).
    public var stroke: [Point]
    /// The recognizer that judges it: its templates and configuration.
    public var recognizer: UnistrokeRecognizer
    /// The rule the daemon judges strokes by, when the picture should say
    /// whether the daemon would fire it (a match it would not fire says why).
    public var rule: StrokeRule?
    /// The heading.
    public var title: String

    /// An explanation of `recognizer`'s verdict on `stroke` and, with a
    /// `rule`, of whether the daemon would fire it.
    public init(stroke: [Point], recognizer: UnistrokeRecognizer, rule: StrokeRule? = nil, title: String = "Recognition") {
        self.stroke = stroke
        self.recognizer = recognizer
        self.rule = rule
        self.title = title
    }

    /// An explanation of the verdict of a recognizer holding `library` with `configuration`.
    public init(
        stroke: [Point], library: TemplateLibrary, configuration: UnistrokeRecognizer.Configuration = .init(),
        title: String = "Recognition"
    ) {
        self.init(stroke: stroke, recognizer: UnistrokeRecognizer(library: library, configuration: configuration), title: title)
    }

    /// The recognizer's verdict, as `recognize` gives it.
    public var outcome: UnistrokeRecognizer.Outcome { recognizer.recognize(stroke) }

    /// The daemon's verdict by ``rule``, if there is one.
    public var strokeVerdict: StrokeVerdict? { rule?.judge(stroke, with: recognizer) }

    /// The best template and the best of another name (or, when every
    /// template has the same name, the second sample), best first.
    public var contenders: [UnistrokeRecognizer.Match] {
        let scores = recognizer.scores(for: stroke)
        guard let best = scores.first else { return [] }
        let second = scores.dropFirst().first { $0.name != best.name } ?? scores.dropFirst().first
        return [best] + (second.map { [$0] } ?? [])
    }

    static let margin = 20.0
    static let panel = 210.0
    static let gap = 16.0

    /// The picture as SVG text.
    public var svg: String {
        let configuration = recognizer.configuration
        let threshold = configuration.rejectionThreshold
        let contenders = self.contenders
        let width = Self.margin * 2 + 4 * Self.panel + 3 * Self.gap
        var content: [SVGElement] = [
            SVG.heading(title, at: Point(x: Self.margin, y: Self.margin + 16))
        ]
        let verdict = self.verdict(threshold: threshold)
        content.append(
            SVG.text(
                verdict.text, at: Point(x: Self.margin, y: Self.margin + 40), size: 14,
                ["class": "verdict", "font-weight": "bold", "fill": verdict.colour]))
        content.append(
            SVG.text(
                "\(recognizer.templates.count) templates; strokes normalised \(configuration.normalisationSummary)",
                at: Point(x: Self.margin, y: Self.margin + 58), size: 11, ["fill": Palette.muted]))
        let top = Self.margin + 92
        func origin(_ column: Int) -> Point { Point(x: Self.margin + Double(column) * (Self.panel + Self.gap), y: top) }

        content.append(
            panel(
                at: origin(0), heading: "as drawn (\(stroke.count) points)", layers: [(stroke, Palette.ink, 2, "drawn-path")],
                title: "The stroke as drawn, \(stroke.count) points, in its own coordinates"))
        let candidate = try? recognizer.normalized(stroke).get()
        if let candidate {
            content.append(
                panel(
                    at: origin(1), heading: "normalised (\(candidate.count) points)",
                    layers: [(candidate, Palette.ink, 2, "candidate-path")],
                    title: "The stroke as the \(configuration.matcher.rawValue) matcher compares it, \(candidate.count) points"))
        } else {
            content.append(
                panel(at: origin(1), heading: "normalised", layers: [], title: "The stroke cannot be normalised: \(verdict.text)"))
        }
        let colours = [Palette.contact(0), Palette.contact(1)]
        let headings = ["best", "second best"]
        for (rank, match) in contenders.enumerated() {
            let template = recognizer.templates[match.templateIndex].normalizedPoints
            let passes = match.score >= threshold
            content.append(
                panel(
                    at: origin(2 + rank),
                    heading: "\(headings[rank]): \(match.name) \(SVG.decimal(match.score, digits: 3))",
                    layers: (candidate.map { [($0, Palette.candidate, 1.5, "candidate-path")] } ?? []) + [
                        (template, colours[rank], 2.2, "compared-path")
                    ],
                    title:
                        "The \(headings[rank]) template, \(match.name) (template \(match.templateIndex + 1)), scores \(SVG.decimal(match.score, digits: 3)), "
                        + "\(passes ? "at or above" : "below") the threshold \(SVG.decimal(threshold, digits: 2)); the stroke in grey beneath it",
                    headingColour: colours[rank]))
        }
        if contenders.isEmpty {
            content.append(
                SVG.text(
                    "no templates to compare with", at: Point(x: origin(2).x, y: top + Self.panel / 2), size: 12, ["fill": Palette.muted]))
        }

        var y = top + Self.panel + 56
        let bar = scoreBar(at: Point(x: Self.margin, y: y), width: width - 2 * Self.margin, threshold: threshold, contenders: contenders)
        content.append(bar.element)
        y = bar.bottom + 18
        let ranking = self.ranking(at: y, width: width - 2 * Self.margin, threshold: threshold)
        content.append(ranking.element)
        y = ranking.bottom

        let description =
            "\(verdict.text). "
            + contenders.enumerated().map { rank, match in
                "\(headings[rank]) template \(match.name) scores \(SVG.decimal(match.score, digits: 3))"
            }.joined(separator: "; ") + "; the threshold is \(SVG.decimal(threshold, digits: 2))."
        return SVG.document(width: width, height: y + Self.margin, title: title, description: description, content: content)
    }

    func verdict(threshold: Double) -> (text: String, colour: String) {
        switch outcome {
        case .match(let match):
            let text =
                "Recognised as \(match.name): score \(SVG.decimal(match.score, digits: 3)) ≥ threshold \(SVG.decimal(threshold, digits: 2))"
            if let rejection = strokeVerdict?.rejection {
                return (text + ", but the daemon would not fire it: \(rejection)", Palette.alarm)
            }
            return (text, Palette.start)
        case .noMatch(let best?):
            return (
                "No match: the best, \(best.name), scores \(SVG.decimal(best.score, digits: 3)) < threshold \(SVG.decimal(threshold, digits: 2))",
                Palette.alarm
            )
        case .noMatch(nil):
            return ("No match: the recognizer has no templates", Palette.alarm)
        case .degenerate(let reason):
            return ("Not a stroke: \(reason)", Palette.alarm)
        }
    }

    /// A square panel with `heading` above it and `layers` drawn in it to one
    /// scale (path, colour, line width, class); the last layer's direction is marked.
    func panel(
        at origin: Point, heading: String, layers: [([Point], String, Double, String)], title: String,
        headingColour: String = Palette.ink
    ) -> SVGElement {
        var children = [
            SVG.text(heading, at: Point(x: origin.x, y: origin.y - 6), size: 12, ["font-weight": "bold", "fill": headingColour]),
            SVG.rect(
                x: origin.x, y: origin.y, width: Self.panel, height: Self.panel,
                ["fill": "#ffffff", "stroke": Palette.grid, "stroke-width": "1", "rx": "4"]),
        ]
        let fit = StrokeFit(layers.map(\.0), origin: origin, size: Self.panel, padding: 18)
        for (index, layer) in layers.enumerated() {
            children += StrokeDrawing.elements(
                layer.0, fit: fit, colour: layer.1, width: layer.2,
                marksDirection: index == layers.count - 1, extra: ["class": layer.3])
        }
        return SVG.group(["class": "panel"], children).titled(title)
    }

    /// The 0...1 score scale with the threshold and the two contenders on it:
    /// values above the bar, the contenders' marks and names below it.
    func scoreBar(at origin: Point, width: Double, threshold: Double, contenders: [UnistrokeRecognizer.Match]) -> (
        element: SVGElement, bottom: Double
    ) {
        func x(_ score: Double) -> Double { origin.x + max(0, min(1, score)) * width }
        var children = [
            SVG.text("score", at: Point(x: origin.x, y: origin.y - 22), size: 11, ["fill": Palette.muted]),
            SVG.rect(x: origin.x, y: origin.y, width: x(threshold) - origin.x, height: 10, ["fill": "#F3D9D9"]),
            SVG.rect(x: x(threshold), y: origin.y, width: x(1) - x(threshold), height: 10, ["fill": "#D8EEDC"]),
        ]
        for tick in stride(from: 0.0, through: 1.0001, by: 0.1) {
            children.append(
                SVG.line(from: Point(x: x(tick), y: origin.y - 3), to: Point(x: x(tick), y: origin.y), ["stroke": Palette.muted]))
            children.append(
                SVG.text(
                    SVG.decimal(tick, digits: 1), at: Point(x: x(tick), y: origin.y - 5), size: 10, anchor: "middle",
                    ["fill": Palette.muted]))
        }
        children.append(
            SVG.line(
                from: Point(x: x(threshold), y: origin.y - 18), to: Point(x: x(threshold), y: origin.y + 12),
                ["stroke": Palette.ink, "stroke-width": "2"]))
        children.append(
            SVG.text(
                "threshold \(SVG.decimal(threshold, digits: 2))", at: Point(x: x(threshold) + 5, y: origin.y - 18), size: 10,
                ["fill": Palette.ink, "font-weight": "bold"]))
        let colours = [Palette.contact(0), Palette.contact(1)]
        for (rank, match) in contenders.enumerated() {
            let tip = Point(x: x(match.score), y: origin.y + 11)
            children.append(
                SVG.polygon([tip, Point(x: tip.x - 6, y: tip.y + 10), Point(x: tip.x + 6, y: tip.y + 10)], ["fill": colours[rank]]))
            let label = "\(match.name) \(SVG.decimal(match.score, digits: 3))"
            let half = SVG.textWidth(label, size: 10) * 0.55
            let labelX = min(max(tip.x, origin.x + half), origin.x + width - half)
            children.append(
                SVG.text(
                    label, at: Point(x: labelX, y: tip.y + 23 + Double(rank) * 13),
                    size: 10, anchor: "middle", ["fill": colours[rank], "font-weight": "bold"]))
        }
        return (
            SVG.group(["class": "scores"], children)
                .titled("Scores from 0 to 1: below the threshold \(SVG.decimal(threshold, digits: 2)) a stroke is no match"),
            origin.y + 36 + Double(contenders.count) * 13
        )
    }

    /// The best score of each name, best first, at most eight.
    func ranking(at top: Double, width: Double, threshold: Double) -> (element: SVGElement, bottom: Double) {
        var seen = Set<String>()
        let best = recognizer.scores(for: stroke).filter { seen.insert($0.name).inserted }.prefix(8)
        guard !best.isEmpty else { return (SVG.group([:], []), top) }
        var children = [SVG.text("best score of each gesture", at: Point(x: Self.margin, y: top + 10), size: 11, ["fill": Palette.muted])]
        let labelWidth = max(90, (best.map { SVG.textWidth($0.name, size: 11) }.max() ?? 0) + 12)
        let barWidth = min(360, width - labelWidth - 60)
        for (index, match) in best.enumerated() {
            let y = top + 18 + Double(index) * 16
            children.append(SVG.text(match.name, at: Point(x: Self.margin, y: y + 10), size: 11, ["fill": Palette.ink]))
            children.append(
                SVG.rect(
                    x: Self.margin + labelWidth, y: y + 1, width: barWidth * max(0, match.score), height: 11,
                    ["fill": match.score >= threshold ? "#7FBF8E" : "#D9A3A3"]))
            children.append(
                SVG.text(
                    SVG.decimal(match.score, digits: 3),
                    at: Point(x: Self.margin + labelWidth + barWidth * max(0, match.score) + 6, y: y + 10),
                    size: 11, ["fill": Palette.ink]))
        }
        let x = Self.margin + labelWidth + barWidth * threshold
        children.append(
            SVG.line(
                from: Point(x: x, y: top + 16), to: Point(x: x, y: top + 18 + Double(best.count) * 16),
                ["stroke": Palette.ink, "stroke-width": "1", "stroke-dasharray": "3 2"]))
        return (
            SVG.group(["class": "ranking"], children).titled("The best score of each gesture name, best first"),
            top + 22 + Double(best.count) * 16
        )
    }
}
