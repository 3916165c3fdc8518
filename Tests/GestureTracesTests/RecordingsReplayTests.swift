import Foundation
import GestureRecognition
import TestSupport
import Testing
import TouchInput

@testable import GestureTraces

/// Every trace in `Recordings/` with an `.expected.jsonl` beside it replays
/// to exactly that output (the `gestures replay` contract, one object a line),
/// with the swipe sequences of a `.sequences.json` beside it when there is one.
@Suite("Recordings replay to their expected output")
struct RecordingsReplayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Recordings")

    /// Paths (relative to `Recordings/`) of traces that have an expected output; an error when there are too few.
    static func traces() throws -> [String] {
        try TestFiles.names(in: root, endingIn: ".expected.jsonl", recursive: true, minimum: 60).map {
            String($0.dropLast(".expected.jsonl".count)) + ".jsonl"
        }
    }

    /// The sibling of `path` with `suffix` in place of `.jsonl`.
    static func sibling(_ path: String, _ suffix: String) -> URL {
        root.appendingPathComponent(String(path.dropLast(".jsonl".count)) + suffix)
    }

    /// The replay `gestures replay` runs for `path`: defaults, plus the
    /// sequences of `NAME.sequences.json` when it exists.
    static func replay(for path: String) throws -> GestureReplay {
        var configuration = GestureEngine.Configuration()
        let sequencesURL = sibling(path, ".sequences.json")
        if FileManager.default.fileExists(atPath: sequencesURL.path) {
            struct SequenceFile: Decodable { var sequences: [SwipeSequenceMatcher.NamedSequence] }
            configuration.sequences = try JSONDecoder().decode(SequenceFile.self, from: Data(contentsOf: sequencesURL)).sequences
        }
        return GestureReplay(configuration: configuration)
    }

    static func expectedLines(_ path: String) throws -> [String] {
        try String(contentsOf: sibling(path, ".expected.jsonl"), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("the replay equals the expected output", arguments: try traces())
    func replayEqualsExpected(path: String) throws {
        let trace = try Trace.load(contentsOf: Self.root.appendingPathComponent(path))
        let expected = try Self.expectedLines(path)
        let actual = try Self.replay(for: path).outputs(in: trace).map(\.jsonLine)
        #expect(actual.count == expected.count, "\(actual.count) lines, expected \(expected.count)")
        for (index, (a, e)) in zip(actual, expected).enumerated() where a != e {
            Issue.record("line \(index + 1): got \(a), expected \(e)")
            break
        }
    }

    /// The synthetic traces: their names say what they must give.
    static func synthetic() throws -> [String] { try traces().filter { $0.hasPrefix("synthetic/") } }

    @Test(
        "each synthetic expected output holds the gesture its name says, and nothing else completed",
        arguments: try synthetic())
    func expectedOutputMatchesName(path: String) throws {
        let outputs = try Self.expectedLines(path).map { try GestureReplay.Output(jsonLine: $0) }
        let events = outputs.compactMap { output -> GestureEvent? in
            if case .gesture(let event) = output { return event }
            return nil
        }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let gesture = try #require(RecordingName(name), "\(name) does not say what it holds")
        // Cancelled gestures are nothing to a consumer (a hold the fingers
        // rested into before a slow swipe); everything else must be named.
        let done = events.filter { $0.isCompletion && $0.cancelled != true }
        if let problem = gesture.problem(with: done) { Issue.record(Comment(rawValue: "\(name): \(problem)")) }
        let decisions = outputs.compactMap { output -> MouseDecision.Kind? in
            if case .mouse(let decision) = output { return decision.kind }
            return nil
        }
        if let problem = gesture.problem(withDecisions: decisions) { Issue.record(Comment(rawValue: "\(name): \(problem)")) }
    }
}

/// What a synthetic recording's name says it holds, e.g.
/// `magic.3-finger-swipe-up-left.noisy`, `rmi4.3-finger-swipe-right-from-left-edge`,
/// `atmel.1-finger-stroke-circle`, `p50.1-finger-double-tap.lift-slide`,
/// `x1carbon.nothing-1-finger-pointer-motion`;
/// words from `with` on (`...-swipe-up-with-resting-thumb`) describe conditions.
/// A mouse's (`mouse.`) have no finger count: `mouse.stroke-circle`, `mouse.click`,
/// `mouse.press-held-then-dragged`, `mouse.nothing-unmatched-stroke`.
struct RecordingName {
    var fingers = 0
    var words: [String] = []
    var nothing = false
    var isMouse = false

    init?(_ fileName: String) {
        let parts = fileName.split(separator: ".").map(String.init)
        guard parts.count >= 2 else { return nil }
        let what = parts[1]
        isMouse = parts[0] == "mouse"
        if what.hasPrefix("nothing-") { nothing = true; return }
        if isMouse {
            words = what.split(separator: "-").map(String.init)
            return
        }
        let words = what.split(separator: "-").map(String.init)
        guard words.count >= 3, let fingers = Int(words[0]), words[1] == "finger" else { return nil }
        self.fingers = fingers
        // `...-with-resting-thumb` describes the conditions, not the gesture.
        self.words = Array(words.dropFirst(2).prefix { $0 != "with" })
    }

    /// Why a mouse's decisions (other than its accepted strokes) are not
    /// what the name says, or nil: a click or a press when it says so,
    /// strokes rejected at most when it says nothing, none otherwise.
    func problem(withDecisions decisions: [MouseDecision.Kind]) -> String? {
        let expected: [MouseDecision.Kind]? =
            switch words.first {
            case "click": [.click]
            case "press": [.press]
            case _ where nothing && isMouse: nil
            default: []
            }
        if let expected { return decisions == expected ? nil : "expected the decisions \(expected), got \(decisions)" }
        return decisions.allSatisfy { $0 == .rejected } ? nil : "expected no decision but rejected strokes, got \(decisions)"
    }

    /// Why `done` (the completed, not cancelled, events) is not what the name says, or nil.
    func problem(with done: [GestureEvent]) -> String? {
        let got = "got \(done.map(\.description))"
        if nothing { return done.isEmpty ? nil : "expected no gesture, \(got)" }
        guard let kind = words.first else { return "no gesture in the name" }
        if isMouse {
            switch kind {
            case "stroke":
                guard done.count == 1, done[0].type == .stroke, done[0].source == .mouse,
                    done[0].template == words.dropFirst().joined(separator: "-")
                else {
                    return "expected a mouse stroke \(words.dropFirst().joined(separator: "-")), \(got)"
                }
                return nil
            case "click", "press":
                return done.isEmpty ? nil : "expected no gesture, \(got)"
            default:
                return "unknown mouse gesture \(kind) in the name"
            }
        }
        let rest = Array(words.dropFirst())
        switch kind {
        case "swipe":
            guard done.count == 1, let swipe = done.first, swipe.type == .swipe, swipe.fingers == fingers else {
                return "expected one \(fingers)-finger swipe, \(got)"
            }
            let edgeAt = rest.firstIndex(of: "from")
            let direction = (edgeAt.map { Array(rest[..<$0]) } ?? rest).joined(separator: "_")
            if swipe.direction?.rawValue != direction { return "expected direction \(direction), \(got)" }
            let edge = edgeAt.map { rest[$0 + 1] }
            if swipe.edge?.rawValue != edge { return "expected edge \(edge ?? "none"), \(got)" }
        case "pinch", "rotate":
            guard done.count == 1, let pinch = done.first, pinch.type == .pinch, pinch.fingers == fingers,
                let scale = pinch.scale, let angle = pinch.angleDegrees
            else {
                return "expected one \(fingers)-finger pinch, \(got)"
            }
            let ok =
                switch rest.first {
                case "in": scale < 0.85
                case "out": scale > 1.15
                case "clockwise": angle > 15 && abs(scale - 1) < 0.15
                case "anticlockwise": angle < -15 && abs(scale - 1) < 0.15
                default: false
                }
            if !ok { return "expected a pinch \(rest.joined(separator: " ")), \(got)" }
        case "double":
            guard rest == ["tap"], done.count == 2, done.allSatisfy({ $0.type == .tap && $0.fingers == fingers }) else {
                return "expected two \(fingers)-finger taps, \(got)"
            }
        case "hold", "tap":
            let type: GestureEvent.Kind = kind == "hold" ? .hold : .tap
            guard done.count == 1, done[0].type == type, done[0].fingers == fingers else {
                return "expected one \(fingers)-finger \(kind), \(got)"
            }
        case "stroke":
            guard done.count == 1, done[0].type == .stroke, done[0].template == rest.joined(separator: "-") else {
                return "expected a stroke \(rest.joined(separator: "-")), \(got)"
            }
        case "sequence":
            guard let last = done.last, last.type == .sequence, last.name == rest.joined(separator: "-"),
                done.dropLast().allSatisfy({ $0.type == .swipe && $0.fingers == fingers }), done.count >= 3
            else {
                return "expected swipes then the sequence \(rest.joined(separator: "-")), \(got)"
            }
        default:
            return "unknown gesture \(kind) in the name"
        }
        return nil
    }
}
