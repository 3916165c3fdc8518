import InputChecks
import Validation

extension DaemonConfiguration {
    /// Which focused windows a binding applies to: its `apps`, `notApps` and
    /// `title`, regular expressions each matched against the whole value
    /// through `PatternMatcher` (ICU syntax, at most 20 ms a match).
    ///
    /// - `apps`: the window's application id (or X11 class or instance)
    ///   matches one of them;
    /// - `notApps`: it matches none of them;
    /// - `title`: the window's title matches it.
    ///
    /// Every given part must hold. With no focused window known (no focus
    /// source, or nothing focused), a filter with `apps` or `title` does not
    /// apply and one with only `notApps` does.
    ///
    ///     let filter = try ApplicationFilter(apps: ["firefox", "org\\.mozilla\\..*"])
    ///     filter.judge(FocusedWindow(appID: "firefox", source: "sway"))   // nil: it applies
    ///     filter.judge(FocusedWindow(appID: "foot", source: "sway"))      // .notListed
    public struct ApplicationFilter: Hashable, Sendable {
        /// The application patterns of `apps`; empty: any application.
        public let apps: [String]
        /// The application patterns of `notApps`.
        public let notApps: [String]
        /// The title pattern, or nil.
        public let title: String?
        /// The patterns compiled once, in the order apps, notApps, title.
        private let compiled: Compiled

        /// A filter of these patterns; throws the first that does not compile.
        public init(apps: [String] = [], notApps: [String] = [], title: String? = nil) throws(PatternMatcher.InvalidPattern) {
            self.apps = apps
            self.notApps = notApps
            self.title = title
            var matchers: [PatternMatcher] = []
            for pattern in apps + notApps + (title.map { [$0] } ?? []) { matchers.append(try PatternMatcher(pattern)) }
            compiled = Compiled(matchers)
        }

        /// Whether it names applications a window must have (`apps` or
        /// `title`): such a binding wins over one without a filter.
        public var namesApplications: Bool { !apps.isEmpty || title != nil }

        /// Why the filter does not take `window`, or nil when it applies: each
        /// pattern matched until `deadline` at the latest (a decision's
        /// budget, shared by every binding), through `matches` when given, so
        /// that a (pattern, name) is matched once.
        ///
        /// - Complexity: at most one match per pattern, each bounded by
        ///   `PatternMatcher.timeLimit` and all by `deadline`.
        public func judge(
            _ window: FocusedWindow?, deadline: ContinuousClock.Instant = .now + Limits.focusMatchingTime, matches: FocusMatches? = nil
        ) -> Refusal? {
            func outcome(_ matcher: PatternMatcher, _ subject: String) -> PatternMatcher.Outcome {
                matches?.outcome(of: matcher, against: subject, deadline: deadline) ?? matcher.matches(subject, deadline: deadline)
            }
            guard let window else { return namesApplications ? .noFocus : nil }
            let names = [window.appID] + (window.instance.map { [$0] } ?? [])
            let appMatchers = compiled.matchers.prefix(apps.count)
            let notMatchers = compiled.matchers.dropFirst(apps.count).prefix(notApps.count)
            if !apps.isEmpty {
                var failure: PatternMatcher.Outcome?
                let taken = appMatchers.contains { matcher in
                    names.contains { name in
                        let outcome = outcome(matcher, name)
                        if outcome != .matched, outcome != .notMatched { failure = outcome }
                        return outcome == .matched
                    }
                }
                if !taken { return failure.map { .patternFailed(key: "apps", $0) } ?? .notListed }
            }
            for (offset, matcher) in notMatchers.enumerated() {
                for name in names {
                    switch outcome(matcher, name) {
                    case .matched: return .excluded(pattern: notApps[offset])
                    case .notMatched: continue
                    case let other: return .patternFailed(key: "notApps", other)
                    }
                }
            }
            if let title, let matcher = compiled.matchers.last {
                switch outcome(matcher, window.title) {
                case .matched: break
                case .notMatched: return .notThisTitle(pattern: title)
                case let other: return .patternFailed(key: "title", other)
                }
            }
            return nil
        }

        /// Why a filter does not take a window.
        public enum Refusal: Hashable, Sendable, CustomStringConvertible {
            /// No window is known to have the focus, and the filter names applications.
            case noFocus
            /// The window's application matches none of `apps`.
            case notListed
            /// The window's application matches this pattern of `notApps`.
            case excluded(pattern: String)
            /// The window's title does not match `title`.
            case notThisTitle(pattern: String)
            /// A pattern could not decide (it timed out, or the value is too
            /// long to match): the filter does not apply.
            case patternFailed(key: String, PatternMatcher.Outcome)

            /// A phrase: `it names other applications`.
            public var description: String {
                switch self {
                case .noFocus: "no focused window is known"
                case .notListed: "its apps do not include the focused application"
                case .excluded(let pattern): "its notApps pattern \(Excerpt.quoted(pattern)) takes the focused application"
                case .notThisTitle(let pattern): "the focused window's title does not match \(Excerpt.quoted(pattern))"
                case .patternFailed(let key, let outcome): "its \(key) pattern \(outcome) against the focused window"
                }
            }
        }

        public static func == (a: Self, b: Self) -> Bool { a.apps == b.apps && a.notApps == b.notApps && a.title == b.title }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(apps)
            hasher.combine(notApps)
            hasher.combine(title)
        }

        /// Compiled patterns, shared by the copies of a filter (never mutated).
        private final class Compiled: Sendable {
            let matchers: [PatternMatcher]
            init(_ matchers: [PatternMatcher]) { self.matchers = matchers }
        }
    }
}

extension DaemonConfiguration {
    /// Whether each binding applies to the focused window: what the matcher
    /// fires and what is claimed, both decided by this one function when the
    /// fingers land.
    public enum Applicability: Hashable, Sendable {
        /// It applies.
        case applies
        /// Its application filter does not take the focused window.
        case notThisApplication(ApplicationFilter.Refusal)
        /// A binding that names the focused application (the index) matches
        /// the same gesture, and wins over this one, which names none.
        case overridden(by: Int)
    }

    /// Whether some binding has `apps`, `notApps` or `title`: the daemon
    /// then needs a focus source, and says so when there is none.
    public var namesApplications: Bool { bindings.contains { $0.match.application != nil } }

    /// Whether each of ``bindings`` applies while `window` has the focus (nil:
    /// none known): its ``ApplicationFilter`` must take the window, and a
    /// binding without one gives way to a binding that names the focused
    /// application (``ApplicationFilter/namesApplications``) for the same
    /// gesture: the same kind, fingers, direction, edge, template and sequence.
    ///
    /// The patterns share one budget, `budget` (``Limits/focusMatchingTime``):
    /// a pattern not decided by then fails for this window. Each (pattern,
    /// name) is matched once for the configuration (``focusMatches``), so a
    /// focus costs the budget at most once, not once per gesture.
    ///
    /// - Complexity: O(*b*²) comparisons for *b* bindings in the worst case,
    ///   plus at most one pattern match per distinct (pattern, name), all
    ///   within `budget`.
    public func applicability(for window: FocusedWindow?, within budget: Duration = Limits.focusMatchingTime) -> [Applicability] {
        let deadline = ContinuousClock.now + budget
        var result: [Applicability] = bindings.map { binding in
            guard let filter = binding.match.application else { return .applies }
            return filter.judge(window, deadline: deadline, matches: focusMatches).map { .notThisApplication($0) } ?? .applies
        }
        let naming = bindings.indices.filter { index in
            result[index] == .applies && bindings[index].match.application?.namesApplications == true
        }
        guard !naming.isEmpty else { return result }
        for (index, binding) in bindings.enumerated() where result[index] == .applies && binding.match.application == nil {
            if let winner = naming.first(where: { Self.sameGesture(bindings[$0].match, binding.match) }) {
                result[index] = .overridden(by: winner)
            }
        }
        return result
    }

    /// The bindings without an application filter that each binding naming
    /// applications wins over where it applies (the pairs
    /// ``applicability(for:)`` decides by), in file order: what
    /// `check-config` lists.
    public func overrides() -> [(winner: Int, loser: Int)] {
        var pairs: [(winner: Int, loser: Int)] = []
        for (winner, binding) in bindings.enumerated() where binding.match.application?.namesApplications == true {
            for (loser, other) in bindings.enumerated() where other.match.application == nil && Self.sameGesture(binding.match, other.match)
            {
                pairs.append((winner, loser))
            }
        }
        return pairs
    }

    /// Whether two bindings' conditions name the same gesture (kind, fingers,
    /// direction, edge, template, sequence), whatever their thresholds.
    static func sameGesture(_ a: Match, _ b: Match) -> Bool {
        a.gesture == b.gesture && a.fingers == b.fingers && a.swipeDirection == b.swipeDirection
            && a.pinchDirection == b.pinchDirection && a.edge == b.edge && a.template == b.template && a.sequence == b.sequence
    }
}
