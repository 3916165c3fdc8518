import DesktopDaemon
import Foundation
import GestureRecognition
import Testing
import TouchInput

@Suite("DaemonConfiguration: the mouse section")
struct MouseSettingsTests {
    private func decode(_ text: String, format: DaemonConfiguration.Format = .json) throws -> DaemonConfiguration {
        try DaemonConfiguration.decode(Data(text.utf8), format: format)
    }

    @Test("without a mouse section no mice are read")
    func absentMeansNoMice() throws {
        #expect(try decode(#"{"version": 1}"#).mouse == nil)
    }

    @Test("an empty mouse section takes the defaults: right button, 20 counts, orientation-sensitive, 0.75")
    func defaults() throws {
        let mouse = try #require(try decode(#"{"version": 1, "mouse": {}}"#).mouse)
        #expect(mouse == DaemonConfiguration.MouseSettings())
        #expect(mouse.button == .right && mouse.minimumLengthCounts == 20 && mouse.orientation == .sensitive && mouse.threshold == 0.75)
        #expect(mouse.recognition.orientation == .sensitive && mouse.recognition.rejectionThreshold == 0.75)
        #expect(mouse.minimumSizeCounts == 50)
        #expect(mouse.strokeSettings(withholdsButton: true).rule == MouseStrokeEngine.Settings.defaultRule)
    }

    @Test("minimumSizeCounts is the stroke rule's minimum, in counts; its width ratios and margin are the engine's")
    func minimumSizeIsTheRulesLength() throws {
        let mouse = try #require(try decode(#"{"version": 1, "mouse": {"minimumSizeCounts": 250}}"#).mouse)
        #expect(mouse.minimumSizeCounts == 250)
        var engine = GestureEngine.Configuration()
        engine.strokeMinimumMargin = 0.1
        engine.strokeMinimumWidthRatio = 0.3
        engine.strokeMinimumTemplateWidthShare = 0.5
        let rule = mouse.strokeSettings(withholdsButton: false, engine: engine).rule
        #expect(
            rule
                == StrokeRule(minimumLength: 250, unit: .counts, minimumWidthRatio: 0.3, minimumTemplateWidthShare: 0.5, minimumMargin: 0.1)
        )
    }

    @Test("every key is read, in JSON and YAML alike")
    func everyKey() throws {
        let json = try decode(
            #"{"version": 1, "mouse": {"button": "middle", "minimumLengthCounts": 50, "orientation": "invariant", "threshold": 0.8}}"#)
        let yaml = try decode(
            "version: 1\nmouse:\n  button: middle\n  minimumLengthCounts: 50\n  orientation: invariant\n  threshold: 0.8\n", format: .yaml)
        var expected = DaemonConfiguration.MouseSettings()
        expected.button = .middle
        expected.minimumLengthCounts = 50
        expected.orientation = .invariant
        expected.threshold = 0.8
        #expect(json.mouse == expected)
        #expect(yaml.mouse == expected)
        #expect(expected.recognition.orientation == .invariant)
    }

    @Test(
        "mouse errors name the key and say what is wrong",
        arguments: [
            (#"{"button": "side"}"#, "mouse.button: unknown button 'side'; expected one of right, middle, left"),
            (#"{"button": 3}"#, "mouse.button: must be a string, not a number"),
            (#"{"minimumLengthCounts": -1}"#, "mouse.minimumLengthCounts: must be a number between 0 and 10000"),
            (#"{"minimumLengthCounts": "far"}"#, "mouse.minimumLengthCounts: must be a number between 0 and 10000"),
            (#"{"minimumSizeCounts": -1}"#, "mouse.minimumSizeCounts: must be a number between 0 and 100000"),
            (#"{"orientation": "sideways"}"#, "mouse.orientation: unknown orientation 'sideways'; expected sensitive or invariant"),
            (#"{"threshold": 1.5}"#, "mouse.threshold: must be a number between 0 and 1"),
            (
                #"{"minimumLengthMillimeters": 10}"#,
                "mouse.minimumLengthMillimeters: unknown key; expected one of button, minimumLengthCounts, orientation, threshold"
            ),
            (#"true"#, "mouse: must be an object, not"),
        ])
    func errors(section: String, expected: String) {
        let errors = configurationErrors(#"{"version": 1, "mouse": \#(section)}"#)
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains(expected) == true, "got \(errors)")
    }

    @Test("the daemon's engine setup carries the mouse section to the source")
    func engineSetupCarriesMouse() throws {
        let daemon = GestureDaemon(
            configuration: try decode(#"{"version": 1, "mouse": {"button": "left"}}"#),
            launcher: RecordingLauncher(), log: LogLines().log)
        #expect(daemon.engineSetup().mouse?.button == .left)
        let touchOnly = GestureDaemon(configuration: try decode(#"{"version": 1}"#), launcher: RecordingLauncher(), log: LogLines().log)
        #expect(touchOnly.engineSetup().mouse == nil)
    }
}
