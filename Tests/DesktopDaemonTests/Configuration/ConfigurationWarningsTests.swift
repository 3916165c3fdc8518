import DesktopDaemon
import Foundation
import Testing

@Suite("configuration warnings: bindings that cannot fire, or fire together")
struct ConfigurationWarningsTests {
    func configuration(_ yaml: String) throws -> DaemonConfiguration {
        try DaemonConfiguration.decode(Data(yaml.utf8), format: .yaml)
    }

    @Test("touchpadStrokeFingers: 3 makes the 3-finger swipe bindings never fire on touchpads, and says so at their fingers")
    func strokeFingersTakeSwipes() throws {
        let warnings = try configuration(
            """
            version: 1
            engine: {touchpadStrokeFingers: 3}
            bindings:
              - {gesture: swipe, fingers: 3, direction: left, action: {command: [a]}}
              - {gesture: swipe, fingers: 4, direction: left, action: {command: [b]}}
              - {gesture: pinch, fingers: 3, action: {command: [c]}}
              - {gesture: tap, fingers: 3, action: {command: [d]}}
            """
        ).warnings()
        #expect(
            warnings.map(\.description) == [
                "bindings[0].fingers: engine.touchpadStrokeFingers: 3 makes every 3-finger motion on touchpads a drawn stroke, so this 3-finger swipe never fires there",
                "bindings[2].fingers: engine.touchpadStrokeFingers: 3 makes every 3-finger motion on touchpads a drawn stroke, so this 3-finger pinch never fires there",
            ])
        // The default: one finger draws on touchscreens only.
        let touchscreen = try configuration("version: 1\nbindings:\n  - {gesture: swipe, fingers: 1, action: {command: [a]}}\n").warnings()
        #expect(touchscreen.map(\.path) == ["bindings[0].fingers"])
        #expect(touchscreen.first?.message.contains("engine.touchscreenStrokeFingers: 1") == true)
        let both = try configuration(
            "version: 1\nengine: {touchpadStrokeFingers: 1}\nbindings:\n  - {gesture: swipe, fingers: 1, action: {command: [a]}}\n"
        ).warnings()
        #expect(both.first?.message.hasSuffix("so this 1-finger swipe never fires") == true)
    }

    @Test("a catch-all 3-finger drag fires together with each 3-finger swipe binding, and the earlier fires first")
    func firingTogether() throws {
        let warnings = try configuration(
            """
            version: 1
            bindings:
              - {name: next workspace, gesture: swipe, fingers: 3, direction: left, action: {command: [xdotool, key, super+Right]}}
              - {gesture: swipe, fingers: 3, direction: up, action: {phase: continuous, every: 5, command: [wpctl]}}
              - {gesture: swipe, fingers: 4, direction: right, action: {keys: [leftmeta, pagedown]}}
              - {gesture: swipe, fingers: 3, action: {drag: left}}
              - {gesture: pinch, direction: in, action: {command: [zoom-out]}}
              - {gesture: pinch, direction: out, action: {command: [zoom-in]}}
            """
        ).warnings()
        #expect(
            warnings.map(\.description) == [
                "bindings[3]: fires together with bindings[0] ('next workspace') for one 3-finger swipe left; bindings[0] fires first, being earlier in the file",
                "bindings[3]: fires together with bindings[1] for one 3-finger swipe up; bindings[1] fires first, being earlier in the file",
            ])
    }

    @Test("a gesture that meets both bindings' conditions finds them together: an edge swipe without a direction and a 4-finger swipe")
    func firingTogetherWhereConditionsMeet() throws {
        let warnings = try configuration(
            """
            version: 1
            bindings:
              - {gesture: swipe, fingers: 4, edge: top, action: {command: [c]}}
              - {gesture: swipe, fingers: 4, direction: down, action: {command: [d]}}
              - {gesture: swipe, edge: left, action: {command: [e]}}
              - {gesture: swipe, fingers: 2, direction: right, action: {command: [f]}}
            """
        ).warnings()
        #expect(
            warnings.map(\.description) == [
                "bindings[1]: fires together with bindings[0] for one 4-finger swipe down from the top edge; bindings[0] fires first, being earlier in the file",
                "bindings[2]: fires together with bindings[1] for one 4-finger swipe down from the left edge; bindings[1] fires first, being earlier in the file",
                "bindings[3]: fires together with bindings[2] for one 2-finger swipe right from the left edge; bindings[2] fires first, being earlier in the file",
            ])
    }

    @Test("a binding whose finger count its gesture never has: strokes no surface draws with, one-finger pinches")
    func fingerCountsNoGestureHas() throws {
        let warnings = try configuration(
            """
            version: 1
            engine: {touchpadStrokeFingers: 3}
            bindings:
              - {gesture: stroke, fingers: 2, template: circle, action: {command: [a]}}
              - {gesture: stroke, fingers: 3, template: circle, action: {command: [b]}}
              - {gesture: stroke, fingers: 1, template: check, action: {command: [c]}}
              - {gesture: pinch, fingers: 1, action: {command: [d]}}
              - {gesture: pinch, fingers: 2, action: {command: [e]}}
            """
        ).warnings()
        #expect(
            warnings.map(\.description) == [
                "bindings[0].fingers: strokes are drawn with 1 on touchscreens (engine.touchscreenStrokeFingers) and 3 on touchpads (engine.touchpadStrokeFingers), so this 2-finger stroke never fires",
                "bindings[3].fingers: a pinch takes two fingers or more, so this 1-finger pinch never fires",
            ])
        let noPad = try configuration(
            "version: 1\nbindings:\n  - {gesture: stroke, fingers: 3, template: circle, action: {command: [a]}}\n"
        ).warnings()
        #expect(noPad.first?.message.contains("none on touchpads (engine.touchpadStrokeFingers is not set)") == true, "\(noPad)")
    }

    @Test("a sequence binding whose swipes fire swipe bindings too names them")
    func sequenceSwipesFireSwipes() throws {
        let warnings = try configuration(
            """
            version: 1
            sequences:
              - {name: back-and-forth, directions: [left, right]}
            bindings:
              - {name: back, gesture: swipe, fingers: 3, direction: left, action: {command: [a]}}
              - {gesture: swipe, fingers: 3, direction: up, action: {command: [b]}}
              - {gesture: swipe, fingers: 4, direction: right, action: {command: [c]}}
              - {gesture: sequence, sequence: back-and-forth, fingers: 3, action: {command: [d]}}
            """
        ).warnings()
        #expect(
            warnings.map(\.description) == [
                "bindings[3]: each swipe of sequence 'back-and-forth' (left, right) is a swipe too, so bindings[0] ('back') also fires on the way to it"
            ])
    }

    @Test("a swipe's minimum distance longer than every touch surface it can come from never fires; unknown sizes say nothing")
    func minimumDistanceLongerThanTheSurface() throws {
        let configuration = try configuration(
            """
            version: 1
            bindings:
              - {gesture: swipe, fingers: 3, minimumDistanceMillimeters: 900, action: {command: [a]}}
              - {gesture: swipe, fingers: 4, minimumDistanceMillimeters: 50, action: {command: [b]}}
            """)
        let pad = InputDevice(id: 1, name: "SynPS/2 Synaptics TouchPad", diagonalMillimeters: 112.4)
        #expect(
            configuration.warnings(devices: [pad, InputDevice(id: 2, name: "mouse", isMouse: true)]).map(\.description) == [
                "bindings[0].minimumDistanceMillimeters: 900 mm is longer than the diagonal of every touch surface it can come from ('SynPS/2 Synaptics TouchPad' 112 mm), so this swipe never fires"
            ])
        #expect(configuration.warnings(devices: [pad, InputDevice(id: 3, name: "unknown size")]).isEmpty)
        #expect(configuration.warnings(devices: [InputDevice(id: 2, name: "mouse", isMouse: true)]).isEmpty)
    }

    @Test("bindings that cannot meet (other fingers, directions, templates, edges) give no warning")
    func distinctBindings() throws {
        let warnings = try configuration(
            """
            version: 1
            bindings:
              - {gesture: swipe, fingers: 3, direction: left, action: {command: [a]}}
              - {gesture: swipe, fingers: 3, direction: right, action: {command: [b]}}
              - {gesture: swipe, fingers: 4, edge: top, direction: up, action: {command: [c]}}
              - {gesture: swipe, fingers: 4, direction: down, action: {command: [d]}}
              - {gesture: stroke, template: circle, action: {command: [e]}}
              - {gesture: stroke, template: check, action: {command: [f]}}
              - {gesture: tap, fingers: 2, action: {command: [g]}}
              - {gesture: tap, fingers: 3, action: {command: [h]}}
            """
        ).warnings()
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test("a device filter that matches none of the devices known never fires, with the devices named")
    func deviceFilterMatchesNothing() throws {
        let configuration = try configuration(
            """
            version: 1
            bindings:
              - {gesture: tap, fingers: 3, device: {name: ".*Touchscreen.*"}, action: {command: [a]}}
              - {gesture: tap, fingers: 2, device: {name: ".*TouchPad"}, action: {command: [b]}}
            """)
        let pad = InputDevice(id: 1, name: "SynPS/2 Synaptics TouchPad")
        #expect(
            configuration.warnings(devices: [pad]).map(\.description) == [
                "bindings[0].device: matches no device gestures can come from (there are 'SynPS/2 Synaptics TouchPad'), so the binding never fires"
            ])
        // Devices that share a name are named once, with how many.
        let mice = [pad, InputDevice(id: 2, name: "Logitech USB Receiver"), InputDevice(id: 3, name: "Logitech USB Receiver")]
        #expect(
            configuration.warnings(devices: mice).first?.message
                == "matches no device gestures can come from (there are 'SynPS/2 Synaptics TouchPad', 'Logitech USB Receiver' (2 devices)), so the binding never fires"
        )
        #expect(configuration.warnings().isEmpty, "without devices, nothing is said of filters")
        #expect(configuration.warnings(devices: [pad, InputDevice(id: 2, name: "Atmel maXTouch Touchscreen")]).isEmpty)
    }
}
