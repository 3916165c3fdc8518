import Foundation
import InputChecks

/// The one rule that decides whether a drawn stroke fires: the engine (touch
/// strokes), the mouse path, `gestures train` and `gestures recognize` all
/// take their answer from ``judge(_:with:)``, so what `recognize` says is
/// what the daemon does.
///
/// A stroke fires only if it is unmistakable, checked in this order:
/// 1. it is a stroke at all (two distinct finite points or more);
/// 2. it is big: the diagonal of the box round its path is at least
///    ``minimumLength`` (in the surface's ``unit``: millimetres on touch
///    surfaces, counts for a mouse), so a finger trembling in place is none;
/// 3. it is not a drag along one line: across its main axis it is at least
///    ``minimumWidthRatio`` of its length along it;
/// 4. its best template scores at least the recognizer's rejection threshold,
///    and the stroke is not much narrower than that template is: at least
///    ``minimumTemplateWidthShare`` of the template's width ratio;
/// 5. it is nearer its best template than the best template with another
///    name by ``minimumMargin``: the ``lead(of:over:)`` of the two scores.
///
/// Rules 1 to 3 are the capture (what `train` takes as a sample); 4 and 5
/// need templates. The answer is a ``StrokeVerdict``: accepted, or rejected
/// by one rule with its figures.
///
///     let rule = StrokeRule(GestureEngine.Configuration())
///     rule.judge(points, with: recognizer).description
///     // "too close to v: 0.1476 of the 0.2 margin"
public struct StrokeRule: Hashable, Sendable {
    /// The unit lengths are measured in: the surface's.
    public enum Unit: String, Hashable, Sendable, Codable {
        /// Touch surfaces: millimetres.
        case millimeters = "mm"
        /// Mice: the summed relative motion counts.
        case counts = "counts"
    }

    /// The smallest stroke, in ``unit``: the diagonal of the box round its path.
    public var minimumLength: Double
    /// The unit of ``minimumLength`` and of the lengths a verdict gives.
    public var unit: Unit
    /// How wide a stroke must be across its main axis, as a fraction of its
    /// length along it (0 turns the rule off).
    public var minimumWidthRatio: Double
    /// How wide a stroke must be as a share of the width ratio of its best
    /// template (``UnistrokeRecognizer/Template/widthRatio``): one much
    /// narrower than the shape it matches is a drag (0 turns the rule off).
    public var minimumTemplateWidthShare: Double
    /// How much nearer the best template must be than the best template
    /// with another name, as a fraction of that other's distance (a
    /// template's distance is 1 minus its score): the least
    /// ``lead(of:over:)`` that fires (0...1; 0 turns the rule off).
    public var minimumMargin: Double

    /// A rule from its figures.
    public init(
        minimumLength: Double, unit: Unit, minimumWidthRatio: Double, minimumTemplateWidthShare: Double = 0, minimumMargin: Double
    ) {
        self.minimumLength = minimumLength
        self.unit = unit
        self.minimumWidthRatio = minimumWidthRatio
        self.minimumTemplateWidthShare = minimumTemplateWidthShare
        self.minimumMargin = minimumMargin
    }

    /// The engine's rule for touch strokes, in millimetres:
    /// `strokeMinimumLengthMillimeters`, `strokeMinimumWidthRatio`,
    /// `strokeMinimumTemplateWidthShare` and `strokeMinimumMargin` (the
    /// threshold is the recognizer's).
    public init(_ configuration: GestureEngine.Configuration) {
        self.init(
            minimumLength: configuration.strokeMinimumLengthMillimeters, unit: .millimeters,
            minimumWidthRatio: configuration.strokeMinimumWidthRatio,
            minimumTemplateWidthShare: configuration.strokeMinimumTemplateWidthShare,
            minimumMargin: configuration.strokeMinimumMargin)
    }

    /// The size of a path as the rule measures it.
    public struct Shape: Hashable, Sendable {
        /// The extent along the main axis of the path (the direction in
        /// which it spreads most), in the path's unit.
        public var along: Double
        /// The extent across the main axis.
        public var across: Double

        /// The diagonal of the box round the path, along and across its main axis.
        public var length: Double { (along * along + across * across).squareRoot() }
        /// The width across the main axis as a fraction of the extent along it (0 for no extent).
        public var widthRatio: Double { along > 0 ? across / along : 0 }
    }

    /// Checks the capture rules (a stroke at all, long enough, wide enough):
    /// nil when `points` may be a stroke, else why not. `train` takes as a
    /// sample only what passes.
    public func capture(_ points: [Point]) -> StrokeVerdict.Rejection? {
        capture(points, shape: points.count >= 2 ? Self.shape(of: points) : Shape(along: 0, across: 0))
    }

    /// ``capture(_:)`` with the shape of `points` measured already.
    private func capture(_ points: [Point], shape: Shape) -> StrokeVerdict.Rejection? {
        guard points.count >= 2 else { return .notAStroke(points.isEmpty ? .empty : .singlePoint) }
        guard shape.length >= minimumLength else {
            return .tooShort(length: shape.length, minimum: minimumLength, unit: unit)
        }
        guard shape.across >= minimumWidthRatio * shape.along else {
            return .tooNarrow(ratio: shape.widthRatio, minimum: minimumWidthRatio)
        }
        return nil
    }

    /// Judges `points` as the daemon does: the capture rules, then
    /// `recognizer`'s best template against its rejection threshold and the
    /// best template of another name against ``minimumMargin``.
    ///
    /// - Complexity: two searches of the recognizer when the margin is on
    ///   (one otherwise): the best template, then the best of another name.
    public func judge(_ points: [Point], with recognizer: UnistrokeRecognizer) -> StrokeVerdict {
        let shape = points.count >= 2 ? Self.shape(of: points) : Shape(along: 0, across: 0)
        if let rejected = capture(points, shape: shape) { return .rejected(rejected) }
        let match: UnistrokeRecognizer.Match
        switch recognizer.recognize(points) {
        case .degenerate(let reason): return .rejected(.notAStroke(reason))
        case .noMatch(nil): return .rejected(.noTemplates)
        case .noMatch(let best?):
            return .rejected(.belowThreshold(best: best, threshold: recognizer.configuration.rejectionThreshold))
        case .match(let found): match = found
        }
        let templateRatio = recognizer.templates[match.templateIndex].widthRatio
        guard shape.across >= minimumTemplateWidthShare * templateRatio * shape.along else {
            return .rejected(
                .narrowerThanTemplate(ratio: shape.widthRatio, best: match, templateRatio: templateRatio, share: minimumTemplateWidthShare))
        }
        guard minimumMargin > 0 else { return .accepted(StrokeVerdict.Acceptance(match: match, runnerUp: nil)) }
        let runnerUp = recognizer.bestMatch(for: points, notNamed: match.name)
        guard Self.lead(of: match.score, over: runnerUp?.score ?? 0) >= minimumMargin else {
            // Without a runner-up the margin is the score itself (under it only with a threshold under the margin).
            return .rejected(.tooClose(best: match, other: runnerUp, margin: minimumMargin))
        }
        return .accepted(StrokeVerdict.Acceptance(match: match, runnerUp: runnerUp))
    }

    /// How much nearer a template scoring `best` is than one scoring
    /// `other`, as a fraction of the other's distance (1 - score): `(best -
    /// other) / (1 - other)`, 0 when `other` is 1. Scores crowd towards 1
    /// as strokes get alike, so the same difference of scores means more
    /// between good matches: a rectangle scoring 0.94 against a circle's
    /// 0.90 is 0.4 nearer (0.06 against 0.10), one scoring 0.76 against
    /// 0.72 only 0.14.
    ///
    ///     StrokeRule.lead(of: 0.94, over: 0.9)   // 0.4
    public static func lead(of best: Double, over other: Double) -> Double {
        let room = 1 - other
        return room > 0 ? (best - other) / room : 0
    }

    /// The extents of `points`, in their own unit, along the main axis of
    /// the path (found from the path resampled evenly) and across it.
    public static func shape(of points: [Point]) -> Shape {
        let path = UnistrokePipeline.resampled(points, count: 64)
        guard path.count >= 2 else { return Shape(along: 0, across: 0) }
        let center = UnistrokePipeline.centroid(path)
        var xx = 0.0, yy = 0.0, xy = 0.0
        for point in path {
            let d = point - center
            xx += d.x * d.x; yy += d.y * d.y; xy += d.x * d.y
        }
        let angle = 0.5 * atan2(2 * xy, xx - yy)
        let axis = Point(x: cos(angle), y: sin(angle))
        var along = (low: Double.infinity, high: -Double.infinity)
        var across = (low: Double.infinity, high: -Double.infinity)
        for point in path {
            let d = point - center
            let a = d.x * axis.x + d.y * axis.y, b = d.y * axis.x - d.x * axis.y
            along = (min(along.low, a), max(along.high, a))
            across = (min(across.low, b), max(across.high, b))
        }
        let result = Shape(along: along.high - along.low, across: across.high - across.low)
        return result.along.isFinite && result.across.isFinite ? result : Shape(along: 0, across: 0)
    }
}

/// The answer of the ``StrokeRule`` for one stroke: accepted (it fires), or
/// rejected by one rule with its figures. Logs, `recognize --explain` and
/// tests read the same value.
///
///     verdict.description   // "L, score 0.976, 0.4476 ahead of v" or "too short: 9 of 15 mm"
public enum StrokeVerdict: Hashable, Sendable, CustomStringConvertible {
    /// The stroke fires.
    case accepted(Acceptance)
    /// The stroke fires nothing, for this reason.
    case rejected(Rejection)

    /// A stroke that fires: its template and how far ahead of the others it is.
    public struct Acceptance: Hashable, Sendable {
        /// The best template.
        public var match: UnistrokeRecognizer.Match
        /// The best template with another name, when the margin was checked and there is one.
        public var runnerUp: UnistrokeRecognizer.Match?

        /// An acceptance of `match`, ahead of `runnerUp`.
        public init(match: UnistrokeRecognizer.Match, runnerUp: UnistrokeRecognizer.Match?) {
            self.match = match
            self.runnerUp = runnerUp
        }

        /// How much nearer the best template is than the runner-up
        /// (``StrokeRule/lead(of:over:)``), if one was compared.
        public var margin: Double? { runnerUp.map { StrokeRule.lead(of: match.score, over: $0.score) } }
    }

    /// Which rule rejected a stroke, by name (the `rule` of a JSON verdict).
    public enum Rule: String, Hashable, Sendable, Codable, CaseIterable {
        /// The input is no stroke (no points, one point, NaN, too many points).
        case stroke
        /// The box round the path is smaller than the minimum length.
        case length
        /// The path is a drag along one line.
        case width
        /// There are no templates to compare it with.
        case templates
        /// The best template scores under the rejection threshold.
        case threshold
        /// The best template is not far enough ahead of another name.
        case margin
    }

    /// Why a stroke fires nothing, with the figures of the rule.
    public enum Rejection: Hashable, Sendable, CustomStringConvertible {
        /// Not a stroke at all.
        case notAStroke(UnistrokeRecognizer.Degeneracy)
        /// The diagonal of the box round the path is `length`, under `minimum` (both in `unit`).
        case tooShort(length: Double, minimum: Double, unit: StrokeRule.Unit)
        /// Across its main axis the path is `ratio` of its length along it, under `minimum`.
        case tooNarrow(ratio: Double, minimum: Double)
        /// The recognizer has no templates.
        case noTemplates
        /// Across its main axis the path is `ratio` of its length along it,
        /// under `share` of `templateRatio`, the width ratio of `best`, its
        /// best template: a drag, not that shape.
        case narrowerThanTemplate(ratio: Double, best: UnistrokeRecognizer.Match, templateRatio: Double, share: Double)
        /// The best template scores under `threshold`.
        case belowThreshold(best: UnistrokeRecognizer.Match, threshold: Double)
        /// The best template is less than `margin` nearer than `other`, the
        /// best template with another name (``StrokeRule/lead(of:over:)``;
        /// nil: none, and the score itself is under the margin).
        case tooClose(best: UnistrokeRecognizer.Match, other: UnistrokeRecognizer.Match?, margin: Double)

        /// Whether a capture rule rejected it (no stroke, too short, too
        /// narrow), before any template was compared: the input is no
        /// sample to train with either.
        public var isCapture: Bool {
            switch self {
            case .notAStroke, .tooShort, .tooNarrow: true
            case .noTemplates, .narrowerThanTemplate, .belowThreshold, .tooClose: false
            }
        }

        /// The best template, when templates were compared and one was best
        /// (under the threshold, or too close to another name).
        public var best: UnistrokeRecognizer.Match? {
            switch self {
            case .belowThreshold(let best, _), .tooClose(let best, _, _), .narrowerThanTemplate(_, let best, _, _): best
            case .notAStroke, .tooShort, .tooNarrow, .noTemplates: nil
            }
        }

        /// The rule that rejected it.
        public var rule: Rule {
            switch self {
            case .notAStroke: .stroke
            case .tooShort: .length
            case .tooNarrow, .narrowerThanTemplate: .width
            case .noTemplates: .templates
            case .belowThreshold: .threshold
            case .tooClose: .margin
            }
        }

        /// The rule and its figures, short: `too short: 9 of 15 mm`,
        /// `too close to v: 0.1476 of the 0.2 margin`.
        public var description: String { texts.short }

        /// One sentence saying why the stroke fires nothing and what to change.
        public var sentence: String { texts.sentence }

        /// Both texts of each rejection, side by side: the short phrase and the sentence.
        private var texts: (short: String, sentence: String) {
            func d(_ value: Double, _ digits: Int) -> String { StrokeVerdict.decimal(value, digits: digits) }
            switch self {
            case .notAStroke(let reason):
                return ("not a stroke: \(reason)", "It is not a stroke: \(reason).")
            case .tooShort(let length, let minimum, let unit):
                let (length, minimum) = (d(length, 1), d(minimum, 1))
                return (
                    "too short: \(length) of \(minimum) \(unit.rawValue)",
                    "It is too short: the box round its path is \(length) \(unit.rawValue) across, under the minimum of \(minimum) \(unit.rawValue) (draw it bigger)."
                )
            case .tooNarrow(let ratio, let minimum):
                let (ratio, minimum) = (d(ratio, 2), d(minimum, 2))
                return (
                    "too narrow: width \(ratio) of its length, under the minimum \(minimum)",
                    "It is a drag along one line: its width is \(ratio) of its length, under the minimum of \(minimum) (straight drags and scrolls never fire)."
                )
            case .noTemplates:
                return ("no templates to compare it with", "There are no templates to compare it with.")
            case .narrowerThanTemplate(let ratio, let best, let templateRatio, let share):
                let (ratio, minimum, template) = (d(ratio, 2), d(share * templateRatio, 2), d(templateRatio, 2))
                return (
                    "too narrow for \(best.name): width \(ratio) of its length, under the minimum \(minimum)",
                    "It is a drag, not \(best.name): its width is \(ratio) of its length, under the minimum of \(minimum) (\(d(share, 2)) of the template's \(template); draw it as wide as the shape is)."
                )
            case .belowThreshold(let best, let threshold):
                let (score, threshold) = (d(best.score, 4), d(threshold, 4))
                return (
                    "below the threshold: \(best.name) scores \(score) of \(threshold)",
                    "Its best template, \(best.name), scores \(score), under the threshold of \(threshold) (it matches nothing well enough)."
                )
            case .tooClose(let best, let other?, let margin):
                let (lead, margin) = (d(StrokeRule.lead(of: best.score, over: other.score), 4), d(margin, 4))
                return (
                    "too close to \(other.name): \(lead) of the \(margin) margin",
                    "Its best template, \(best.name) (\(d(best.score, 4))), is only \(lead) nearer than \(other.name) (\(d(other.score, 4))), under the margin of \(margin) (a stroke so close to two names is ambiguous; train the two apart or lower the margin)."
                )
            case .tooClose(let best, nil, let margin):
                let (score, margin) = (d(best.score, 4), d(margin, 4))
                return (
                    "too weak: \(best.name) scores \(score), under the \(margin) margin",
                    "Its best template, \(best.name), scores \(score), under the margin of \(margin)."
                )
            }
        }
    }

    /// Whether the stroke fires.
    public var isAccepted: Bool {
        if case .accepted = self { true } else { false }
    }

    /// Whether the stroke passed the capture rules (a stroke, long and wide
    /// enough), whatever the templates said: what `train` takes as a sample.
    public var isCaptured: Bool { !(rejection?.isCapture ?? false) }

    /// The template that fires, if the stroke was accepted.
    public var acceptedMatch: UnistrokeRecognizer.Match? {
        if case .accepted(let acceptance) = self { return acceptance.match }
        return nil
    }

    /// Why the stroke fires nothing, if it was rejected.
    public var rejection: Rejection? {
        if case .rejected(let rejection) = self { return rejection }
        return nil
    }

    /// `L, score 0.976` (with `, 0.4476 ahead of v` when compared: the
    /// ``StrokeRule/lead(of:over:)``), or the rejection.
    public var description: String {
        switch self {
        case .accepted(let acceptance):
            let ahead =
                acceptance.runnerUp.map {
                    ", \(Self.decimal(StrokeRule.lead(of: acceptance.match.score, over: $0.score), digits: 4)) ahead of \($0.name)"
                } ?? ""
            return "\(acceptance.match.name), score \(Self.decimal(acceptance.match.score, digits: 4))\(ahead)"
        case .rejected(let rejection):
            return rejection.description
        }
    }

    /// `value` rounded to `digits` decimals, without trailing zeros (0 when
    /// not finite): how scores, leads and margins are written everywhere.
    ///
    ///     StrokeVerdict.decimal(1, digits: 4)          // "1"
    ///     StrokeVerdict.decimal(0.98264, digits: 4)    // "0.9826"
    public static func decimal(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        var rounded = (value * scale).rounded() / scale
        if rounded == 0 { rounded = 0 }
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        var text = String(rounded)
        if text.contains("e") { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

/// A stroke the engine drew, with the verdict of its ``StrokeRule``: an
/// accepted one is also a `stroke` event; a rejected one fires nothing, and
/// this value is how logs and replays say why.
public struct DrawnStroke: Hashable, Sendable, CustomStringConvertible {
    /// When the fingers lifted.
    public var time: Duration
    /// The fingers that drew it.
    public var fingers: Int
    /// The path, in the surface's unit (millimetres on touch surfaces).
    public var points: [Point]
    /// Whether it fires, and why not.
    public var verdict: StrokeVerdict

    /// A stroke drawn with `fingers` fingers, ending at `time`.
    public init(time: Duration, fingers: Int, points: [Point], verdict: StrokeVerdict) {
        self.time = time
        self.fingers = fingers
        self.points = points
        self.verdict = verdict
    }

    /// The line logs give a stroke that fired nothing, nil for one that
    /// fired: the daemon's log, `gestures watch` and `gestures replay` all
    /// write this one.
    ///
    ///     stroke.rejectionLine(device: "Atmel maXTouch")
    ///     // a stroke on "Atmel maXTouch" at 912 ms fired nothing: too close to v: 0.1476 of the 0.2 margin
    public func rejectionLine(device: String) -> String? {
        guard let rejection = verdict.rejection else { return nil }
        return "a stroke on \(Excerpt.quoted(device)) at \(GestureEvent.decimalText(timeMilliseconds)) ms fired nothing: \(rejection)"
    }

    /// The time in milliseconds, as events give it.
    public var timeMilliseconds: Double { GestureEvent.milliseconds(time) }

    /// `stroke at 1234 ms (1 finger, 52 points): not fired: too close to v: 0.1476 of the 0.2 margin`.
    public var description: String {
        let head =
            "stroke at \(GestureEvent.decimalText(GestureEvent.milliseconds(time))) ms (\(fingers) finger\(fingers == 1 ? "" : "s"), \(points.count) points)"
        switch verdict {
        case .accepted: return "\(head): fired as \(verdict)"
        case .rejected(let rejection): return "\(head): not fired: \(rejection)"
        }
    }
}
