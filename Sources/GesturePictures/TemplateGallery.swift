import GestureRecognition

/// A picture of a template library: every sample of every gesture name, one
/// row a name, each normalised as the recognizer compares it, its start
/// marked with a green dot and its direction with arrowheads.
///
///     let gallery = TemplateGallery(.dollarShapes)
///     gallery.svg   // 16 rows of one sample each
public struct TemplateGallery: SVGPicture {
    /// The library drawn.
    public var library: TemplateLibrary
    /// The recognizer options the samples are normalised with (matcher,
    /// orientation, resample count).
    public var configuration: UnistrokeRecognizer.Configuration
    /// The heading.
    public var title: String
    /// The most samples on one line; more wrap onto the next.
    public var columns: Int

    /// A gallery of `library` normalised as a recognizer with `configuration` sees it.
    public init(
        _ library: TemplateLibrary, configuration: UnistrokeRecognizer.Configuration = .init(),
        title: String = "Template library", columns: Int = 8
    ) {
        self.library = library
        self.configuration = configuration
        self.title = title
        self.columns = max(1, columns)
    }

    static let margin = 20.0
    static let cell = 104.0
    static let gap = 10.0

    /// The picture as SVG text.
    ///
    /// Each name is a block: its label over its samples, at most ``columns``
    /// a line; blocks flow left to right and wrap at ``columns`` cells.
    public var svg: String {
        let recognizer = UnistrokeRecognizer(configuration: configuration)
        let names = library.names
        let step = Self.cell + Self.gap
        let columns = max(1, self.columns)
        let lineWidth = Double(columns) * step
        let count = library.templates.count
        var content: [SVGElement] = [
            SVG.heading(title, at: Point(x: Self.margin, y: Self.margin + 16)),
            SVG.text(
                "\(names.count) gesture\(names.count == 1 ? "" : "s"), \(count) sample\(count == 1 ? "" : "s")",
                at: Point(x: Self.margin, y: Self.margin + 37), size: 12, ["fill": Palette.muted]),
            SVG.text(
                "normalised \(configuration.normalisationSummary)", at: Point(x: Self.margin, y: Self.margin + 53), size: 12,
                ["fill": Palette.muted]),
        ]
        content.append(key(at: Self.margin + 64))
        let top = Self.margin + 92
        var x = 0.0, y = top, lineHeight = 0.0, widest = 0.0
        for name in names {
            let samples = library.samples(named: name)
            let perLine = min(columns, max(1, samples.count))
            let lines = (samples.count + perLine - 1) / perLine
            let label = "\(samples.count) sample\(samples.count == 1 ? "" : "s")"
            // Whole cells, so that blocks line up; a long name takes more than one.
            let nameWidth = SVG.textWidth(name, size: 12) * 1.1 + Self.gap
            let blockWidth = (max(Double(perLine) * step, nameWidth) / step).rounded(.up) * step
            if x > 0 && x + blockWidth > lineWidth + 1 {
                x = 0
                y += lineHeight
                lineHeight = 0
            }
            let origin = Point(x: Self.margin + x, y: y)
            var children: [SVGElement] = [
                SVG.text(name, at: Point(x: origin.x, y: origin.y + 13), size: 12, ["font-weight": "bold", "fill": Palette.ink])
            ]
            for (index, points) in samples.enumerated() {
                let cellOrigin = Point(x: origin.x + Double(index % perLine) * step, y: origin.y + 20 + Double(index / perLine) * step)
                children.append(
                    sample(name: name, index: index, of: samples.count, points: points, recognizer: recognizer, origin: cellOrigin))
            }
            content.append(SVG.group(["class": "gesture-name"], children).titled("\(name): \(label)"))
            x += blockWidth
            widest = max(widest, x)
            lineHeight = max(lineHeight, 20 + Double(lines) * step + 8)
        }
        y += lineHeight
        if names.isEmpty {
            content.append(SVG.text("the library is empty", at: Point(x: Self.margin, y: y + 14), size: 13, ["fill": Palette.muted]))
            y += 24
        }
        let width = max(
            Self.margin * 2 + widest, SVG.textWidth("normalised \(configuration.normalisationSummary)", size: 12) + 2 * Self.margin, 400)
        let description =
            "\(title): \(names.count) gestures (\(names.joined(separator: ", "))), \(count) samples, each drawn "
            + "\(configuration.normalisationSummary), with its start point and direction marked."
        return SVG.document(width: width, height: y + Self.margin, title: title, description: description, content: content)
    }

    func sample(name: String, index: Int, of count: Int, points: [Point], recognizer: UnistrokeRecognizer, origin: Point) -> SVGElement {
        var children = [
            SVG.rect(
                x: origin.x, y: origin.y, width: Self.cell, height: Self.cell,
                ["fill": "#ffffff", "stroke": Palette.grid, "stroke-width": "1", "rx": "4"])
        ]
        let title: String
        switch recognizer.normalized(points) {
        case .success(let normalized):
            let fit = StrokeFit([normalized], origin: origin, size: Self.cell, padding: 14)
            children += StrokeDrawing.elements(normalized, fit: fit, colour: Palette.contact(0), extra: ["class": "sample-path"])
            title = "\(name), sample \(index + 1) of \(count): \(points.count) points drawn, \(normalized.count) compared"
        case .failure(let reason):
            children.append(
                SVG.text(
                    "not a stroke", at: Point(x: origin.x + Self.cell / 2, y: origin.y + Self.cell / 2), size: 11,
                    anchor: "middle", ["fill": Palette.alarm]))
            title = "\(name), sample \(index + 1) of \(count): \(reason)"
        }
        children.append(
            SVG.text(String(index + 1), at: Point(x: origin.x + 5, y: origin.y + Self.cell - 5), size: 9, ["fill": Palette.muted]))
        return SVG.group(["class": "sample"], children).titled(title)
    }

    func key(at y: Double) -> SVGElement {
        let c = Palette.contact(0)
        var children: [SVGElement] = []
        children.append(SVG.circle(Point(x: Self.margin + 5, y: y + 6), radius: 4, ["fill": Palette.start]))
        children.append(SVG.text("start", at: Point(x: Self.margin + 14, y: y + 10), size: 11, ["fill": Palette.ink]))
        if let head = SVG.arrowhead(at: Point(x: Self.margin + 80, y: y + 6), from: Point(x: Self.margin + 60, y: y + 6), size: 9, fill: c)
        {
            children.append(
                SVG.line(
                    from: Point(x: Self.margin + 62, y: y + 6), to: Point(x: Self.margin + 75, y: y + 6),
                    ["stroke": c, "stroke-width": "2"]))
            children.append(head)
        }
        children.append(SVG.text("direction", at: Point(x: Self.margin + 86, y: y + 10), size: 11, ["fill": Palette.ink]))
        return SVG.group(["class": "key"], children).titled("Key: a green dot marks where each sample starts, arrowheads the way it goes")
    }
}
