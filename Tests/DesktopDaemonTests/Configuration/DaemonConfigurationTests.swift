import DesktopDaemon
import Foundation
import GestureRecognition
import Testing

/// The errors of `text` read as `format`, one `path: message` string each; empty when valid.
func configurationErrors(_ text: String, format: DaemonConfiguration.Format = .json) -> [String] {
    do {
        _ = try DaemonConfiguration.decode(Data(text.utf8), format: format)
        return []
    } catch {
        return error.errors.map(\.description)
    }
}

/// A version-1 document with `bindings` as its bindings list (JSON text).
func withBindings(_ bindings: String) -> String { #"{"version": 1, "bindings": [\#(bindings)]}"# }

let okAction = #""action": {"command": ["true"]}"#

@Suite("DaemonConfiguration: reading and checking")
struct DaemonConfigurationTests {
    static let errorCases: [(String, String)] = [
        // The document and its version.
        (#"[1, 2]"#, "the document must be an object (a mapping), not a list"),
        (#"{"bindings": []}"#, "version: is required (write \"version\": 1 first)"),
        (#"{"version": "1"}"#, "version: must be an integer, not a string"),
        (#"{"version": 2, "bindings": 7}"#, "version: unsupported version 2; this program reads version 1"),
        (
            #"{"version": 1, "colour": "red"}"#,
            "colour: unknown key; expected one of version, devices, engine, sequences, templates, actions, mouse, bindings"
        ),
        (#"{"version": 1,"#, "malformed JSON"),
        // Devices.
        (#"{"version": 1, "devices": {}}"#, "devices: must be a list, not an object"),
        (#"{"version": 1, "devices": [{}]}"#, "devices[0]: must give at least one of name, vendor, product"),
        (
            #"{"version": 1, "devices": [{"name": "(unclosed"}]}"#,
            "devices[0].name: invalid regular expression: a '(' or ')' without its partner, at the end of the pattern (ICU's U_REGEX_MISMATCHED_PAREN at offset 9)"
        ),
        (#"{"version": 1, "devices": [{"vendor": 70000}]}"#, "devices[0].vendor: must be an integer between 0 and 65535"),
        (
            #"{"version": 1, "devices": [{"product": "0xzz"}]}"#,
            "devices[0].product: must be an integer from 0 to 65535 or a hexadecimal string"
        ),
        (#"{"version": 1, "devices": [{"name": "a", "serial": 1}]}"#, "devices[0].serial: unknown key"),
        // Engine, sequences, templates, action settings.
        (
            #"{"version": 1, "engine": {"swipeThresholdMillimeter": 5}}"#,
            "engine.swipeThresholdMillimeter: unknown key; did you mean 'swipeThresholdMillimeters'? the engine's keys are listed in Docs/GestureEngine.md"
        ),
        (
            #"{"version": 1, "engine": {"swipeThresholdMillimeters": -5}}"#,
            "engine.swipeThresholdMillimeters: must be a number between 0.5 and 100"
        ),
        (
            #"{"version": 1, "engine": {"holdDelayMilliseconds": 1e13}}"#,
            "engine.holdDelayMilliseconds: must be a number between 0 and 10000"
        ),
        (
            #"{"version": 1, "engine": {"strokeRecognition": {"resampleCount": 0}}}"#,
            "engine.strokeRecognition.resampleCount: must be an integer between 8 and 1024"
        ),
        (
            #"{"version": 1, "engine": {"swipeThresholdMillimeters": "far"}}"#,
            "engine.swipeThresholdMillimeters: must be a number between 0.5 and 100"
        ),
        (#"{"version": 1, "engine": {"sequences": []}}"#, "engine.sequences: goes at the top level"),
        (
            #"{"version": 1, "sequences": [{"name": "z", "directions": ["up", "sideways"]}]}"#,
            "sequences[0].directions[1]: unknown direction 'sideways'"
        ),
        (#"{"version": 1, "sequences": [{"directions": ["up"]}]}"#, "sequences[0].name: is required"),
        (
            #"{"version": 1, "sequences": [{"name": "a", "directions": ["up"]}, {"name": "a", "directions": ["down"]}]}"#,
            "sequences: more than one swipe sequence is called 'a'; rename all but one"
        ),
        (#"{"version": 1, "templates": "/no/such/library.json"}"#, "templates: cannot read the template library /no/such/library.json"),
        (#"{"version": 1, "actions": {"maximumConcurrent": 0}}"#, "actions.maximumConcurrent: must be an integer between 1 and 64"),
        (#"{"version": 1, "actions": {"queueLimit": 5000}}"#, "actions.queueLimit: must be an integer between 0 and 1024"),
        (#"{"version": 1, "actions": {"timeoutSeconds": 0}}"#, "actions.timeoutSeconds: must be a number between 0.001 and 3600"),
        (#"{"version": 1, "actions": {"timeoutSeconds": 7200}}"#, "actions.timeoutSeconds: must be a number between 0.001 and 3600"),
        // Bindings: the match.
        (#"{"version": 1, "bindings": {}}"#, "bindings: must be a list, not an object"),
        (withBindings(#"{\#(okAction)}"#), "bindings[0].gesture: is required"),
        (
            withBindings(#"{"gesture": "wave", \#(okAction)}"#),
            "bindings[0].gesture: unknown gesture 'wave'; expected one of swipe, pinch, hold, tap, stroke, sequence"
        ),
        (withBindings(#"{"gesture": "tap", "fingers": 6, \#(okAction)}"#), "bindings[0].fingers: must be an integer between 1 and 5"),
        (withBindings(#"{"gesture": "tap", "fingers": 2.5, \#(okAction)}"#), "bindings[0].fingers: must be an integer between 1 and 5"),
        (withBindings(#"{"gesture": "swipe", "direction": "north", \#(okAction)}"#), "bindings[0].direction: unknown direction 'north'"),
        (
            withBindings(#"{"gesture": "pinch", "direction": "left", \#(okAction)}"#),
            "bindings[0].direction: unknown pinch direction 'left'; expected one of in, out, clockwise, counterclockwise"
        ),
        (withBindings(#"{"gesture": "tap", "direction": "left", \#(okAction)}"#), "bindings[0].direction: does not apply to a tap binding"),
        (withBindings(#"{"gesture": "pinch", "edge": "top", \#(okAction)}"#), "bindings[0].edge: does not apply to a pinch binding"),
        (withBindings(#"{"gesture": "swipe", "edge": "middle", \#(okAction)}"#), "bindings[0].edge: unknown edge 'middle'"),
        (
            withBindings(#"{"gesture": "stroke", "template": "cirlce", \#(okAction)}"#),
            "bindings[0].template: no template named 'cirlce' in the library "
                + "(it has: 'arrow', 'caret', 'check', 'circle', 'delete_mark' and 11 more); did you mean 'circle'?"
        ),
        (
            #"{"version": 1, "sequences": [{"name": "back-and-forth", "directions": ["left", "right"]}], "bindings": "#
                + #"[{"gesture": "sequence", "sequence": "back-and-fort", \#(okAction)}]}"#,
            "bindings[0].sequence: no sequence named 'back-and-fort' in sequences (defined: 'back-and-forth'); did you mean 'back-and-forth'?"
        ),
        (
            withBindings(#"{"gesture": "sequence", "sequence": "konami", \#(okAction)}"#),
            "bindings[0].sequence: no sequence named 'konami' in sequences (none are defined)"
        ),
        (
            withBindings(#"{"gesture": "swipe", "minimumDistanceMillimeters": -1, \#(okAction)}"#),
            "bindings[0].minimumDistanceMillimeters: must be a number between 0 and 1000"
        ),
        (
            withBindings(#"{"gesture": "swipe", "minimumDistanceMillimeters": 1e300, \#(okAction)}"#),
            "bindings[0].minimumDistanceMillimeters: must be a number between 0 and 1000"
        ),
        (
            withBindings(#"{"gesture": "pinch", "minimumScale": 2, "maximumScale": 1, \#(okAction)}"#),
            "bindings[0].minimumScale: is greater than maximumScale, so nothing can match"
        ),
        (
            withBindings(#"{"gesture": "pinch", "minimumAngleDegrees": -3, \#(okAction)}"#),
            "bindings[0].minimumAngleDegrees: must be a number between 0 and 3600"
        ),
        (
            withBindings(#"{"gesture": "tap", "device": {"name": "(("}, \#(okAction)}"#),
            "bindings[0].device.name: invalid regular expression"
        ),
        (withBindings(#"{"gesture": "tap", "name": "", \#(okAction)}"#), "bindings[0].name: must be 1 to 200 characters on one line"),
        (withBindings(#"{"gesture": "tap", "when": "now", \#(okAction)}"#), "bindings[0].when: unknown key"),
        // Bindings: the action.
        (withBindings(#"{"gesture": "tap"}"#), "bindings[0].action: is required"),
        (withBindings(#"{"gesture": "tap", "action": "xdotool key super"}"#), "bindings[0].action: must be an object, not a string"),
        (
            withBindings(#"{"gesture": "tap", "action": {}}"#),
            "bindings[0].action.command: is required: the program and its arguments, as a list"
        ),
        (
            withBindings(#"{"gesture": "tap", "action": {"command": "xdotool key super"}}"#),
            "bindings[0].action.command: must be a list, not a string"
        ),
        (
            withBindings(#"{"gesture": "tap", "action": {"command": []}}"#),
            "bindings[0].action.command: must name a program: the list is empty"
        ),
        (
            withBindings(#"{"gesture": "tap", "action": {"command": [""]}}"#),
            "bindings[0].action.command[0]: must name a program, not be empty"
        ),
        (
            withBindings(#"{"gesture": "tap", "action": {"command": ["echo", true]}}"#),
            "bindings[0].action.command[1]: must be a string, not a boolean"
        ),
        (
            withBindings(#"{"gesture": "tap", "action": {"command": ["echo", "\#(String(repeating: "x", count: 5000))"]}}"#),
            "bindings[0].action.command[1]: is 5000 bytes, over the limit of 4096"
        ),
        (
            withBindings(#"{"gesture": "tap", "action": {"command": ["echo", "a\u0000b"]}}"#),
            "bindings[0].action.command[1]: must not contain a NUL character"
        ),
        (
            withBindings(#"{"gesture": "tap", "action": {"command": ["true"], "phase": "middle"}}"#),
            "bindings[0].action.phase: unknown phase 'middle'; expected one of end, begin, continuous"
        ),
        (
            withBindings(#"{"gesture": "tap", "action": {"command": ["true"], "phase": "begin"}}"#),
            "bindings[0].action.phase: a tap has no begin, it happens at once; use end"
        ),
        (
            withBindings(#"{"gesture": "hold", "action": {"command": ["true"], "phase": "continuous", "every": 1}}"#),
            "bindings[0].action.phase: continuous actions need a swipe or pinch binding, not hold"
        ),
        (
            withBindings(#"{"gesture": "swipe", "action": {"command": ["true"], "phase": "continuous"}}"#),
            "bindings[0].action.every: is required for a continuous action (mm between firings)"
        ),
        (
            withBindings(#"{"gesture": "swipe", "action": {"command": ["true"], "phase": "continuous", "every": 0}}"#),
            "bindings[0].action.every: must be a number between 0.5 and 1000 (mm)"
        ),
        (
            withBindings(#"{"gesture": "swipe", "action": {"command": ["true"], "phase": "continuous", "every": -2}}"#),
            "bindings[0].action.every: must be a number between 0.5 and 1000 (mm)"
        ),
        (
            withBindings(#"{"gesture": "swipe", "action": {"command": ["true"], "phase": "continuous", "every": 0.1}}"#),
            "bindings[0].action.every: must be a number between 0.5 and 1000 (mm)"
        ),
        (
            withBindings(
                #"{"gesture": "pinch", "direction": "clockwise", "action": {"command": ["true"], "phase": "continuous", "every": 0.5}}"#),
            "bindings[0].action.every: must be a number between 1 and 3600 (degrees)"
        ),
        (
            withBindings(#"{"gesture": "swipe", "action": {"command": ["true"], "every": 5}}"#),
            "bindings[0].action.every: only applies to a continuous action (phase: continuous)"
        ),
        (
            withBindings(#"{"gesture": "pinch", "action": {"command": ["true"], "phase": "continuous", "every": 0.1}}"#),
            "bindings[0].direction: a continuous pinch binding needs a direction: in, out, clockwise or counterclockwise"
        ),
        (
            withBindings(
                #"{"gesture": "swipe", "minimumDistanceMillimeters": 10, "action": {"command": ["true"], "phase": "continuous", "every": 5}}"#
            ), "bindings[0].minimumDistanceMillimeters: does not apply to a continuous action; its step is action.every"
        ),
        (
            withBindings(#"{"gesture": "tap", "action": {"command": ["true"], "timeoutSeconds": 0}}"#),
            "bindings[0].action.timeoutSeconds: must be a number between 0.001 and 3600"
        ),
        (
            withBindings(#"{"gesture": "tap", "action": {"command": ["true"], "shell": true}}"#),
            "bindings[0].action.shell: unknown key; expected one of command, phase, every, timeoutSeconds"
        ),
    ]

    /// Every closed word of the file gets the one suggestion (InputChecks' `Suggestion`).
    static let suggestionCases: [(String, String)] = [
        (
            #"{"version": 1, "bindngs": []}"#,
            "bindngs: unknown key; did you mean 'bindings'? expected one of version, devices, engine, sequences, templates, actions, mouse, bindings, intercept"
        ),
        (withBindings(#"{"gesture": "swipe", "fingres": 3, \#(okAction)}"#), "bindings[0].fingres: unknown key; did you mean 'fingers'?"),
        (
            withBindings(#"{"gesture": "siwpe", \#(okAction)}"#),
            "bindings[0].gesture: unknown gesture 'siwpe'; did you mean 'swipe'? expected one of swipe, pinch, hold, tap, stroke, sequence"
        ),
        (
            withBindings(#"{"gesture": "swipe", "direction": "rihgt", \#(okAction)}"#),
            "bindings[0].direction: unknown direction 'rihgt'; did you mean 'right'?"
        ),
        (
            withBindings(#"{"gesture": "pinch", "direction": "clockwsie", \#(okAction)}"#),
            "bindings[0].direction: unknown pinch direction 'clockwsie'; did you mean 'clockwise'?"
        ),
        (
            withBindings(#"{"gesture": "swipe", "edge": "bottm", \#(okAction)}"#),
            "bindings[0].edge: unknown edge 'bottm'; did you mean 'bottom'?"
        ),
        (
            withBindings(#"{"gesture": "tap", "action": {"button": "midle"}}"#),
            "bindings[0].action.button: unknown button 'midle'; did you mean 'middle'?"
        ),
        (
            withBindings(#"{"gesture": "tap", "action": {"comand": ["x"]}}"#),
            "bindings[0].action.comand: unknown key; did you mean 'command'?"
        ),
        (
            withBindings(#"{"gesture": "tap", "action": {"command": ["x"], "phase": "begni"}}"#),
            "bindings[0].action.phase: unknown phase 'begni'; did you mean 'begin'?"
        ),
        (#"{"version": 1, "mouse": {"buton": "left"}}"#, "mouse.buton: unknown key; did you mean 'button'?"),
        (#"{"version": 1, "devices": [{"nmae": "x"}]}"#, "devices[0].nmae: unknown key; did you mean 'name'?"),
        (
            #"{"version": 1, "sequences": [{"name": "z", "directoins": ["up"]}]}"#,
            "sequences[0].directoins: unknown key; did you mean 'directions'?"
        ),
    ]

    @Test("a mistyped closed word gets a suggestion", arguments: suggestionCases)
    func suggestions(document: String, expected: String) {
        let errors = configurationErrors(document)
        #expect(errors.first?.contains(expected) == true, "got \(errors)")
    }

    @Test("a chord of the names people type suggests the kernel's: keys: [super, rihgt]")
    func keyNameSuggestions() {
        let yaml = "version: 1\nbindings:\n  - {gesture: swipe, fingers: 4, action: {keys: [super, rihgt]}}\n"
        #expect(
            configurationErrors(yaml, format: .yaml) == [
                "bindings[0].action.keys[0]: unknown key 'super'; did you mean 'leftmeta'? kernel key names without KEY_, such as leftmeta, right, volumeup",
                "bindings[0].action.keys[1]: unknown key 'rihgt'; did you mean 'right'? kernel key names without KEY_, such as leftmeta, right, volumeup",
            ])
        for (typed, meant) in [("win", "leftmeta"), ("meta", "leftmeta"), ("ctrl", "leftctrl"), ("alt", "leftalt"), ("shift", "leftshift")]
        {
            let errors = configurationErrors(withBindings(#"{"gesture": "tap", "action": {"keys": ["\#(typed)"]}}"#))
            #expect(errors.first?.contains("did you mean '\(meant)'?") == true, "\(typed): \(errors)")
        }
    }

    @Test("YAML numbers in a command are kept as written")
    func commandNumbersAsWritten() throws {
        let configuration = try DaemonConfiguration.decode(
            Data("version: 1\nbindings:\n  - {gesture: tap, action: {command: [printf, 007, 0.10, 3]}}\n".utf8), format: .yaml)
        #expect(configuration.bindings[0].action.command == ["printf", "007", "0.10", "3"])
    }

    @Test("every configuration error says where and what", arguments: errorCases)
    func errorMessage(document: String, expected: String) {
        let errors = configurationErrors(document)
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains(expected) == true, "got \(errors)")
    }

    @Test("all errors are collected, in document order, not just the first")
    func collectsEveryError() {
        let document = withBindings(
            """
            {"gesture": "swipe", "fingers": 9, \(okAction)},
            {"gesture": "tap", "action": {"command": []}},
            {"gesture": "swipe", "action": {"command": ["x"], "phase": "continuous", "every": 0}},
            {"gesture": "tap", \(okAction)}
            """)
        #expect(
            configurationErrors(document) == [
                "bindings[0].fingers: must be an integer between 1 and 5",
                "bindings[1].action.command: must name a program: the list is empty",
                "bindings[2].action.every: must be a number between 0.5 and 1000 (mm)",
            ])
    }

    static let limitCases: [(String, String)] = [
        ("bindings", withBindings(Array(repeating: #"{"gesture": "tap", \#(okAction)}"#, count: 1_001).joined(separator: ","))),
        ("devices", #"{"version": 1, "devices": [\#(Array(repeating: #"{"vendor": 1}"#, count: 65).joined(separator: ","))]}"#),
        (
            "command words",
            withBindings(#"{"gesture": "tap", "action": {"command": [\#(Array(repeating: "\"a\"", count: 257).joined(separator: ","))]}}"#)
        ),
        (
            "command bytes",
            withBindings(
                #"{"gesture": "tap", "action": {"command": [\#(Array(repeating: "\"\(String(repeating: "a", count: 4000))\"", count: 17).joined(separator: ","))]}}"#
            )
        ),
        ("pattern length", #"{"version": 1, "devices": [{"name": "\#(String(repeating: "a", count: 1001))"}]}"#),
    ]

    @Test("limits are errors with the limit named", arguments: limitCases)
    func limits(what: String, document: String) {
        let errors = configurationErrors(document)
        #expect(errors.count == 1 && errors[0].contains("over the limit of"), "\(what): \(errors)")
    }

    @Test("a file over 1 MiB is refused before it is parsed")
    func fileSizeLimit() {
        let big = "{" + String(repeating: " ", count: DaemonConfiguration.Limits.maximumFileBytes) + "}"
        #expect(configurationErrors(big) == ["the file is 1048578 bytes, over the limit of 1048576 bytes (1 MiB)"])
    }

    static let fullJSON = #"""
        {"version": 1,
         "devices": [{"name": "SynPS/2 .*"}, {"vendor": "0x06cb", "product": 52710}],
         "engine": {"swipeThresholdMillimeters": 8, "holdDelayMilliseconds": 300},
         "sequences": [{"name": "zigzag", "directions": ["left", "right", "left"]}],
         "actions": {"maximumConcurrent": 2, "queueLimit": 8, "timeoutSeconds": 5},
         "bindings": [
           {"name": "next workspace", "gesture": "swipe", "fingers": 3, "direction": "left", "edge": "right",
            "minimumDistanceMillimeters": 20, "action": {"command": ["xdotool", "key", "super+Right"], "timeoutSeconds": 2}},
           {"gesture": "pinch", "direction": "in", "action": {"command": ["wtype", "-M", "ctrl", "-"], "phase": "continuous", "every": 0.1}},
           {"gesture": "stroke", "template": "circle", "device": {"name": ".*Touchscreen.*"}, "action": {"command": ["notify-send", "circle"]}},
           {"gesture": "sequence", "sequence": "zigzag", "action": {"command": ["true"]}},
           {"gesture": "hold", "fingers": 4, "action": {"command": ["true"], "phase": "begin"}}
         ]}
        """#

    static let fullYAML = #"""
        version: 1
        devices:
          - name: "SynPS/2 .*"
          - {vendor: "0x06cb", product: 52710}
        engine:
          swipeThresholdMillimeters: 8
          holdDelayMilliseconds: 300
        sequences:
          - name: zigzag
            directions: [left, right, left]
        actions: {maximumConcurrent: 2, queueLimit: 8, timeoutSeconds: 5}
        bindings:
          - name: next workspace
            gesture: swipe
            fingers: 3
            direction: left
            edge: right
            minimumDistanceMillimeters: 20
            action: {command: [xdotool, key, super+Right], timeoutSeconds: 2}
          - gesture: pinch
            direction: in
            action: {command: [wtype, -M, ctrl, "-"], phase: continuous, every: 0.1}
          - gesture: stroke
            template: circle
            device: {name: ".*Touchscreen.*"}
            action: {command: [notify-send, circle]}
          - gesture: sequence
            sequence: zigzag
            action: {command: ["true"]}
          - gesture: hold
            fingers: 4
            action: {command: ["true"], phase: begin}
        """#

    @Test(
        "JSON and YAML read the same schema to the same configuration",
        arguments: [
            (fullJSON, DaemonConfiguration.Format.json), (fullYAML, .yaml),
        ])
    func fullConfiguration(text: String, format: DaemonConfiguration.Format) throws {
        let configuration = try DaemonConfiguration.decode(Data(text.utf8), format: format)
        #expect(configuration.devices == [.init(namePattern: "SynPS/2 .*"), .init(vendor: 0x06cb, product: 52710)])
        #expect(configuration.engine.swipeThresholdMillimeters == 8)
        #expect(configuration.engine.holdDelay == .milliseconds(300))
        #expect(configuration.engine.sequences.map(\.name) == ["zigzag"])
        #expect(configuration.actions.maximumConcurrent == 2 && configuration.actions.queueLimit == 8)
        #expect(configuration.actions.timeout == .seconds(5))
        #expect(configuration.bindings.count == 5)
        let first = configuration.bindings[0]
        #expect(first.label == "next workspace")
        #expect(first.match.swipeDirection == .left && first.match.edge == .right && first.match.fingers == 3)
        #expect(first.match.minimumDistanceMillimeters == 20)
        #expect(first.action.command == ["xdotool", "key", "super+Right"] && first.action.timeout == .seconds(2))
        #expect(configuration.bindings[1].action.phase == .continuous(every: 0.1))
        #expect(configuration.bindings[1].match.pinchDirection == .in)
        #expect(configuration.bindings[2].match.device?.namePattern == ".*Touchscreen.*")
        #expect(configuration.bindings[3].label == "bindings[3]")
        #expect(configuration.bindings[4].action.phase == .begin)
    }

    @Test("YAML types only plain scalars: a quoted number is a string")
    func yamlQuotedScalars() {
        let errors = configurationErrors(
            "version: 1\nbindings:\n  - gesture: tap\n    fingers: \"3\"\n    action: {command: [\"true\"]}\n", format: .yaml)
        #expect(errors == ["bindings[0].fingers: must be an integer between 1 and 5"])
    }

    @Test("YAML errors have the same paths; aliases are refused")
    func yamlErrors() {
        #expect(
            configurationErrors(
                "version: 1\nbindings:\n  - gesture: swipe\n    action: {command: [x], phase: continuous, every: 0}\n", format: .yaml)
                == ["bindings[0].action.every: must be a number between 0.5 and 1000 (mm)"])
        let alias = configurationErrors("version: 1\nbindings:\n  - &a {gesture: tap, action: {command: [x]}}\n  - *a\n", format: .yaml)
        #expect(alias.count == 1 && alias[0].contains("aliases are not supported"), "\(alias)")
        let duplicate = configurationErrors("version: 1\nversion: 1\n", format: .yaml)
        #expect(duplicate.count == 1 && duplicate[0].contains("appears twice"), "\(duplicate)")
    }

    @Test("a slow device-name pattern is stopped by the PatternMatcher limit: no match, no hang")
    func slowDevicePattern() throws {
        let configuration = try DaemonConfiguration.decode(
            Data(
                #"""
                {"version": 1, "devices": [{"name": "(a|a)*$"}],
                 "bindings": [{"gesture": "tap", "device": {"name": "(a|aa)*b"}, "action": {"command": ["true"]}}]}
                """#.utf8), format: .json)
        let device = InputDevice(id: 0, name: String(repeating: "a", count: 40) + "!")
        #expect(configuration.devices[0].match(device) == .patternFailed(.timedOut))
        let lines = LogLines()
        let daemon = GestureDaemon(configuration: configuration, launcher: RecordingLauncher(), log: lines.log)
        #expect(!daemon.accepts(device))
        var matcher = BindingMatcher(configuration: configuration)
        #expect(matcher.process(GestureEvent(type: .tap, time: .zero, fingers: 1), from: device).isEmpty)
        #expect(matcher.takeNotes().first?.contains("bindings[0].device.name: the pattern timed out against the device") == true)
        #expect(lines.all.contains { $0.contains("devices[0].name: the pattern timed out") })
    }

    @Test("configuration files: format by extension, relative template paths, missing files")
    func files() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemon-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var library = TemplateLibrary()
        try library.add(name: "vee", points: [Point(x: 0, y: 0), Point(x: 5, y: 10), Point(x: 10, y: 0)])
        try library.jsonData().write(to: directory.appendingPathComponent("mine.json"))
        let yaml = directory.appendingPathComponent("config.yml")
        try "version: 1\ntemplates: mine.json\nbindings:\n  - {gesture: stroke, template: vee, action: {command: [x]}}\n"
            .write(to: yaml, atomically: true, encoding: .utf8)
        let configuration = try DaemonConfiguration.load(contentsOf: yaml.path)
        #expect(configuration.templates.names == ["vee"])
        #expect(throws: ConfigurationErrors.self) {
            try DaemonConfiguration.load(contentsOf: directory.appendingPathComponent("none.json").path)
        }
        do {
            _ = try DaemonConfiguration.load(contentsOf: directory.path)
        } catch {
            #expect(error.lines == ["\(directory.path): is a directory, not a file"])
        }
    }

    // MARK: Issue 16: numbers in range, messages short

    static let outOfRange: [(String, String)] = [
        (#"{"version": 1, "devices": [{"vendor": 1e300}]}"#, "devices[0].vendor: must be an integer between 0 and 65535"),
        (#"{"version": 1, "actions": {"timeoutSeconds": 1e300}}"#, "actions.timeoutSeconds: must be a number between 0.001 and 3600"),
        (#"{"version": 1, "actions": {"maximumConcurrent": 1e300}}"#, "actions.maximumConcurrent: must be an integer between 1 and 64"),
        (#"{"version": 1, "mouse": {"minimumLengthCounts": 1e300}}"#, "mouse.minimumLengthCounts: must be a number between 0 and 10000"),
        (
            withBindings(#"{"gesture": "tap", "fingers": 1e300, "action": {"command": ["x"]}}"#),
            "bindings[0].fingers: must be an integer between 1 and 5"
        ),
        (
            withBindings(#"{"gesture": "swipe", "minimumDistanceMillimeters": 1e300, "action": {"command": ["x"]}}"#),
            "bindings[0].minimumDistanceMillimeters: must be a number between 0 and 1000"
        ),
        (
            withBindings(#"{"gesture": "pinch", "minimumScale": 1e-300, "action": {"command": ["x"]}}"#),
            "bindings[0].minimumScale: must be a number between 0.01 and 100"
        ),
        (
            withBindings(#"{"gesture": "pinch", "maximumScale": 1e300, "action": {"command": ["x"]}}"#),
            "bindings[0].maximumScale: must be a number between 0.01 and 100"
        ),
        (
            withBindings(#"{"gesture": "pinch", "minimumAngleDegrees": 1e300, "action": {"command": ["x"]}}"#),
            "bindings[0].minimumAngleDegrees: must be a number between 0 and 3600"
        ),
        (
            withBindings(#"{"gesture": "pinch", "direction": "out", "action": {"command": ["x"], "phase": "continuous", "every": 1e300}}"#),
            "bindings[0].action.every: must be a number between 0.01 and 100 (scale steps)"
        ),
        (
            withBindings(#"{"gesture": "tap", "action": {"command": ["x"], "timeoutSeconds": 1e300}}"#),
            "bindings[0].action.timeoutSeconds: must be a number between 0.001 and 3600"
        ),
        (
            #"{"version": 1, "engine": {"holdDelayMilliseconds": 1e13}}"#,
            "engine.holdDelayMilliseconds: must be a number between 0 and 10000"
        ),
        (
            #"{"version": 1, "engine": {"strokeRecognition": {"resampleCount": 100000000}}}"#,
            "engine.strokeRecognition.resampleCount: must be an integer between 8 and 1024"
        ),
        (
            #"{"version": 1, "engine": {"swipeDirection": {"deadZoneDegrees": -1}}}"#,
            "engine.swipeDirection.deadZoneDegrees: must be a number between 0 and 90"
        ),
    ]

    @Test("every number out of its range is refused with the range, in JSON and YAML", arguments: outOfRange)
    func numbersOutOfRange(document: String, expected: String) throws {
        #expect(configurationErrors(document) == [expected])
        // Flow-style YAML is the same document.
        #expect(configurationErrors(document, format: .yaml) == [expected])
    }

    @Test("a sequence longer than 32 swipes gets the same message as replay --sequences")
    func longSequence() {
        let directions = Array(repeating: #""up""#, count: 40).joined(separator: ",")
        #expect(
            configurationErrors(#"{"version": 1, "sequences": [{"name": "a", "directions": [\#(directions)]}]}"#)
                == ["sequences[0].directions: \(SwipeSequenceMatcher.lengthProblem(count: 40))"])
    }

    static let longField = String(repeating: "x", count: 1_000_000)
    static let controlField = "a\r\nb\u{0C}c\u{2028}d\u{2029}e\u{0B}f\u{1B}[31mg\u{85}h"

    @Test(
        "a megabyte or control characters in a key or value give short one-line messages",
        arguments: [longField, controlField],
        [
            #"{"version": 1, FIELD: 1}"#,
            #"{"version": 1, "bindings": [{"gesture": FIELD, "action": {"command": ["x"]}}]}"#,
            #"{"version": 1, "bindings": [{"gesture": "swipe", "direction": FIELD, "action": {"command": ["x"]}}]}"#,
            #"{"version": 1, "bindings": [{"gesture": "stroke", "template": FIELD, "action": {"command": ["x"]}}]}"#,
            #"{"version": 1, "bindings": [{"gesture": "sequence", "sequence": FIELD, "action": {"command": ["x"]}}]}"#,
            #"{"version": 1, "mouse": {"button": FIELD}}"#,
            #"{"version": 1, "engine": {FIELD: 1}}"#,
            #"{"version": 1, "engine": {"strokeRecognition": {"matcher": FIELD}}}"#,
            #"{"version": 1, "sequences": [{"name": FIELD, "directions": ["up"]}, {"name": FIELD, "directions": ["down"]}]}"#,
            #"{"version": 1, "devices": [{"name": FIELD}]}"#,
            #"{"version": 1, "bindings": [{"gesture": "swipe", "fingers": 3, "action": {"keys": [FIELD]}}]}"#,
            #"{"version": 1, "bindings": [{"gesture": "swipe", "fingers": 3, "action": {"keys": ["leftmeta", "leftmeta"], "button": FIELD}}]}"#,
            #"{"version": 1, "bindings": [{"gesture": "swipe", "fingers": 3, "action": {"drag": FIELD}}]}"#,
            #"{"version": 1, "mouse": {"pointerMotion": FIELD}}"#,
        ])
    func longAndControlFields(field: String, template: String) throws {
        let json = String(decoding: try JSONEncoder().encode(field), as: UTF8.self)
        let document = template.replacingOccurrences(of: "FIELD", with: json)
        for format in DaemonConfiguration.Format.allCases {
            do {
                _ = try DaemonConfiguration.decode(Data(document.utf8), format: format)
                // A long device-name pattern is refused by its length; a short one may compile.
                #expect(field == Self.controlField && template.contains("devices"), "accepted: \(template)")
            } catch {
                for line in error.lines + [error.description] {
                    #expect(line.count <= 300, "\(format): \(line.count) characters: \(line.prefix(300))")
                    #expect(
                        !line.unicodeScalars.contains {
                            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}"
                        },
                        "\(format): \(line.prefix(300))")
                }
            }
        }
    }

    @Test("thousands of errors are listed up to a limit, then counted")
    func manyErrors() {
        let bindings = Array(repeating: #"{"gesture": "nope"}"#, count: 500).joined(separator: ",")
        do {
            _ = try DaemonConfiguration.decode(Data(withBindings(bindings).utf8), format: .json)
            Issue.record("accepted")
        } catch {
            #expect(error.lines.count == ConfigurationErrors.maximumLines + 1)
            #expect(error.lines.last == "... and \(error.errors.count - ConfigurationErrors.maximumLines) more errors")
            #expect(error.description.count < 600)
        }
    }
}
