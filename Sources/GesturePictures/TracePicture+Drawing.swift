import Foundation
import GestureRecognition
import TouchInput

/// Lays out and draws a ``TraceScene``: heading, the surface to scale with
/// the contacts and gesture marks, a timeline, a key and the gesture list.
struct TraceLayout {
    let scene: TraceScene
    /// Pixels per millimetre on the surface.
    let scale: Double
    let width: Double

    static let margin = 20.0
    /// Room left of the surface and the timeline for axis labels and row names.
    static let gutter = 48.0
    static let laneHeight = 12.0
    static let listLineHeight = 18.0
    /// The most pixels the surface takes across or down, whatever size the device claims.
    static let largestSurfacePixels = 2400.0
    /// The most grid lines (and labels) along each side of the surface.
    static let maximumGridLines = 40

    init(scene: TraceScene) {
        self.scene = scene
        let fit = min(720 / scene.size.width, 420 / scene.size.height)
        // At least 1.5 px/mm, unless that makes the surface wider or taller than
        // `largestSurfacePixels` (a device may claim a surface of kilometres).
        let longest = max(scene.size.width, scene.size.height)
        scale = max(min(1.5, Self.largestSurfacePixels / longest), min(fit, 12))
        width = max(780, Self.margin * 2 + Self.gutter + scene.size.width * scale)
    }

    func document() -> String {
        var content: [SVGElement] = []
        var y = Self.margin
        content.append(SVG.heading(scene.title, at: Point(x: Self.margin, y: y + 16)))
        y += 24
        content.append(SVG.text(subtitle, at: Point(x: Self.margin, y: y + 13), size: 12, ["fill": Palette.muted]))
        y += 30

        let origin = Point(x: Self.margin + Self.gutter, y: y + 14)
        content.append(surface(at: origin))
        y = origin.y + scene.size.height * scale + 30

        let timeline = Timeline(x0: origin.x, x1: width - Self.margin - 12, start: scene.start, end: scene.end)
        let gestureLanes = Self.lanes(
            scene.gestures.map {
                ($0.beginMilliseconds, max($0.endMilliseconds, $0.beginMilliseconds + timeline.millisecondsPer(pixels: 30)))
            })
        let contactLanes = Self.lanes(scene.tracks.map { ($0.first, max($0.last, $0.first + timeline.millisecondsPer(pixels: 2))) })
        let gestureRowTop = y + 4
        let gestureRows = max(1, (gestureLanes.max() ?? -1) + 1)
        let contactRowTop = gestureRowTop + Double(gestureRows) * 18 + 6
        let contactRows = max(1, (contactLanes.max() ?? -1) + 1)
        let axisY = contactRowTop + Double(contactRows) * Self.laneHeight + 4
        content.append(SVG.text("gestures", at: Point(x: Self.margin, y: gestureRowTop + 12), size: 10, ["fill": Palette.muted]))
        content.append(SVG.text("contacts", at: Point(x: Self.margin, y: contactRowTop + 9), size: 10, ["fill": Palette.muted]))
        content.append(timeline.axis(at: axisY))

        let tickInterval = Self.niceStep(scene.end - scene.start, maximumCount: 24)
        for (index, track) in scene.tracks.enumerated() {
            content.append(
                contact(
                    track, origin: origin, tickInterval: tickInterval,
                    timeline: timeline, laneTop: contactRowTop + Double(contactLanes[index]) * Self.laneHeight))
        }
        if scene.tracks.isEmpty {
            content.append(
                SVG.text(
                    "no contacts in this part of the recording", at: Point(x: origin.x + 10, y: origin.y + 24), size: 13,
                    ["fill": Palette.muted]))
        }

        y = axisY + 34
        let key = self.key(at: y, tickInterval: tickInterval)
        content.append(key.element)
        y = key.bottom + 10

        if scene.gestures.isEmpty {
            content.append(
                SVG.text(
                    "no gestures recognised in this part of the recording", at: Point(x: Self.margin, y: y + 12), size: 12,
                    ["fill": Palette.muted]))
            y += Self.listLineHeight
        }
        for (index, gesture) in scene.gestures.enumerated() {
            content.append(
                self.gesture(
                    gesture, origin: origin, timeline: timeline,
                    laneTop: gestureRowTop + Double(gestureLanes[index]) * 18,
                    listY: y + Double(index) * Self.listLineHeight))
        }
        y += Double(scene.gestures.count) * Self.listLineHeight + Self.margin

        let description =
            "A recording of \(scene.device.name): \(scene.tracks.count) contact\(scene.tracks.count == 1 ? "" : "s") drawn on the surface to scale, "
            + "\(scene.gestures.count) gesture\(scene.gestures.count == 1 ? "" : "s") recognised"
            + (scene.gestures.isEmpty ? "." : ": " + scene.gestures.map { "\($0.number). \($0.summary)" }.joined(separator: "; ") + ".")
        return SVG.document(width: width, height: y, title: scene.title, description: description, content: content)
    }

    var subtitle: String {
        var parts = [
            "\(scene.device.kind.rawValue) \(SVG.decimal(scene.size.width, digits: 1)) × \(SVG.decimal(scene.size.height, digits: 1)) \(scene.unit)"
        ]
        if scene.device.slotCount > 0 { parts.append("\(scene.device.slotCount) slots") }
        parts.append(
            "\(SVG.decimal(scene.start, digits: 1))–\(SVG.decimal(scene.end, digits: 1)) ms of \(SVG.decimal(scene.recordingEnd, digits: 1)) ms"
        )
        parts.append("\(scene.tracks.count) contact\(scene.tracks.count == 1 ? "" : "s")")
        parts.append("\(scene.gestures.count) gesture\(scene.gestures.count == 1 ? "" : "s")")
        if scene.palmCount > 0 { parts.append("\(scene.palmCount) palm\(scene.palmCount == 1 ? "" : "s")") }
        if scene.discardedJumps > 0 {
            parts.append("\(scene.discardedJumps) jump\(scene.discardedJumps == 1 ? "" : "s") discarded")
        }
        if scene.device.isSemiMT { parts.append("positions approximate (semi-MT)") }
        return parts.joined(separator: " · ")
    }

    func point(_ p: Point, origin: Point) -> Point {
        Point(x: origin.x + p.x * scale, y: origin.y + p.y * scale)
    }

    // MARK: The surface

    func surface(at origin: Point) -> SVGElement {
        let w = scene.size.width * scale, h = scene.size.height * scale
        var children: [SVGElement] = [
            SVG.rect(
                x: origin.x, y: origin.y, width: w, height: h,
                ["fill": Palette.surface, "stroke": Palette.ink, "stroke-width": "1.5", "rx": "6"])
        ]
        // Lines at least 36 px apart, and at most `maximumGridLines` along a side.
        let readable = [5.0, 10, 20, 50, 100].first { $0 * scale >= 36 } ?? 200
        let step = max(readable, Self.niceStep(max(scene.size.width, scene.size.height), maximumCount: Self.maximumGridLines))
        var grid = ""
        var labels: [SVGElement] = []
        for mm in Self.steps(through: scene.size.width + 0.001, by: step) {
            let x = origin.x + mm * scale
            if mm > 0 && mm < scene.size.width { grid += "M\(SVG.number(x)) \(SVG.number(origin.y)) V\(SVG.number(origin.y + h)) " }
            labels.append(
                SVG.text(SVG.decimal(mm, digits: 0), at: Point(x: x, y: origin.y - 5), size: 10, anchor: "middle", ["fill": Palette.muted]))
        }
        for mm in Self.steps(through: scene.size.height + 0.001, by: step) {
            let y = origin.y + mm * scale
            if mm > 0 && mm < scene.size.height { grid += "M\(SVG.number(origin.x)) \(SVG.number(y)) H\(SVG.number(origin.x + w)) " }
            labels.append(
                SVG.text(
                    SVG.decimal(mm, digits: 0), at: Point(x: origin.x - 6, y: y + 3.5), size: 10, anchor: "end", ["fill": Palette.muted]))
        }
        children.append(SVGElement("path", ["d": grid, "stroke": Palette.grid, "stroke-width": "1", "fill": "none"]))
        children += labels
        children.append(SVG.text(scene.unit, at: Point(x: origin.x - 6, y: origin.y - 5), size: 10, anchor: "end", ["fill": Palette.muted]))
        return SVG.group(["class": "surface"], children)
            .titled(
                "The \(scene.device.kind.rawValue) surface, \(SVG.decimal(scene.size.width, digits: 1)) by \(SVG.decimal(scene.size.height, digits: 1)) \(scene.unit == "mm" ? "millimetres" : scene.unit), grid every \(SVG.decimal(step, digits: 0)) \(scene.unit)"
            )
    }

    // MARK: Contacts

    func contact(_ track: TraceScene.Track, origin: Point, tickInterval: Double, timeline: Timeline, laneTop: Double) -> SVGElement {
        let colour = Palette.contact(track.id)
        let isPalm = track.palmFromMilliseconds != nil
        var children: [SVGElement] = []
        // The path, thinned to a point every 0.05 mm.
        var drawn: [Point] = []
        var lastKept: Point?
        for (index, sample) in track.samples.enumerated() {
            if let kept = lastKept, kept.distance(to: sample.position) < 0.05, index != track.samples.count - 1 { continue }
            drawn.append(point(sample.position, origin: origin))
            lastKept = sample.position
        }
        var path = SVG.path(
            drawn,
            [
                "class": "contact-path", "fill": "none", "stroke": colour, "stroke-width": "2.2",
                "stroke-linejoin": "round", "stroke-linecap": "round",
            ])
        if isPalm { path = path.with("stroke-dasharray", "6 4").with("stroke-opacity", "0.7") }
        children.append(path)
        // Ticks at even times: a dot where the contact was when each interval began.
        var ticks: [SVGElement] = []
        var previousSlot: Double?
        for sample in track.samples {
            let slot = (sample.milliseconds / tickInterval).rounded(.down)
            if let previousSlot, slot > previousSlot {
                ticks.append(
                    SVG.circle(
                        point(sample.position, origin: origin), radius: 1.8,
                        ["fill": "#ffffff", "stroke": colour, "stroke-width": "1.2"]))
            }
            previousSlot = slot
        }
        if !ticks.isEmpty { children.append(SVG.group(["class": "ticks"], ticks)) }
        if let down = track.touchDown {
            let p = point(down.position, origin: origin)
            children.append(
                SVG.circle(p, radius: 5, ["class": "touch-down", "fill": "#ffffff", "stroke": colour, "stroke-width": "2"])
                    .titled("contact \(track.id) touches down at \(SVG.decimal(down.milliseconds, digits: 1)) ms"))
            children.append(
                SVG.text(
                    isPalm ? "#\(track.id) palm" : "#\(track.id)", at: Point(x: p.x + 7, y: p.y - 7), size: 11,
                    ["fill": colour, "font-weight": "bold"]))
        }
        if let up = track.liftOff {
            let p = point(up.position, origin: origin)
            children.append(
                SVG.rect(x: p.x - 4, y: p.y - 4, width: 8, height: 8, ["class": "lift-off", "fill": colour])
                    .titled("contact \(track.id) lifts off at \(SVG.decimal(up.milliseconds, digits: 1)) ms"))
        }
        for jump in track.jumps {
            let p = point(jump.position, origin: origin)
            children.append(
                SVG.path([Point(x: p.x - 5, y: p.y - 5), Point(x: p.x + 5, y: p.y + 5)], ["stroke": Palette.alarm, "stroke-width": "2.2"])
                    .with("class", "jump")
                    .titled(
                        "at \(SVG.decimal(jump.milliseconds, digits: 1)) ms a sample of contact \(track.id) jumped too far and was discarded; the contact kept this position"
                    ))
            children.append(
                SVG.path([Point(x: p.x - 5, y: p.y + 5), Point(x: p.x + 5, y: p.y - 5)], ["stroke": Palette.alarm, "stroke-width": "2.2"]))
        }
        // The contact's life on the timeline; a palm's part drawn pale.
        let x0 = timeline.x(track.first), x1 = max(timeline.x(track.last), x0 + 2)
        children.append(
            SVG.rect(x: x0, y: laneTop + 2, width: x1 - x0, height: 7, ["fill": colour, "fill-opacity": isPalm ? "0.35" : "1", "rx": "2"]))
        return SVG.group(["class": "contact"], children).titled(contactTitle(track))
    }

    func contactTitle(_ track: TraceScene.Track) -> String {
        var parts = ["contact \(track.id)"]
        if let down = track.touchDown {
            parts.append(
                "touches down at \(SVG.decimal(down.milliseconds, digits: 1)) ms at \(SVG.decimal(down.position.x, digits: 1)), \(SVG.decimal(down.position.y, digits: 1)) \(scene.unit)"
            )
        } else {
            parts.append("already down at \(SVG.decimal(track.first, digits: 1)) ms")
        }
        if let up = track.liftOff {
            parts.append(
                "lifts off at \(SVG.decimal(up.milliseconds, digits: 1)) ms at \(SVG.decimal(up.position.x, digits: 1)), \(SVG.decimal(up.position.y, digits: 1)) \(scene.unit)"
            )
        } else {
            parts.append("still down at \(SVG.decimal(track.last, digits: 1)) ms")
        }
        let length = UnistrokePipeline.pathLength(track.samples.map(\.position))
        parts.append("path \(SVG.decimal(length, digits: 1)) \(scene.unit)")
        if let palm = track.palmFromMilliseconds { parts.append("a palm or resting thumb from \(SVG.decimal(palm, digits: 1)) ms") }
        if !track.jumps.isEmpty { parts.append("\(track.jumps.count) jump\(track.jumps.count == 1 ? "" : "s") discarded") }
        return parts.joined(separator: ", ")
    }

    // MARK: Gestures

    func gesture(_ gesture: TraceScene.Gesture, origin: Point, timeline: Timeline, laneTop: Double, listY: Double) -> SVGElement {
        let ink = gesture.isCancelled ? Palette.alarm : Palette.ink
        var children: [SVGElement] = []
        let label = String(gesture.number)
        if let end = gesture.endPosition {
            var b = point(end, origin: origin)
            if let begin = gesture.beginPosition {
                var a = point(begin, origin: origin)
                if a.distance(to: b) > 16 {
                    children.append(
                        SVG.line(
                            from: a, to: b, ["stroke": ink, "stroke-width": "1.2", "stroke-dasharray": "3 3", "stroke-opacity": "0.8"]))
                } else {
                    // Begun and ended in one place (a hold, a pinch): side by side.
                    a = Point(x: (a.x + b.x) / 2 - 9, y: (a.y + b.y) / 2)
                    b = Point(x: a.x + 18, y: a.y)
                }
                children.append(Self.badge(label, at: a, ink: ink, filled: false))
            }
            children.append(Self.badge(label, at: b, ink: ink, filled: true))
        }
        // On the timeline: a span from begin to end, or a mark for an instant gesture.
        let x1 = timeline.x(gesture.endMilliseconds)
        if gesture.begin != nil {
            let x0 = timeline.x(gesture.beginMilliseconds)
            children.append(
                SVG.rect(
                    x: x0, y: laneTop + 2, width: max(x1 - x0, 2), height: 12,
                    ["fill": ink, "fill-opacity": "0.12", "stroke": ink, "stroke-width": "1", "rx": "2"]
                ).with("stroke-dasharray", gesture.isCancelled ? "3 2" : "none"))
            children.append(SVG.text(label, at: Point(x: x0 + 3, y: laneTop + 12), size: 10, ["fill": ink, "font-weight": "bold"]))
        } else {
            children.append(
                SVG.polygon(
                    [Point(x: x1 - 5, y: laneTop + 2), Point(x: x1 + 5, y: laneTop + 2), Point(x: x1, y: laneTop + 12)], ["fill": ink]))
            let fitsRight = x1 + 7 + SVG.textWidth(label, size: 10) <= width - Self.margin
            children.append(
                SVG.text(
                    label, at: Point(x: fitsRight ? x1 + 7 : x1 - 7, y: laneTop + 12), size: 10,
                    anchor: fitsRight ? "start" : "end", ["fill": ink, "font-weight": "bold"]))
        }
        // In the list.
        children.append(Self.badge(label, at: Point(x: Self.margin + 9, y: listY + 8), ink: ink, filled: true))
        children.append(
            SVG.text(gesture.summary, at: Point(x: Self.margin + 24, y: listY + 12), size: 12, ["class": "gesture-label", "fill": ink]))
        return SVG.group(["class": "gesture"], children).titled("gesture \(gesture.number): \(gesture.summary)")
    }

    /// A numbered disc: hollow where a gesture began, filled where it ended.
    static func badge(_ label: String, at p: Point, ink: String, filled: Bool) -> SVGElement {
        SVG.group(
            [:],
            [
                SVG.circle(p, radius: 8, ["fill": filled ? ink : "#ffffff", "stroke": ink, "stroke-width": "1.5", "fill-opacity": "0.92"]),
                SVG.text(
                    label, at: Point(x: p.x, y: p.y + 3.5), size: 10, anchor: "middle",
                    ["fill": filled ? "#ffffff" : ink, "font-weight": "bold"]),
            ])
    }

    // MARK: The key

    func key(at top: Double, tickInterval: Double) -> (element: SVGElement, bottom: Double) {
        var entries: [(SVGElement, String)] = []
        let c = Palette.contact(0)
        entries.append((SVG.circle(Point(x: 6, y: 0), radius: 5, ["fill": "#ffffff", "stroke": c, "stroke-width": "2"]), "touch-down"))
        entries.append((SVG.rect(x: 2, y: -4, width: 8, height: 8, ["fill": c]), "lift-off"))
        entries.append(
            (
                SVG.group(
                    [:],
                    [
                        SVG.line(from: Point(x: -4, y: 0), to: Point(x: 16, y: 0), ["stroke": c, "stroke-width": "2.2"]),
                        SVG.circle(Point(x: 6, y: 0), radius: 1.8, ["fill": "#ffffff", "stroke": c, "stroke-width": "1.2"]),
                    ]), "one dot every \(SVG.decimal(tickInterval, digits: 0)) ms"
            ))
        entries.append(
            (
                SVG.line(
                    from: Point(x: -4, y: 0), to: Point(x: 16, y: 0), ["stroke": c, "stroke-width": "2.2", "stroke-dasharray": "6 4"]),
                "palm or resting thumb"
            ))
        entries.append(
            (
                SVG.path(
                    [Point(x: 1, y: -5), Point(x: 11, y: 5), Point(x: 6, y: 0), Point(x: 1, y: 5), Point(x: 11, y: -5)],
                    ["stroke": Palette.alarm, "stroke-width": "2.2", "fill": "none"]), "discarded jump"
            ))
        entries.append((Self.badge("n", at: Point(x: 6, y: 0), ink: Palette.ink, filled: false), "gesture n begins"))
        entries.append((Self.badge("n", at: Point(x: 6, y: 0), ink: Palette.ink, filled: true), "ends"))
        entries.append((Self.badge("n", at: Point(x: 6, y: 0), ink: Palette.alarm, filled: true), "cancelled"))
        var children: [SVGElement] = []
        var x = Self.margin, y = top + 8
        for (symbol, text) in entries {
            let advance = 22 + SVG.textWidth(text, size: 11) + 18
            if x + advance > width - Self.margin { x = Self.margin; y += 20 }
            children.append(SVG.group(["transform": "translate(\(SVG.number(x + 2)) \(SVG.number(y)))"], [symbol]))
            children.append(SVG.text(text, at: Point(x: x + 22, y: y + 4), size: 11, ["fill": Palette.ink]))
            x += advance
        }
        return (SVG.group(["class": "key"], children).titled("Key to the symbols"), y + 10)
    }

    // MARK: Helpers

    /// Greedy lanes: each interval goes to the first lane free at its start.
    static func lanes(_ intervals: [(Double, Double)]) -> [Int] {
        var laneEnds: [Double] = []
        return intervals.map { start, end in
            if let free = laneEnds.firstIndex(where: { $0 < start }) {
                laneEnds[free] = end
                return free
            }
            laneEnds.append(end)
            return laneEnds.count - 1
        }
    }

    /// `first, first + step, first + 2 step...` up to `limit`, counted rather than summed, so that a step too small to change a large
    /// number cannot loop for ever; at most `maximumGridLines + 1` values.
    static func steps(through limit: Double, by step: Double, from first: Double = 0) -> [Double] {
        guard step > 0, step.isFinite, limit.isFinite, first.isFinite, first <= limit else { return [] }
        let count = Int(min(((limit - first) / step).rounded(.down), Double(maximumGridLines)))
        return (0...max(0, count)).map { first + Double($0) * step }
    }

    /// The smallest step of 1, 2 or 5 times a power of ten that cuts `range`
    /// into at most `maximumCount` parts.
    static func niceStep(_ range: Double, maximumCount: Int) -> Double {
        guard range > 0, range.isFinite else { return 1 }
        let rough = range / Double(maximumCount)
        let power = pow(10, log10(rough).rounded(.down))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? 10 * power
    }
}

/// The time axis under the surface: milliseconds to x.
struct Timeline {
    var x0: Double
    var x1: Double
    var start: Double
    var end: Double

    func x(_ milliseconds: Double) -> Double {
        let clamped = min(max(milliseconds, start), end)
        return x0 + (clamped - start) / (end - start) * (x1 - x0)
    }

    func millisecondsPer(pixels: Double) -> Double { pixels / (x1 - x0) * (end - start) }

    func axis(at y: Double) -> SVGElement {
        var children = [SVG.line(from: Point(x: x0, y: y), to: Point(x: x1, y: y), ["stroke": Palette.muted, "stroke-width": "1"])]
        let step = TraceLayout.niceStep(end - start, maximumCount: 10)
        for t in TraceLayout.steps(through: end + step * 1e-9, by: step, from: (start / step).rounded(.up) * step) {
            let x = self.x(t)
            children.append(SVG.line(from: Point(x: x, y: y), to: Point(x: x, y: y + 4), ["stroke": Palette.muted, "stroke-width": "1"]))
            children.append(
                SVG.text(SVG.decimal(t, digits: 1), at: Point(x: x, y: y + 15), size: 10, anchor: "middle", ["fill": Palette.muted]))
        }
        children.append(SVG.text("ms", at: Point(x: TraceLayout.margin, y: y + 15), size: 10, ["fill": Palette.muted]))
        return SVG.group(["class": "timeline"], children)
            .titled(
                "Timeline from \(SVG.decimal(start, digits: 1)) to \(SVG.decimal(end, digits: 1)) ms: gestures above, each contact's time on the surface below"
            )
    }
}
