import GestureRecognition

/// A picture of a confusion matrix: one row per expected gesture, one column
/// per answer, every cell shaded by its share of its row (blue where the
/// answer was right, red where it was not) and titled with its count.
///
/// It takes plain data, so any evaluation can draw one:
///
///     let picture = ConfusionMatrixPicture(counts: ["circle": ["circle": 98, "check": 2],
///                                                   "check": ["check": 100]])
///     picture.svg   // 2 x 2 cells; the circle row 98 % blue, 2 % red
public struct ConfusionMatrixPicture: SVGPicture {
    /// The expected gestures, one a row, top to bottom.
    public var rowLabels: [String]
    /// The answers, one a column, left to right; the right answer for a row is
    /// the column with the row's label.
    public var columnLabels: [String]
    /// `counts[row][column]`: how often the row's gesture was answered as the
    /// column's. Missing cells count 0; negative counts are drawn as 0.
    public var counts: [[Int]]
    /// The heading.
    public var title: String

    /// A matrix with rows `rowLabels` and columns `columnLabels`.
    public init(rowLabels: [String], columnLabels: [String], counts: [[Int]], title: String = "Confusion matrix") {
        self.rowLabels = rowLabels
        self.columnLabels = columnLabels
        self.counts = counts
        self.title = title
    }

    /// A square matrix: the same labels for rows and columns.
    public init(labels: [String], counts: [[Int]], title: String = "Confusion matrix") {
        self.init(rowLabels: labels, columnLabels: labels, counts: counts, title: title)
    }

    /// A matrix from `counts[expected][answer]`. Rows are `labels` (by
    /// default every expected name, sorted); columns are the same, followed
    /// by the answers that are not row labels (such as "no match"), sorted.
    public init(counts: [String: [String: Int]], labels: [String]? = nil, title: String = "Confusion matrix") {
        let rows = labels ?? counts.keys.sorted()
        let rowSet = Set(rows)
        let extra = Set(counts.values.flatMap(\.keys)).subtracting(rowSet).sorted()
        let columns = rows + extra
        self.init(
            rowLabels: rows, columnLabels: columns,
            counts: rows.map { row in columns.map { counts[row]?[$0] ?? 0 } }, title: title)
    }

    /// The count in `row`, `column` (0 when missing or negative).
    public func count(row: Int, column: Int) -> Int {
        guard counts.indices.contains(row), counts[row].indices.contains(column) else { return 0 }
        return max(0, counts[row][column])
    }

    static let margin = 20.0
    static let cell = 36.0

    /// The picture as SVG text.
    public var svg: String {
        let rowTotals = rowLabels.indices.map { r in columnLabels.indices.reduce(0) { $0 + count(row: r, column: $1) } }
        let total = rowTotals.reduce(0, +)
        let correct = rowLabels.indices.reduce(0) { sum, r in
            sum + (columnLabels.firstIndex(of: rowLabels[r]).map { count(row: r, column: $0) } ?? 0)
        }
        let labelWidth = max(60, (rowLabels.map { SVG.textWidth($0, size: 12) }.max() ?? 0) + 14)
        // Column labels that fit a cell are written level, longer ones upright:
        // a label turned 45° makes "x" read as "+", turned 90° "v" reads as ">".
        let columnLabelHeight = max(40, (columnLabels.map { SVG.textWidth($0, size: 12) }.max() ?? 0) + 16)
        let top = Self.margin + 76 + columnLabelHeight
        let left = Self.margin + labelWidth
        let gridWidth = Double(columnLabels.count) * Self.cell
        let explanation = "rows: the gesture expected · columns: what it was recognised as"
        let summary =
            "\(total) recognition\(total == 1 ? "" : "s")"
            + (total > 0 ? ", \(correct) (\(SVG.decimal(100 * Double(correct) / Double(total), digits: 2)) %) on the diagonal" : "")
        let width = max(520, left + gridWidth + 110 + Self.margin, SVG.textWidth(explanation, size: 12) + 2 * Self.margin)
        var content: [SVGElement] = [
            SVG.heading(title, at: Point(x: Self.margin, y: Self.margin + 16)),
            SVG.text(explanation, at: Point(x: Self.margin, y: Self.margin + 37), size: 12, ["fill": Palette.muted]),
            SVG.text(summary, at: Point(x: Self.margin, y: Self.margin + 53), size: 12, ["fill": Palette.muted]),
            SVG.text(
                "expected", at: Point(x: left - 8, y: top - 8), size: 11, anchor: "end", ["fill": Palette.muted, "font-style": "italic"]),
        ]
        for (c, label) in columnLabels.enumerated() {
            let centre = left + (Double(c) + 0.5) * Self.cell
            if SVG.textWidth(label, size: 12) <= Self.cell - 6 {
                content.append(SVG.text(label, at: Point(x: centre, y: top - 8), size: 12, anchor: "middle", ["fill": Palette.ink]))
            } else {
                content.append(
                    SVG.text(
                        label, at: Point(x: centre + 4, y: top - 8), size: 12,
                        ["transform": "rotate(-90 \(SVG.number(centre + 4)) \(SVG.number(top - 8)))", "fill": Palette.ink]))
            }
        }
        content.append(SVG.text("total", at: Point(x: left + gridWidth + 12, y: top - 8), size: 11, ["fill": Palette.muted]))
        content.append(SVG.text("right", at: Point(x: left + gridWidth + 56, y: top - 8), size: 11, ["fill": Palette.muted]))
        for (r, rowLabel) in rowLabels.enumerated() {
            let y = top + Double(r) * Self.cell
            var cells: [SVGElement] = [
                SVG.text(rowLabel, at: Point(x: left - 8, y: y + Self.cell / 2 + 4), size: 12, anchor: "end", ["fill": Palette.ink])
            ]
            for (c, columnLabel) in columnLabels.enumerated() {
                cells.append(
                    cell(
                        row: r, column: c, rowLabel: rowLabel, columnLabel: columnLabel, rowTotal: rowTotals[r],
                        origin: Point(x: left + Double(c) * Self.cell, y: y)))
            }
            cells.append(
                SVG.text(
                    String(rowTotals[r]), at: Point(x: left + gridWidth + 12, y: y + Self.cell / 2 + 4), size: 11, ["fill": Palette.ink]))
            if let diagonal = columnLabels.firstIndex(of: rowLabel), rowTotals[r] > 0 {
                let share = 100 * Double(count(row: r, column: diagonal)) / Double(rowTotals[r])
                cells.append(
                    SVG.text(
                        "\(SVG.decimal(share, digits: 1)) %", at: Point(x: left + gridWidth + 56, y: y + Self.cell / 2 + 4), size: 11,
                        ["fill": Palette.ink]))
            }
            content.append(SVG.group(["class": "row"], cells).titled("expected \(rowLabel): \(rowTotals[r]) recognitions"))
        }
        if rowLabels.isEmpty || columnLabels.isEmpty {
            content.append(
                SVG.text("nothing to show: no labels", at: Point(x: Self.margin, y: top + 14), size: 12, ["fill": Palette.muted]))
        }
        let bottom = top + Double(max(rowLabels.count, 1)) * Self.cell + 20
        let key = self.key(at: Point(x: Self.margin, y: bottom))
        content.append(key)
        let description =
            "\(title): \(rowLabels.count) expected gestures by \(columnLabels.count) answers, \(total) recognitions, \(correct) on the diagonal. "
            + "Off the diagonal: " + offDiagonalSummary() + "."
        return SVG.document(width: width, height: bottom + 40 + Self.margin, title: title, description: description, content: content)
    }

    func cell(row: Int, column: Int, rowLabel: String, columnLabel: String, rowTotal: Int, origin: Point) -> SVGElement {
        let n = count(row: row, column: column)
        let share = rowTotal > 0 ? Double(n) / Double(rowTotal) : 0
        let isRight = rowLabel == columnLabel
        let fill = n == 0 ? "#ffffff" : Self.shade(share, right: isRight)
        var children = [
            SVG.rect(
                x: origin.x, y: origin.y, width: Self.cell, height: Self.cell,
                ["fill": fill, "stroke": isRight ? "#9DB4CC" : Palette.grid, "stroke-width": "1"])
        ]
        if n > 0 {
            let text = n >= 10_000 ? "\(SVG.decimal(Double(n) / 1000, digits: 0))k" : String(n)
            children.append(
                SVG.text(
                    text, at: Point(x: origin.x + Self.cell / 2, y: origin.y + Self.cell / 2 + 4), size: n >= 1000 ? 10 : 11,
                    anchor: "middle", ["fill": share > 0.5 ? "#ffffff" : Palette.ink]))
        }
        let percent = rowTotal > 0 ? " (\(SVG.decimal(100 * share, digits: 1)) % of \(rowTotal))" : ""
        return SVG.group(["class": "cell"], children)
            .titled("expected \(rowLabel), recognised as \(columnLabel): \(n)\(percent)")
    }

    /// White to blue (right answers) or white to red (wrong ones) by `share`;
    /// any count shows at least a tint.
    static func shade(_ share: Double, right: Bool) -> String {
        let t = 0.12 + 0.88 * max(0, min(1, share))
        let (r, g, b) = right ? (8.0, 81.0, 156.0) : (198.0, 40.0, 40.0)
        func mix(_ c: Double) -> Int { Int((255 + (c - 255) * t).rounded()) }
        return "#"
            + [mix(r), mix(g), mix(b)].map { value in
                let hex = String(value, radix: 16)
                return hex.count == 1 ? "0" + hex : hex
            }.joined()
    }

    func key(at origin: Point) -> SVGElement {
        var children: [SVGElement] = []
        var x = origin.x
        for (right, label) in [(true, "right answer"), (false, "wrong answer")] {
            for (index, share) in [0.1, 0.5, 1.0].enumerated() {
                children.append(
                    SVG.rect(x: x + Double(index) * 16, y: origin.y, width: 16, height: 12, ["fill": Self.shade(share, right: right)]))
            }
            children.append(SVG.text(label + ", share of its row", at: Point(x: x + 54, y: origin.y + 10), size: 11, ["fill": Palette.ink]))
            x += 54 + SVG.textWidth(label + ", share of its row", size: 11) + 24
        }
        return SVG.group(["class": "key"], children).titled(
            "Key: blue cells are right answers, red cells wrong ones, darker for a larger share of the row")
    }

    func offDiagonalSummary() -> String {
        var pairs: [(String, String, Int)] = []
        for (r, row) in rowLabels.enumerated() {
            for (c, column) in columnLabels.enumerated() where row != column && count(row: r, column: c) > 0 {
                pairs.append((row, column, count(row: r, column: c)))
            }
        }
        guard !pairs.isEmpty else { return "none" }
        return pairs.sorted { $0.2 > $1.2 }.prefix(20).map { "\($0.0) as \($0.1) \($0.2)" }.joined(separator: ", ")
    }
}
