import DesktopDaemon
import EvdevInput
import Foundation
import GestureRecognition
import Testing

@Suite("DaemonConfiguration: interception, claims and input actions")
struct InterceptionSettingsTests {
    private func decode(_ text: String, format: DaemonConfiguration.Format = .json) throws -> DaemonConfiguration {
        try DaemonConfiguration.decode(Data(text.utf8), format: format)
    }

    @Test("the daemon intercepts unless the file says intercept: false")
    func interceptDefault() throws {
        #expect(try decode(#"{"version": 1}"#).intercept)
        #expect(try !decode(#"{"version": 1, "intercept": false}"#).intercept)
        #expect(try !decode("version: 1\nintercept: false\n", format: .yaml).intercept)
    }

    @Test(
        "claims default to swipes, pinches, holds and taps of 3 or more fingers",
        arguments: [
            (#""gesture": "swipe", "fingers": 3"#, true),
            (#""gesture": "swipe", "fingers": 4, "direction": "left""#, true),
            (#""gesture": "pinch", "fingers": 5"#, true),
            (#""gesture": "hold", "fingers": 3"#, true),
            (#""gesture": "tap", "fingers": 3"#, true),
            (#""gesture": "swipe", "fingers": 2"#, false),
            (#""gesture": "pinch""#, false),
            (#""gesture": "tap", "fingers": 1"#, false),
            (#""gesture": "stroke", "fingers": 3"#, false),
            (#""gesture": "sequence", "sequence": "s""#, false),
            (#""gesture": "pinch", "fingers": 2, "claim": true"#, true),
            (#""gesture": "swipe", "fingers": 3, "claim": false"#, false),
        ])
    func claimDefaults(body: String, claimed: Bool) throws {
        let text =
            #"{"version": 1, "sequences": [{"name": "s", "directions": ["up", "down"]}], "bindings": [{\#(body), "action": {"command": ["true"]}}]}"#
        #expect(try decode(text).bindings[0].claim == claimed)
    }

    @Test(
        "interception errors name the key",
        arguments: [
            (#"{"version": 1, "intercept": "yes"}"#, "intercept: must be true or false, not a string"),
            (
                withBindings(#"{"gesture": "swipe", "claim": 1, "action": {"command": ["true"]}}"#),
                "bindings[0].claim: must be true or false, not a number"
            ),
            (
                #"{"version": 1, "sequences": [{"name": "s", "directions": ["up", "down"]}], "bindings": [{"gesture": "sequence", "sequence": "s", "claim": true, "action": {"command": ["true"]}}]}"#,
                "bindings[0].claim: does not apply to a sequence binding"
            ),
            (
                withBindings(#"{"gesture": "tap", "action": {"keys": ["lefmeta"]}}"#),
                "bindings[0].action.keys[0]: unknown key 'lefmeta'; did you mean 'leftmeta'?"
            ),
            (
                withBindings(#"{"gesture": "tap", "action": {"keys": ["leftmeta", "KEY_LEFTMETA"]}}"#),
                "bindings[0].action.keys[1]: names 'KEY_LEFTMETA' twice"
            ),
            (withBindings(#"{"gesture": "tap", "action": {"keys": []}}"#), "bindings[0].action.keys: must name at least one key"),
            (withBindings(#"{"gesture": "tap", "action": {"keys": "leftmeta"}}"#), "bindings[0].action.keys: must be a list, not a string"),
            (
                withBindings(#"{"gesture": "tap", "action": {"keys": ["a", "b", "c", "d", "e", "f", "g", "h", "i"]}}"#),
                "bindings[0].action.keys: 9 keys, over the limit of 8"
            ),
            (
                withBindings(#"{"gesture": "tap", "action": {"button": "side"}}"#),
                "bindings[0].action.button: unknown button 'side'; expected one of right, middle, left"
            ),
            (
                withBindings(#"{"gesture": "tap", "action": {"command": ["true"], "keys": ["a"]}}"#),
                "bindings[0].action.keys: cannot be combined with command"
            ),
            (
                withBindings(#"{"gesture": "tap", "action": {"keys": ["a"], "timeoutSeconds": 2}}"#),
                "bindings[0].action.timeoutSeconds: applies to commands only"
            ),
            (
                withBindings(#"{"gesture": "pinch", "action": {"drag": "left"}}"#),
                "bindings[0].action.drag: a drag follows a swipe; this binding's gesture is pinch"
            ),
            (
                withBindings(#"{"gesture": "swipe", "action": {"drag": "left", "phase": "begin"}}"#),
                "bindings[0].action.phase: does not apply to a drag"
            ),
            (
                withBindings(#"{"gesture": "swipe", "direction": "up", "action": {"drag": "left"}}"#),
                "bindings[0].direction: does not apply to a drag"
            ),
            (
                #"{"version": 1, "mouse": {"pressAfterMilliseconds": -1}}"#,
                "mouse.pressAfterMilliseconds: must be a number between 0 and 5000"
            ),
            (
                #"{"version": 1, "mouse": {"pointerMotion": "freeze"}}"#,
                "mouse.pointerMotion: unknown choice 'freeze'; expected pass or withhold"
            ),
        ])
    func errors(document: String, expected: String) {
        let errors = configurationErrors(document)
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains(expected) == true, "got \(errors)")
    }

    @Test("keys, button and drag actions are read with their codes")
    func inputActions() throws {
        let configuration = try decode(
            withBindings(
                """
                {"gesture": "swipe", "fingers": 4, "direction": "right", "action": {"keys": ["leftmeta", "Right"]}},
                {"gesture": "tap", "fingers": 3, "action": {"button": "middle", "phase": "end"}},
                {"gesture": "swipe", "fingers": 3, "action": {"drag": "left"}}
                """))
        let actions = configuration.bindings.map(\.action)
        #expect(actions[0].input == .keys([.init(name: "leftmeta", code: 125), .init(name: "right", code: 106)]))
        #expect(actions[0].command.isEmpty && actions[0].summary == "keys leftmeta+right")
        #expect(actions[1].input == .click(.middle))
        #expect(actions[2].input == .drag(.left))
        #expect(configuration.usesInputActions)
        #expect(try !decode(withBindings(#"{"gesture": "tap", "action": {"command": ["true"]}}"#)).usesInputActions)
    }

    @Test("the mouse's press delay and pointer motion are read")
    func mouseInterception() throws {
        let mouse = try #require(
            try decode(#"{"version": 1, "mouse": {"pressAfterMilliseconds": 450, "pointerMotion": "withhold"}}"#).mouse)
        #expect(mouse.pressAfter == .milliseconds(450) && mouse.pointerMotion == .withhold)
        let defaults = DaemonConfiguration.MouseSettings()
        #expect(defaults.pressAfter == .milliseconds(300) && defaults.pointerMotion == .pass)
    }

    @Test("a device's policy has the claims of the bindings that apply to it")
    func policyPerDevice() throws {
        let configuration = try decode(
            withBindings(
                """
                {"gesture": "swipe", "fingers": 3, "direction": "left", "action": {"command": ["a"]}},
                {"gesture": "swipe", "fingers": 4, "direction": "up", "action": {"command": ["b"]}},
                {"gesture": "swipe", "fingers": 4, "action": {"command": ["c"]}},
                {"gesture": "pinch", "fingers": 2, "claim": true, "device": {"name": "Apple.*"}, "action": {"command": ["d"]}},
                {"gesture": "swipe", "fingers": 2, "action": {"command": ["e"]}}
                """))
        let synaptics = configuration.interceptionPolicy(for: InputDevice(id: 1, name: "SynPS/2 Synaptics TouchPad"))
        #expect(synaptics.notes.isEmpty)
        #expect(synaptics.policy.claims == [.init(gesture: .swipe, fingers: 3, direction: .left), .init(gesture: .swipe, fingers: 4)])
        #expect(synaptics.policy.claimedFingerCounts == [3, 4])
        let apple = configuration.interceptionPolicy(for: InputDevice(id: 2, name: "Apple Inc. Magic Trackpad"))
        #expect(apple.policy.claimedFingerCounts == [2, 3, 4])
    }

    @Test("a daemon answers the policy of the configuration it has now")
    func daemonPolicyFollowsReloads() throws {
        let pad = InputDevice(id: 1, name: "pad")
        let daemon = GestureDaemon(
            configuration: try decode(withBindings(#"{"gesture": "swipe", "fingers": 3, "action": {"command": ["a"]}}"#)),
            launcher: RecordingLauncher(), inputDevices: RecordingInputDevices(), log: LogLines().log)
        #expect(daemon.interceptionPolicy(for: pad).claimedFingerCounts == [3])
        daemon.apply(try decode(withBindings(#"{"gesture": "swipe", "fingers": 4, "action": {"command": ["a"]}}"#)))
        #expect(daemon.interceptionPolicy(for: pad).claimedFingerCounts == [4])
        #expect(daemon.engineSetup().intercept)
    }
}
