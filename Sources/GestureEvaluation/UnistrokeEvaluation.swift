import GestureRecognition

/// The evaluation protocols of the $1 study, run on labelled strokes: how
/// often, and how fast, a `UnistrokeRecognizer` names a stroke correctly.
///
/// User-dependent: for every subject and speed, E random samples of each
/// gesture become templates and one other sample of each gesture is the
/// candidate; repeated. User-independent: for every subject, the templates
/// come from the other subjects and the candidates from this one.
/// Leave-one-subject-out: the user-independent trials, reported per held-out
/// subject (``Result/byGroup``), beside ``LeaveOneSubjectOut``'s figures for a
/// whole library.
///
///     let samples = try UnistrokeEvaluation.samples(under: URL(fileURLWithPath: "xml_logs"))
///     let evaluation = UnistrokeEvaluation(samples: samples, configuration: .init(), protocol: .userDependent)
///     evaluation.run(templatesPerGesture: 1, iterations: 100, seed: 1).accuracy   // 0.9903
public struct UnistrokeEvaluation: Sendable {
    /// One labelled stroke.
    public struct Sample: Sendable {
        /// The gesture it is a sample of: `circle`.
        public var gesture: String
        /// Who drew it.
        public var subject: String
        /// How fast it was drawn: `slow`, `medium` or `fast` in the $1 study.
        public var speed: String
        /// Its points.
        public var points: [Point]

        /// A sample of `gesture` drawn by `subject` at `speed`.
        public init(gesture: String, subject: String, speed: String, points: [Point]) {
            self.gesture = gesture
            self.subject = subject
            self.speed = speed
            self.points = points
        }
    }

    /// Where templates and candidates come from.
    public enum EvaluationProtocol: String, Sendable, CaseIterable {
        /// Templates and candidates from the same subject and speed.
        case userDependent = "user-dependent"
        /// Templates from the other subjects, candidates from this one.
        case userIndependent = "user-independent"
        /// The user-independent trials, read per held-out subject, beside the
        /// bundled library judged on each subject (``LeaveOneSubjectOut``).
        case leaveOneSubjectOut = "leave-one-subject-out"
    }

    /// The outcome for one number of templates per gesture.
    public struct Result: Sendable, Hashable {
        /// E, the templates per gesture.
        public var templatesPerGesture: Int
        /// The candidates recognised as their own gesture.
        public var correct: Int
        /// The candidates recognised in all.
        public var recognitions: Int
        /// Total time spent in `recognize`, in nanoseconds.
        public var recognitionNanoseconds: Double
        /// Every answer: expected gesture -> recognised gesture (or "no match")
        /// -> count, the right answers (the diagonal) included. A gesture
        /// appears only when it was a candidate in some trial: a gesture with
        /// too few samples for a group is skipped there, so rows differ in size.
        public var answers: [String: [String: Int]] = [:]
        /// The right answers and the recognitions of each group: per subject
        /// and speed (`s02/fast`) when user-dependent, per held-out subject
        /// (`s02`) otherwise.
        public var byGroup: [String: GroupTally] = [:]

        /// The right answers among one group's recognitions.
        public struct GroupTally: Sendable, Hashable {
            /// The candidates recognised as their own gesture.
            public var correct = 0
            /// The candidates recognised in all.
            public var recognitions = 0
            /// No recognitions yet.
            public init() {}
            /// The share recognised correctly, in 0...1.
            public var accuracy: Double { recognitions == 0 ? 0 : Double(correct) / Double(recognitions) }
        }

        /// Misrecognitions only: ``answers`` without the right answers.
        public var confusions: [String: [String: Int]] {
            var wrong: [String: [String: Int]] = [:]
            for (expected, row) in answers {
                let others = row.filter { $0.key != expected }
                if !others.isEmpty { wrong[expected] = others }
            }
            return wrong
        }

        /// The share of candidates recognised correctly, in 0...1.
        public var accuracy: Double { recognitions == 0 ? 0 : Double(correct) / Double(recognitions) }
        /// The mean time of one `recognize` call, in microseconds.
        public var meanMicroseconds: Double { recognitions == 0 ? 0 : recognitionNanoseconds / Double(recognitions) / 1000 }
    }

    /// The labelled strokes.
    public var samples: [Sample]
    /// The recognizer's configuration (its rejection threshold is 0: the best template counts).
    public var configuration: UnistrokeRecognizer.Configuration
    /// Where templates and candidates come from.
    public var evaluationProtocol: EvaluationProtocol

    /// An evaluation of `samples` with a recognizer configured as
    /// `configuration`, except that nothing is rejected.
    public init(samples: [Sample], configuration: UnistrokeRecognizer.Configuration, protocol evaluationProtocol: EvaluationProtocol) {
        self.samples = samples
        // Rejection is not part of the protocol: the best template counts.
        var configuration = configuration
        configuration.rejectionThreshold = 0
        self.configuration = configuration
        self.evaluationProtocol = evaluationProtocol
    }

    /// One trial: templates per gesture and candidates.
    struct Trial {
        var templates: [(String, [Point])]
        var candidates: [(String, [Point])]
    }

    /// Runs `iterations` trials for each group with `templatesPerGesture`
    /// templates, with a generator seeded by `seed`. `progress` is called with
    /// (groups done, groups in all).
    public func run(
        templatesPerGesture: Int, iterations: Int, seed: UInt64,
        progress: (Int, Int) -> Void = { _, _ in }
    ) -> Result {
        var random = SplitMix64(seed: seed)
        var result = Result(templatesPerGesture: templatesPerGesture, correct: 0, recognitions: 0, recognitionNanoseconds: 0)
        let groups = self.groups()
        let clock = ContinuousClock()
        for (groupIndex, group) in groups.enumerated() {
            for _ in 0..<iterations {
                guard let trial = makeTrial(group, templatesPerGesture: templatesPerGesture, random: &random) else { continue }
                var recognizer = UnistrokeRecognizer(configuration: configuration)
                for (name, points) in trial.templates { recognizer.add(name: name, points: points) }
                for (expected, points) in trial.candidates {
                    var outcome: UnistrokeRecognizer.Outcome = .noMatch(best: nil)
                    let elapsed = clock.measure { outcome = recognizer.recognize(points) }
                    result.recognitionNanoseconds += Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
                    result.recognitions += 1
                    result.byGroup[group.label, default: .init()].recognitions += 1
                    if outcome.match?.name == expected {
                        result.correct += 1
                        result.byGroup[group.label, default: .init()].correct += 1
                    }
                    result.answers[expected, default: [:]][outcome.match?.name ?? "no match", default: 0] += 1
                }
            }
            progress(groupIndex + 1, groups.count)
        }
        return result
    }

    /// Why no trial can be made with `templatesPerGesture` templates per
    /// gesture, with the figures, or nil when at least one can (so that an
    /// evaluation of nothing is never reported as 0 % accuracy).
    ///
    ///     evaluation.noTrialReason(templatesPerGesture: 9)
    ///     // "each trial needs 10 samples of a gesture by one subject at one speed (9 templates and a candidate), and the most there are is 4"
    public func noTrialReason(templatesPerGesture e: Int) -> String? {
        let groups = self.groups()
        let possible = groups.contains { group in
            group.templatePool.contains { gesture, pool in
                group.shared ? pool.count > e : pool.count >= e && !(group.candidatePool[gesture] ?? []).isEmpty
            }
        }
        guard !possible else { return nil }
        switch evaluationProtocol {
        case .userIndependent, .leaveOneSubjectOut:
            let subjects = Set(samples.map(\.subject))
            if subjects.count < 2 {
                return
                    "the \(evaluationProtocol.rawValue) protocol takes the templates from other subjects, and the logs have \(subjects.count) subject\(subjects.count == 1 ? "" : "s")"
            }
            let most = groups.flatMap { $0.templatePool.values.map(\.count) }.max() ?? 0
            return "each trial needs \(e) sample\(e == 1 ? "" : "s") of a gesture by the other subjects, and the most there are is \(most)"
        case .userDependent:
            let most = groups.flatMap { $0.templatePool.values.map(\.count) }.max() ?? 0
            return
                "each trial needs \(e + 1) samples of a gesture by one subject at one speed (\(e) template\(e == 1 ? "" : "s") and a candidate), and the most there are is \(most)"
        }
    }

    /// A group: the template pool and candidate pool of one unit of the protocol.
    struct Group {
        var label: String
        /// gesture -> samples to draw templates from
        var templatePool: [String: [[Point]]]
        /// gesture -> samples to draw candidates from (same arrays as the pool
        /// when user-dependent: a candidate is never one of the templates)
        var candidatePool: [String: [[Point]]]
        var shared: Bool
    }

    func groups() -> [Group] {
        let subjects = Array(Set(samples.map(\.subject))).sorted()
        switch evaluationProtocol {
        case .userDependent:
            var groups: [Group] = []
            for subject in subjects {
                let speeds = Array(Set(samples.filter { $0.subject == subject }.map(\.speed))).sorted()
                for speed in speeds {
                    var pool: [String: [[Point]]] = [:]
                    for s in samples where s.subject == subject && s.speed == speed { pool[s.gesture, default: []].append(s.points) }
                    groups.append(Group(label: "\(subject)/\(speed)", templatePool: pool, candidatePool: pool, shared: true))
                }
            }
            return groups
        case .userIndependent, .leaveOneSubjectOut:
            return subjects.map { subject in
                var train: [String: [[Point]]] = [:], test: [String: [[Point]]] = [:]
                for s in samples {
                    if s.subject == subject {
                        test[s.gesture, default: []].append(s.points)
                    } else {
                        train[s.gesture, default: []].append(s.points)
                    }
                }
                return Group(label: subject, templatePool: train, candidatePool: test, shared: false)
            }
        }
    }

    func makeTrial(_ group: Group, templatesPerGesture e: Int, random: inout SplitMix64) -> Trial? {
        var trial = Trial(templates: [], candidates: [])
        for gesture in group.templatePool.keys.sorted() {
            let pool = group.templatePool[gesture]!
            if group.shared {
                guard pool.count > e else { continue }
                let picks = random.sample(e + 1, from: pool.count)
                for i in picks.dropLast() { trial.templates.append((gesture, pool[i])) }
                trial.candidates.append((gesture, pool[picks.last!]))
            } else {
                guard pool.count >= e, let candidates = group.candidatePool[gesture], !candidates.isEmpty else { continue }
                for i in random.sample(e, from: pool.count) { trial.templates.append((gesture, pool[i])) }
                trial.candidates.append((gesture, candidates[random.next(below: candidates.count)]))
            }
        }
        return trial.candidates.isEmpty ? nil : trial
    }
}
