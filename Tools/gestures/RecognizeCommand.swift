import CommandLineKit
import DesktopDaemon
import Foundation
import GesturePictures
import GestureRecognition
import GestureTraces
import InputChecks

/// `gestures recognize`: recognises the strokes of files against a template
/// library and, with `--explain`, says why (and draws it with `-o`).
enum RecognizeCommand: Command {
    static let name = "recognize"
    static let abstract = "Recognise drawn strokes against a template library."
    static let discussion = """
        Each result also says whether the daemon would fire the stroke, by the
        one stroke rule it applies (Docs/GestureEngine.md): big enough (the box
        round it at least engine.strokeMinimumLengthMillimeters, the stroke's
        coordinates taken as millimetres), not a drag along one line
        (engine.strokeMinimumWidthRatio), its best template over the threshold,
        not much narrower than that template (engine.strokeMinimumTemplateWidthShare),
        and nearer than every other name by engine.strokeMinimumMargin. A match the
        daemon would not fire says why: "L (score 0.9948), but the daemon would
        not fire it: too close to v: 0.1396 of the 0.2 margin". The rule, the
        recognizer and the templates are the configuration file's (the daemon's,
        --config or the default one when it exists; --no-config: the defaults);
        --library, --recognizer, --orientation and --threshold replace theirs.
        A mouse's strokes are judged by the mouse section's rule instead (its
        orientation, threshold and minimumSizeCounts, lengths in counts): --as
        mouse, touchpad or touchscreen names the input to judge a stroke as; by
        default the one the configuration draws strokes with (a touchscreen,
        then a touchpad, then a mouse), and --explain says which rule was used.

        With --explain, each result is followed by why: the best template and the
        best template of another name, with their scores (0...1), the threshold a
        match must reach, and the daemon's verdict. With --explain -o OUT (.svg or
        .png), the explanation of the one stroke given is also drawn: the stroke
        as drawn and normalised, the two templates over it, and the scores of the
        best eight names.
        """

    static let threshold = Option(
        "--threshold", valueName: "SCORE", .number(in: 0...1), default: 0.75,
        help: "Scores below this (0...1) are 'no match'.")
    static let format = OutputFormat.option(default: .text)
    static let explain = Flag("--explain", help: "Also give the best and second-best templates, their scores and the threshold.")
    static let output = Option(
        "--output", valueName: "OUT", .file,
        help: "With --explain: draw the explanation of the one stroke given into OUT (.svg or .png).", aliases: ["-o"])

    static let options =
        [
            TemplateLibraryFile.option.spec, Input.option.spec, RecognizerOptions.matcher.spec, RecognizerOptions.orientation.spec,
            threshold.spec, format.spec, explain.spec, output.spec,
        ] + ConfigurationOptions.options
    static let arguments = [
        ArgumentSpec(
            "FILE", count: .oneOrMore, kind: .file, help: "A $1 XML log or a JSON stroke file.",
            missing: "no stroke files given")
    ]

    /// The files, the recognizer and the output.
    struct Options {
        var files: [String]
        var libraryPath: String?
        /// The input the strokes are judged as (`--as`); nil: the one the configuration draws strokes with.
        var input: Input?
        /// The recognizer options given, replacing the configuration's.
        var matcher: UnistrokeRecognizer.Matcher?
        var orientation: UnistrokeRecognizer.Orientation?
        var threshold: Double?
        var format: OutputFormat
        var explains: Bool
        var picture: PictureOutput?
        /// The configuration file whose engine section (the stroke rule and recognizer) and templates are used.
        var settings: ConfigurationOptions

        /// The daemon's stroke rule and recognizer configuration for `input`:
        /// the configuration file's, with the options given instead.
        func strokeSettings(
            _ configuration: DaemonConfiguration?, as input: Input
        ) -> (rule: StrokeRule, recognition: UnistrokeRecognizer.Configuration) {
            let (rule, base) = input.settings(configuration)
            let recognition = UnistrokeRecognizer.Configuration(
                matcher: matcher ?? base.matcher, orientation: orientation ?? base.orientation,
                rejectionThreshold: threshold ?? base.rejectionThreshold,
                resampleCount: matcher == nil || matcher == base.matcher ? base.resampleCount : nil,
                maximumPoints: base.maximumPoints)
            return (rule, recognition)
        }
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        var picture: PictureOutput?
        if let path = arguments[output] {
            guard arguments[explain] else { throw UsageError("-o draws the explanation; add --explain") }
            picture = try PictureOutput(path: path, format: nil, option: "-o")
        }
        return Options(
            files: arguments.positionals, libraryPath: arguments[TemplateLibraryFile.option], input: arguments[Input.option],
            matcher: arguments.isGiven(RecognizerOptions.matcher.spec) ? arguments[RecognizerOptions.matcher] : nil,
            orientation: arguments.isGiven(RecognizerOptions.orientation.spec) ? arguments[RecognizerOptions.orientation] : nil,
            threshold: arguments.isGiven(threshold.spec) ? arguments[threshold] : nil,
            format: arguments[format], explains: arguments[explain], picture: picture,
            settings: try ConfigurationOptions(arguments))
    }

    static func run(_ options: Options) throws -> Int32 {
        try options.picture?.checkWritable()
        let file = try options.settings.load(options: Self.options)
        let library =
            try options.libraryPath.map { try TemplateLibraryFile.load($0, options: Self.options) }
            ?? file?.templates ?? .dollarShapes
        let input = options.input ?? Input.drawing(in: file)
        let (rule, recognition) = options.strokeSettings(file, as: input)
        let ruleText = input.ruleText(file, recognition: recognition, asked: options.input != nil)
        let recognizer = UnistrokeRecognizer(library: library, configuration: recognition)
        let strokes = try options.files.flatMap { file in
            try FileArgument.check(file, as: .strokes, options: Self.options)
            let held = try StrokeFile.load(contentsOf: URL(fileURLWithPath: file))
            if held.isEmpty { throw CommandFailure("\(file) holds no stroke (an empty list); a stroke file holds at least one") }
            return held.map { (file: file, stroke: $0) }
        }
        // Nothing to recognise is an error, not an outcome: the exit status says so.
        if let empty = strokes.firstIndex(where: { $0.stroke.points.isEmpty }) {
            let file = strokes[empty].file
            let index = strokes[..<empty].filter { $0.file == file }.count
            let which = strokes.filter { $0.file == file }.count == 1 ? "its stroke" : "stroke \(index)"
            throw CommandFailure("\(file): \(which) has no points; a stroke needs at least one point to be recognised")
        }
        if let picture = options.picture, strokes.count != 1 {
            throw CommandFailure(
                "-o draws one stroke, and \(options.files.count == 1 ? options.files[0] : "the files") hold\(options.files.count == 1 ? "s" : "") \(strokes.count); "
                    + "give one stroke to draw, or leave out -o \(picture.path)")
        }
        // With the picture on standard output, the words go to standard error, so the SVG stays well-formed.
        let say: (String) -> Void = options.picture?.path == "-" ? { printError($0) } : { print($0) }
        for (file, stroke) in strokes {
            let explanation = RecognitionExplanation(
                stroke: stroke.points, recognizer: recognizer, rule: rule,
                title: stroke.name.map { "\(file) (\($0))" } ?? file)
            let outcome = explanation.outcome
            let verdict = rule.judge(stroke.points, with: recognizer)
            let why = options.explains ? Explained(explanation, rule: ruleText) : nil
            say(
                options.format == .json
                    ? jsonLine(file: file, input: input, outcome: outcome, verdict: verdict, why: why)
                    : textLines(file: file, outcome: outcome, verdict: verdict, why: why))
            try options.picture?.write(explanation)
        }
        return 0
    }

    /// Why a stroke got its outcome: the two contenders and the threshold.
    struct Explained {
        var contenders: [UnistrokeRecognizer.Match]
        var threshold: Double
        /// Which input's rule judged it (``Input/ruleText(_:recognition:asked:)``).
        var rule: String

        init(_ explanation: RecognitionExplanation, rule: String) {
            contenders = explanation.contenders
            threshold = explanation.recognizer.configuration.rejectionThreshold
            self.rule = rule
        }
    }

    /// `FILE: circle (score 0.9826)` (with `, but the daemon would not fire
    /// it: REASON` when `verdict` rejects a match) and, when explained, one
    /// line per contender and the daemon's verdict.
    static func textLines(file: String, outcome: UnistrokeRecognizer.Outcome, verdict: StrokeVerdict, why: Explained?) -> String {
        var lines: [String]
        switch outcome {
        case .match(let match):
            let unfired = verdict.rejection.map { ", but the daemon would not fire it: \($0)" } ?? ""
            lines = ["\(file): \(match.name) (score \(rounded(match.score)))\(unfired)"]
        case .noMatch(let best):
            lines = ["\(file): no match\(best.map { " (best \($0.name), score \(rounded($0.score)))" } ?? "")"]
        case .degenerate(let reason):
            lines = ["\(file): not recognised: \(reason)"]
        }
        guard let why else { return lines[0] }
        let width = max(12, (why.contenders.map(\.name.count).max() ?? 0) + 2)
        let threshold = rounded(why.threshold)
        for (rank, match) in why.contenders.enumerated() {
            let name = match.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let score = String(format: "%.4f", match.score)
            if rank == 0 {
                let verdict =
                    match.score >= why.threshold
                    ? "at or above the threshold \(threshold): a match"
                    : "below the threshold \(threshold): no match"
                lines.append("  best         \(name)\(score)  \(verdict)")
            } else {
                // The lead the margin rule judges (StrokeRule.lead), the figure the daemon's verdict says "ahead" with.
                let behind = rounded(StrokeRule.lead(of: why.contenders[0].score, over: match.score))
                let sameName = match.name == why.contenders[0].name ? ", another sample (the library has no other name)" : ""
                let alsoPasses = match.score >= why.threshold ? "; it too reaches the threshold" : ""
                lines.append("  second best  \(name)\(score)  \(behind) behind\(sameName)\(alsoPasses)")
            }
        }
        if why.contenders.isEmpty {
            lines.append(
                outcome.isDegenerate
                    ? "  nothing compared: the recognizer takes only strokes (threshold \(threshold))"
                    : "  nothing compared: the library is empty (threshold \(threshold))")
        }
        lines.append("  rule         " + why.rule)
        lines.append("  daemon       " + daemonVerdict(verdict))
        return lines.joined(separator: "\n")
    }

    /// `would fire it: L, score 0.9948, 0.0628 ahead of v` or `would not fire it: REASON`.
    static func daemonVerdict(_ verdict: StrokeVerdict) -> String {
        switch verdict {
        case .accepted: "would fire it: \(verdict)"
        case .rejected(let rejection): "would not fire it: \(rejection)"
        }
    }

    /// One JSON object: file, template (null for none) and score, whether
    /// the daemon would fire it (`fires`) and, if not, the `rule` that
    /// rejects it and the `reason`; when explained, the threshold and the
    /// contenders, best first.
    static func jsonLine(
        file: String, input: Input, outcome: UnistrokeRecognizer.Outcome, verdict: StrokeVerdict, why: Explained?
    ) -> String {
        var fields = ["\"file\":\(JSONText.quoted(file))", "\"as\":\(JSONText.quoted(input.rawValue))"]
        switch outcome {
        case .match(let match):
            fields += ["\"template\":\(JSONText.quoted(match.name))", "\"score\":\(rounded(match.score))"]
        case .noMatch(let best):
            fields.append("\"template\":null")
            if let best { fields += ["\"best\":\(JSONText.quoted(best.name))", "\"score\":\(rounded(best.score))"] }
        case .degenerate(let reason):
            fields += ["\"template\":null", "\"error\":\(JSONText.quoted(reason.description))"]
        }
        fields.append("\"fires\":\(verdict.isAccepted)")
        if let rejection = verdict.rejection {
            fields += ["\"rule\":\(JSONText.quoted(rejection.rule.rawValue))", "\"reason\":\(JSONText.quoted(rejection.description))"]
        }
        if let why {
            fields.append("\"threshold\":\(rounded(why.threshold))")
            fields.append("\"as_rule\":\(JSONText.quoted(why.rule))")
            let contenders = why.contenders.map { "{\"template\":\(JSONText.quoted($0.name)),\"score\":\(rounded($0.score))}" }
            fields.append("\"contenders\":[\(contenders.joined(separator: ","))]")
        }
        return "{" + fields.joined(separator: ",") + "}"
    }
}

extension UnistrokeRecognizer.Outcome {
    /// Whether the input was not a stroke at all.
    fileprivate var isDegenerate: Bool {
        if case .degenerate = self { true } else { false }
    }
}
