import CommandLineKit
import Foundation
import GestureEvaluation
import GesturePictures
import GestureRecognition
import InputChecks

/// `gestures eval`: the $1 study's accuracy and speed measurements over a folder of XML logs.
enum EvalCommand: Command {
    static let name = "eval"
    static let abstract = "Measure recognition accuracy and speed on a folder of $-family XML gesture logs."
    static let discussion = """
        DIR holds logs as <subject>/<speed>/<gesture><NN>.xml (the $1 study's layout).
        user-dependent: for every subject and speed, E random templates per gesture
        and one other sample of each gesture as candidate, repeated --iterations times.
        user-independent: for every subject, templates from the other subjects.
        leave-one-subject-out: the user-independent trials per held-out subject
        (cross-user accuracy), and the bundled library judged on each subject's
        strokes by the daemon's stroke rule (fired as the gesture drawn; best
        template right), beside its figure on every stroke. Both match in the
        orientation the daemon matches touch strokes in unless --orientation
        says otherwise (and with --recognizer and --resample). The bundled library
        is generated, not built from strokes, so every subject meets the same one.

        --confusion OUT draws the confusion matrix (expected gesture by answer,
        right answers on the diagonal) as SVG or PNG, by OUT's extension. With
        one --templates value it is written to OUT; with several, one picture per
        value, named by it: --templates 1,3 --confusion m.svg writes m-E1.svg and
        m-E3.svg.
        """

    static let templates = Option(
        "--templates", valueName: "LIST", templateCountsParser, default: [1, 3, 9],
        help: "Templates per gesture to try, comma-separated.")
    static let templateCountsParser = ValueParser<[Int]>.custom(
        expecting: "a comma-separated list of positive integers", format: { $0.map(String.init).joined(separator: ",") }
    ) { text in
        let values = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return values.count == text.split(separator: ",").count && !values.isEmpty && values.allSatisfy { $0 > 0 } ? values : nil
    }
    static let iterations = Option("--iterations", valueName: "N", .integer(in: 1...), default: 100, help: "Trials per subject and speed.")
    static let seed = Option("--seed", valueName: "N", .integer(in: UInt64(0)...), default: 1, help: "Seed of the random draws.")
    static let resample = Option(
        "--resample", valueName: "N", .integer(in: 8...1024),
        help: "Points strokes are resampled to (default: the matcher's own, 16 or 64).")
    static let evaluationProtocol = Option(
        "--protocol", valueName: "P", .choice(UnistrokeEvaluation.EvaluationProtocol.self),
        default: .userDependent, help: "Who the templates come from.")
    static let format = OutputFormat.option(default: .text)
    static let confusions = Flag("--confusions", help: "Also list which gestures were taken for which (text format).")
    static let confusionPicture = Option(
        "--confusion", valueName: "OUT", .file,
        help: "Also draw the confusion matrix into OUT, .svg or .png (see above).")

    static let options = [
        templates.spec, iterations.spec, seed.spec, RecognizerOptions.matcher.spec, RecognizerOptions.orientation.spec,
        resample.spec, evaluationProtocol.spec, format.spec, confusions.spec, confusionPicture.spec,
    ]
    static let arguments = [ArgumentSpec("DIR", kind: .directory, help: "The logs, as <subject>/<speed>/<gesture><NN>.xml.")]

    /// The logs and the measurement.
    struct Options {
        var directory: String
        var templateCounts: [Int]
        var iterations: Int
        var seed: UInt64
        var configuration: UnistrokeRecognizer.Configuration
        var evaluationProtocol: UnistrokeEvaluation.EvaluationProtocol
        var format: OutputFormat
        var showsConfusions: Bool
        /// Where the confusion matrices go, when asked for.
        var confusionPicture: PictureOutput?
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        let picture = try arguments[confusionPicture].map { path throws(UsageError) in
            guard path != "-" else { throw UsageError("--confusion needs a file: standard output holds the results") }
            return try PictureOutput(path: path, format: nil, option: "--confusion")
        }
        // Leave-one-subject-out measures what the daemon does: its
        // orientation for touch strokes unless --orientation is given (the
        // study's protocols keep the option's default, the study's setting).
        let chosen = arguments[evaluationProtocol]
        let orientation =
            chosen == .leaveOneSubjectOut && !arguments.isGiven(RecognizerOptions.orientation.spec)
            ? GestureEngine.Configuration().strokeRecognition.orientation : arguments[RecognizerOptions.orientation]
        return Options(
            directory: arguments.positionals[0], templateCounts: arguments[templates], iterations: arguments[iterations],
            seed: arguments[seed],
            configuration: UnistrokeRecognizer.Configuration(
                matcher: arguments[RecognizerOptions.matcher], orientation: orientation, resampleCount: arguments[resample]),
            evaluationProtocol: chosen, format: arguments[format], showsConfusions: arguments[confusions],
            confusionPicture: picture)
    }

    static func run(_ options: Options) throws -> Int32 {
        let matcher = options.configuration.matcher
        let json = options.format == .json
        try FileArgument.check(options.directory, as: .logFolder, options: Self.options)
        let directory = URL(fileURLWithPath: options.directory)
        let pictures =
            options.templateCounts.count == 1
            ? options.confusionPicture.map { [$0] }
            : options.confusionPicture.map { output in options.templateCounts.map { output.suffixed("E\($0)") } }
        try pictures?.forEach { try $0.checkWritable() }
        printError("eval: reading logs under \(directory.path)")
        let samples = try UnistrokeEvaluation.samples(under: directory)
        guard !samples.isEmpty else { throw CommandFailure("no XML gesture logs under \(directory.path)") }
        printError(
            "eval: \(counted(samples.count, "stroke")), \(counted(Set(samples.map(\.subject)).count, "subject")), \(counted(Set(samples.map(\.gesture)).count, "gesture"))"
        )
        let evaluation = UnistrokeEvaluation(samples: samples, configuration: options.configuration, protocol: options.evaluationProtocol)
        for e in options.templateCounts {
            if let reason = evaluation.noTrialReason(templatesPerGesture: e) {
                throw CommandFailure("no trial is possible with --templates \(e): \(reason); give fewer templates or more logs")
            }
        }
        var results: [UnistrokeEvaluation.Result] = []
        for e in options.templateCounts {
            var progress: Progress?
            let result = evaluation.run(templatesPerGesture: e, iterations: options.iterations, seed: options.seed) { done, all in
                if progress == nil { progress = Progress("eval: \(matcher.rawValue) E=\(e)", total: all, unit: "groups") }
                progress?.update(done)
            }
            progress?.finish()
            results.append(result)
        }
        // The bundled library is judged as the daemon judges a stroke, with
        // the recognizer options given here (the defaults are the daemon's).
        var engine = GestureEngine.Configuration()
        engine.strokeRecognition = options.configuration
        let holdout =
            options.evaluationProtocol == .leaveOneSubjectOut
            ? LeaveOneSubjectOut(samples: samples, library: .fixed(.dollarShapes), engine: engine).run() : nil
        if json {
            let rows = results.map { r in
                "{\"templates\":\(r.templatesPerGesture),\"accuracy\":\(rounded(r.accuracy)),\"recognitions\":\(r.recognitions),\"mean_microseconds\":\((r.meanMicroseconds * 100).rounded() / 100)}"
            }
            let subjects = holdout.map { "," + subjectsJSON($0, results) } ?? ""
            print(
                "{\"recognizer\":\(JSONText.quoted(matcher.rawValue)),\"protocol\":\(JSONText.quoted(options.evaluationProtocol.rawValue)),\"results\":[\(rows.joined(separator: ","))]\(subjects)}"
            )
        } else {
            print(
                "recognizer \(matcher.rawValue), protocol \(options.evaluationProtocol.rawValue), \(options.iterations) iterations, seed \(options.seed)"
            )
            print("templates  accuracy  recognitions  mean µs")
            for r in results {
                let accuracy = String(format: "%7.2f%%", r.accuracy * 100)
                let micros = String(format: "%7.2f", r.meanMicroseconds)
                print(
                    "\(String(r.templatesPerGesture).padding(toLength: 9, withPad: " ", startingAt: 0))  \(accuracy)  \(String(r.recognitions).padding(toLength: 12, withPad: " ", startingAt: 0))  \(micros)"
                )
            }
            if let holdout { printSubjects(holdout, results, orientation: options.configuration.orientation) }
            if options.showsConfusions {
                for r in results where !r.confusions.isEmpty {
                    print("confusions with \(r.templatesPerGesture) template\(r.templatesPerGesture == 1 ? "" : "s") per gesture:")
                    let rows = r.confusions.flatMap { expected, got in got.map { (expected, $0.key, $0.value) } }
                        .sorted { ($0.2, $1.0, $1.1) > ($1.2, $0.0, $0.1) }
                    for (expected, got, count) in rows { print("  \(expected) -> \(got): \(count)") }
                }
            }
        }
        let gestures = Set(samples.map(\.gesture)).sorted()
        for (result, output) in zip(results, pictures ?? []) {
            let title =
                "Confusion matrix: \(matcher.rawValue), \(options.evaluationProtocol.rawValue), "
                + "\(result.templatesPerGesture) template\(result.templatesPerGesture == 1 ? "" : "s") per gesture"
            try output.write(ConfusionMatrixPicture(counts: result.answers, labels: gestures, title: title))
            printError("eval: wrote \(output.path)")
        }
        return 0
    }

    /// `93.55%` for a share in 0...1.
    static func percent(_ share: Double) -> String { String(format: "%.2f%%", share * 100) }

    /// The leave-one-subject-out tables: cross-user accuracy per held-out
    /// subject for each E, then the bundled library per subject and on every stroke.
    static func printSubjects(
        _ holdout: LeaveOneSubjectOut.Report, _ results: [UnistrokeEvaluation.Result], orientation: UnistrokeRecognizer.Orientation
    ) {
        func cell(_ text: String, _ width: Int) -> String { text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0) }
        print("orientation \(RecognizerOptions.orientationParser.format(orientation))")
        print("cross-user accuracy by held-out subject (templates from the other subjects):")
        print(cell("subject", 9) + results.map { cell("E=\($0.templatesPerGesture)", 18) }.joined())
        for fold in holdout.folds {
            let cells = results.map { r -> String in
                let tally = r.byGroup[fold.subject] ?? .init()
                return cell("\(percent(tally.accuracy)) of \(tally.recognitions)", 18)
            }
            print(cell(fold.subject, 9) + cells.joined())
        }
        print(cell("all", 9) + results.map { cell("\(percent($0.accuracy)) of \($0.recognitions)", 18) }.joined())
        print("bundled library by subject (the daemon's stroke rule; best template alone):")
        print(cell("subject", 9) + cell("strokes", 9) + cell("fired right", 19) + cell("fired wrong", 13) + "best template right")
        func row(_ label: String, _ t: LeaveOneSubjectOut.Tally) {
            print(
                cell(label, 9) + cell("\(t.strokes)", 9) + cell("\(t.firedRight) (\(percent(t.firedAccuracy)))", 19)
                    + cell("\(t.firedWrong)", 13) + "\(t.bestRight) (\(percent(t.bestAccuracy)))")
        }
        for fold in holdout.folds { row(fold.subject, fold.tally) }
        row("all", holdout.wholeSet)
        if !holdout.isHeldOut {
            print(
                "note: the bundled library is generated from hand-placed control points, not built from strokes, so no subject can be left out of it: every subject meets the same library, and these are its figures per subject."
            )
        }
    }

    /// `"subjects":[...]` and `"library_whole_set":{...}` for the JSON output.
    static func subjectsJSON(_ holdout: LeaveOneSubjectOut.Report, _ results: [UnistrokeEvaluation.Result]) -> String {
        func tally(_ t: LeaveOneSubjectOut.Tally) -> String {
            "{\"strokes\":\(t.strokes),\"fired_right\":\(t.firedRight),\"fired_wrong\":\(t.firedWrong),\"best_right\":\(t.bestRight)}"
        }
        let subjects = holdout.folds.map { fold in
            let crossUser = results.map { r in
                let g = r.byGroup[fold.subject] ?? .init()
                return "{\"templates\":\(r.templatesPerGesture),\"accuracy\":\(rounded(g.accuracy)),\"recognitions\":\(g.recognitions)}"
            }
            return
                "{\"subject\":\(JSONText.quoted(fold.subject)),\"cross_user\":[\(crossUser.joined(separator: ","))],\"library\":\(tally(fold.tally))}"
        }
        return
            "\"subjects\":[\(subjects.joined(separator: ","))],\"library_whole_set\":\(tally(holdout.wholeSet)),\"library_held_out\":\(holdout.isHeldOut)"
    }
}
