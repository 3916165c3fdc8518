import DesktopDaemon
import Foundation
import GestureRecognition
import Testing

private func window(_ app: String, instance: String? = nil, title: String = "") -> FocusedWindow {
    FocusedWindow(appID: app, instance: instance, title: title, source: "test")
}

@Suite("DaemonConfiguration: bindings for applications (apps, notApps, title)")
struct ApplicationFilterTests {
    @Test("apps, notApps and title are read as patterns, a single string as a list of one, in JSON and YAML")
    func decoding() throws {
        let json = try configuration(
            withBindings(
                #"{"gesture": "swipe", "apps": ["firefox", "org\\.mozilla\\..*"], "notApps": "firefox-esr", "title": ".*YouTube.*", \#(okAction)}"#
            ))
        let filter = try #require(json.bindings[0].match.application)
        #expect(filter.apps == ["firefox", "org\\.mozilla\\..*"])
        #expect(filter.notApps == ["firefox-esr"])
        #expect(filter.title == ".*YouTube.*")
        let yaml = try DaemonConfiguration.decode(
            Data("version: 1\nbindings:\n  - gesture: stroke\n    apps: firefox\n    action: {command: [x]}\n".utf8), format: .yaml)
        #expect(yaml.bindings[0].match.application?.apps == ["firefox"])
        #expect(try configuration(withBindings(#"{"gesture": "swipe", \#(okAction)}"#)).bindings[0].match.application == nil)
    }

    static let errorCases: [(String, String)] = [
        (#""app": "firefox""#, "bindings[0].app: unknown key; did you mean 'apps'?"),
        (#""notapps": "firefox""#, "bindings[0].notapps: unknown key; did you mean 'notApps'?"),
        (#""apps": ["fire(fox"]"#, "bindings[0].apps[0]: invalid regular expression"),
        // The glob people type: the message says these are regular expressions, and the one meant.
        (
            #""apps": ["*term"]"#,
            "bindings[0].apps[0]: invalid regular expression: '*' has nothing before it to repeat, just after character 1 '*' "
                + "(ICU's U_REGEX_RULE_SYNTAX at offset 1); these patterns are regular expressions, not globs: write '.*term'"
        ),
        (#""title": "*Inbox""#, "bindings[0].title: invalid regular expression: '*' has nothing before it to repeat"),
        (#""apps": []"#, "bindings[0].apps: must name at least one application"),
        (#""apps": [3]"#, "bindings[0].apps[0]: must be a string"),
        (#""apps": {"id": "x"}"#, "bindings[0].apps: must be a pattern or a list of patterns"),
        (#""title": "[a-""#, "bindings[0].title: invalid regular expression"),
        (#""title": ["x"]"#, "bindings[0].title: must be a string"),
        (#""apps": "foot", "notApps": ["foot"]"#, "bindings[0].notApps: repeats 'foot' of apps"),
    ]

    @Test("a bad application key is one sentence with its path", arguments: errorCases)
    func errors(body: String, expected: String) {
        let errors = configurationErrors(withBindings(#"{"gesture": "swipe", \#(body), \#(okAction)}"#))
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix(expected) == true, "\(errors)")
        #expect(errors.allSatisfy { !$0.contains("\n") })
    }

    @Test("the lists and patterns have limits")
    func limits() {
        let many = (0...DaemonConfiguration.Limits.maximumApplicationPatterns).map { "\"a\($0)\"" }.joined(separator: ",")
        #expect(
            configurationErrors(withBindings(#"{"gesture": "swipe", "apps": [\#(many)], \#(okAction)}"#)).first?.hasPrefix(
                "bindings[0].apps: 33 patterns, over the limit of 32") == true)
        let long = String(repeating: "a", count: DaemonConfiguration.Limits.maximumPatternLength + 1)
        #expect(
            configurationErrors(withBindings(#"{"gesture": "swipe", "title": "\#(long)", \#(okAction)}"#)).first?.hasPrefix(
                "bindings[0].title: the pattern is 1001 characters") == true)
    }

    @Test("apps match the whole application id, the X11 class or its instance")
    func appsMatch() throws {
        let filter = try DaemonConfiguration.ApplicationFilter(apps: ["firefox", "org\\.mozilla\\..*"])
        #expect(filter.judge(window("firefox")) == nil)
        #expect(filter.judge(window("org.mozilla.firefox")) == nil)
        #expect(filter.judge(window("Navigator", instance: "firefox")) == nil)
        #expect(filter.judge(window("firefoxy")) == .notListed)
        #expect(filter.judge(window("foot")) == .notListed)
        #expect(filter.judge(nil) == .noFocus)
    }

    @Test("notApps excludes, title must match, and every part must hold")
    func partsCombine() throws {
        let filter = try DaemonConfiguration.ApplicationFilter(apps: ["firefox"], title: ".*YouTube.*")
        #expect(filter.judge(window("firefox", title: "Cats - YouTube")) == nil)
        #expect(filter.judge(window("firefox", title: "Mail")) == .notThisTitle(pattern: ".*YouTube.*"))
        let not = try DaemonConfiguration.ApplicationFilter(notApps: ["(?i).*term.*", "foot"])
        #expect(not.judge(window("foot")) == .excluded(pattern: "foot"))
        #expect(not.judge(window("XTerm")) == .excluded(pattern: "(?i).*term.*"))
        #expect(not.judge(window("firefox")) == nil)
        // Nothing known to exclude: a notApps-only binding applies; one naming applications does not.
        #expect(not.judge(nil) == nil)
        #expect(!not.namesApplications)
    }

    @Test("a slow pattern is stopped by PatternMatcher's limit: the binding does not apply, and says why")
    func slowPattern() throws {
        let filter = try DaemonConfiguration.ApplicationFilter(apps: ["(a|a)+"])
        let refusal = filter.judge(window(String(repeating: "a", count: 40) + "!"))
        #expect(refusal == .patternFailed(key: "apps", .timedOut))
        let long = try DaemonConfiguration.ApplicationFilter(title: ".*")
        #expect(long.judge(window("x", title: String(repeating: "t", count: 1_001))) == .patternFailed(key: "title", .tooLong))
    }

    @Test("the binding naming the focused application wins over one naming none, for the same gesture only")
    func namingWins() throws {
        let config = try configuration(
            withBindings(
                [
                    #"{"name": "back", "gesture": "swipe", "fingers": 3, "direction": "left", "apps": "firefox", \#(okAction)}"#,
                    #"{"name": "workspace", "gesture": "swipe", "fingers": 3, "direction": "left", \#(okAction)}"#,
                    #"{"name": "right", "gesture": "swipe", "fingers": 3, "direction": "right", \#(okAction)}"#,
                    #"{"name": "not firefox", "gesture": "swipe", "fingers": 4, "notApps": "firefox", \#(okAction)}"#,
                ].joined(separator: ",")))
        #expect(
            config.applicability(for: window("firefox")) == [
                .applies, .overridden(by: 0), .applies, .notThisApplication(.excluded(pattern: "firefox")),
            ])
        #expect(config.applicability(for: window("foot")) == [.notThisApplication(.notListed), .applies, .applies, .applies])
        #expect(config.applicability(for: nil) == [.notThisApplication(.noFocus), .applies, .applies, .applies])
        #expect(config.overrides().map { [$0.winner, $0.loser] } == [[0, 1]])
        #expect(config.namesApplications)
    }

    @Test("bindings for different applications are not warned about as firing together")
    func noTogetherWarning() throws {
        let config = try configuration(
            withBindings(
                [
                    #"{"gesture": "swipe", "fingers": 3, "direction": "left", "apps": "firefox", \#(okAction)}"#,
                    #"{"gesture": "swipe", "fingers": 3, "direction": "left", \#(okAction)}"#,
                ].joined(separator: ",")))
        #expect(config.warnings().isEmpty)
    }
}
