import GestureRecognition

/// Leave-one-subject-out for a template library: for every subject N, the
/// library is built from the other subjects' strokes only and judged on N's
/// strokes by the daemon's stroke rule, so that each figure is for someone
/// the library never saw. Beside it, the whole-set figure: the library built
/// from every stroke and judged on every stroke.
///
/// A library made without recorded strokes (the bundled one, generated from
/// hand-placed control points) is ``LibrarySource/fixed(_:)``: every fold
/// judges the same library, and ``Report/isHeldOut`` is false, since nothing
/// can be left out of it. Its folds are then its figure per subject.
///
///     let samples = try UnistrokeEvaluation.samples(under: URL(fileURLWithPath: "xml_logs"))
///     let report = LeaveOneSubjectOut(samples: samples, library: .fixed(.dollarShapes)).run()
///     report.folds.map(\.subject)          // ["s02", "s03", "s04", "s05", "s06"]
///     report.wholeSet.firedRight           // 2352 of 2400
///
/// The cross-user figure with E templates per gesture is the
/// user-independent protocol of ``UnistrokeEvaluation``, which is
/// leave-one-subject-out by construction (templates from the other
/// subjects, candidates from N): ``UnistrokeEvaluation/Result/byGroup``
/// holds it per held-out subject.
///
/// - Complexity: one library build and one stroke-rule judgement per stroke
///   for each fold, and once more for the whole set.
public struct LeaveOneSubjectOut: Sendable {
    /// Where the library judged in a fold comes from.
    public enum LibrarySource: Sendable {
        /// One library for every fold, made without the strokes judged.
        case fixed(TemplateLibrary)
        /// A library built from the training strokes of each fold (every
        /// subject but the held-out one; every subject for the whole set).
        case built(@Sendable (_ training: [UnistrokeEvaluation.Sample]) -> TemplateLibrary)
    }

    /// What the stroke rule made of a set of strokes.
    public struct Tally: Sendable, Hashable {
        /// The strokes judged.
        public var strokes = 0
        /// Fired by the stroke rule as the gesture drawn.
        public var firedRight = 0
        /// Fired by the stroke rule as another gesture.
        public var firedWrong = 0
        /// The best template (no threshold, no margin) named the gesture drawn.
        public var bestRight = 0

        /// An empty tally.
        public init() {}

        /// The share of strokes fired as the gesture drawn, in 0...1.
        public var firedAccuracy: Double { strokes == 0 ? 0 : Double(firedRight) / Double(strokes) }
        /// The share of strokes whose best template is the gesture drawn, in 0...1.
        public var bestAccuracy: Double { strokes == 0 ? 0 : Double(bestRight) / Double(strokes) }

        static func + (a: Tally, b: Tally) -> Tally {
            var sum = a
            sum.strokes += b.strokes
            sum.firedRight += b.firedRight
            sum.firedWrong += b.firedWrong
            sum.bestRight += b.bestRight
            return sum
        }
    }

    /// One held-out subject.
    public struct Fold: Sendable, Hashable {
        /// The subject judged.
        public var subject: String
        /// The subjects whose strokes the library was built from (empty for a
        /// ``LibrarySource/fixed(_:)`` library, built from none).
        public var trainingSubjects: [String]
        /// What the rule made of the held-out subject's strokes.
        public var tally: Tally
    }

    /// Every fold and the whole-set figure.
    public struct Report: Sendable, Hashable {
        /// One fold per subject, in subject order.
        public var folds: [Fold]
        /// The library built from every stroke, judged on every stroke.
        public var wholeSet: Tally
        /// Whether each fold's library was built without its subject (false
        /// for a ``LibrarySource/fixed(_:)`` library: the folds are then
        /// the one library's figure per subject).
        public var isHeldOut: Bool

        /// The folds summed: every stroke judged once, by a library built without its subject.
        public var heldOut: Tally { folds.map(\.tally).reduce(Tally(), +) }
    }

    /// The labelled strokes.
    public var samples: [UnistrokeEvaluation.Sample]
    /// The library judged.
    public var library: LibrarySource
    /// The daemon's configuration: its stroke recognition and stroke rule judge each stroke.
    public var engine: GestureEngine.Configuration

    /// Leave-one-subject-out of `library` on `samples`, judged by `engine`'s stroke rule.
    public init(samples: [UnistrokeEvaluation.Sample], library: LibrarySource, engine: GestureEngine.Configuration = .init()) {
        self.samples = samples
        self.library = library
        self.engine = engine
    }

    /// The subjects, sorted.
    public var subjects: [String] { Array(Set(samples.map(\.subject))).sorted() }

    /// Runs every fold and the whole set.
    public func run() -> Report {
        var folds: [Fold] = []
        for subject in subjects {
            let training = samples.filter { $0.subject != subject }
            let built = self.library(from: training)
            let held = samples.filter { $0.subject == subject }
            folds.append(
                Fold(
                    subject: subject,
                    trainingSubjects: built.isBuilt ? Array(Set(training.map(\.subject))).sorted() : [],
                    tally: judge(held, with: built.library)))
        }
        let whole = library(from: samples)
        return Report(folds: folds, wholeSet: judge(samples, with: whole.library), isHeldOut: whole.isBuilt)
    }

    func library(from training: [UnistrokeEvaluation.Sample]) -> (library: TemplateLibrary, isBuilt: Bool) {
        switch library {
        case .fixed(let library): (library, false)
        case .built(let build): (build(training), true)
        }
    }

    /// What `engine`'s stroke rule, and the best template alone, make of `strokes`.
    func judge(_ strokes: [UnistrokeEvaluation.Sample], with library: TemplateLibrary) -> Tally {
        let recognizer = UnistrokeRecognizer(library: library, configuration: engine.strokeRecognition)
        var unthresholded = engine.strokeRecognition
        unthresholded.rejectionThreshold = 0
        let best = UnistrokeRecognizer(library: library, configuration: unthresholded)
        let rule = engine.strokeRule
        var tally = Tally()
        for stroke in strokes {
            tally.strokes += 1
            if let fired = rule.judge(stroke.points, with: recognizer).acceptedMatch {
                if fired.name == stroke.gesture { tally.firedRight += 1 } else { tally.firedWrong += 1 }
            }
            if best.recognize(stroke.points).match?.name == stroke.gesture { tally.bestRight += 1 }
        }
        return tally
    }
}
