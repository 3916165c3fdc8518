import DesktopDaemon
import Foundation
import Testing

/// Matching a focus against every binding (issue 37, item 4): one budget for
/// the whole decision, not one per pattern, and each (pattern, name)
/// matched once for a configuration, not once per gesture.
@Suite("focus matching: one budget a decision, each (pattern, name) once")
struct FocusMatchesTests {
    static func configuration(_ bindings: [String]) throws -> DaemonConfiguration {
        try DaemonConfiguration.decode(Data(withBindings(bindings.joined(separator: ",")).utf8), format: .json)
    }

    static let firefox = FocusedWindow(appID: "firefox", instance: "Navigator", title: "Mozilla Firefox", source: "sway")

    @Test("a decision with no budget left decides no pattern: the binding does not apply, as for a pattern that timed out")
    func budgetIsPerDecision() throws {
        let configuration = try Self.configuration([#"{"gesture": "tap", "apps": ["firefox"], \#(okAction)}"#])
        let applicability = configuration.applicability(for: Self.firefox, within: .zero)
        #expect(applicability == [.notThisApplication(.patternFailed(key: "apps", .timedOut))])
    }

    @Test("a focus is matched once: a later decision for the same window reuses what the patterns gave")
    func matchedOnce() throws {
        let configuration = try Self.configuration([#"{"gesture": "tap", "apps": ["firefox"], \#(okAction)}"#])
        #expect(configuration.applicability(for: Self.firefox) == [.applies])
        // No budget at all now, and still the same answer: nothing ran again.
        #expect(configuration.applicability(for: Self.firefox, within: .zero) == [.applies])
        #expect(configuration.focusMatches.count == 1)
    }

    @Test("forty bindings repeating 32 patterns match each (pattern, name) once")
    func repeatedPatternsOnce() throws {
        let patterns = (0..<32).map { #""app\#($0)""# }
        let bindings = (0..<40).map { index in
            #"{"gesture": "tap", "fingers": \#(1 + index % 5), "apps": [\#(patterns.joined(separator: ","))], "title": ".*Firefox", \#(okAction)}"#
        }
        let configuration = try Self.configuration(bindings)
        let decision = configuration.applicability(for: Self.firefox)
        #expect(decision.allSatisfy { $0 == .notThisApplication(.notListed) })
        // 32 patterns against the class and the instance; the title pattern is never reached.
        #expect(configuration.focusMatches.count == 64)
    }

    @Test("a reloaded configuration starts with no outcomes kept")
    func reloadStartsEmpty() throws {
        let binding = #"{"gesture": "tap", "apps": ["firefox"], \#(okAction)}"#
        let first = try Self.configuration([binding])
        _ = first.applicability(for: Self.firefox)
        let copy = first
        #expect(copy.focusMatches.count == 1)
        #expect(try Self.configuration([binding]).focusMatches.count == 0)
    }
}
