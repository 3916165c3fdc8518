import DesktopDaemon
import GestureRecognition
import Testing

@Suite("FiredAction: the GESTURE_* variables")
struct FiredActionVariablesTests {
    @Test("every variable the environment sets is in variableNames, and every one of those is set by some gesture")
    func variableNamesAreComplete() {
        let pad = InputDevice(id: 1, name: "pad", vendor: 2, product: 7)
        var swipe = GestureEvent(type: .swipe, phase: .update, time: .milliseconds(10), fingers: 3)
        (swipe.dxMillimeters, swipe.dyMillimeters, swipe.edge) = (3, 4, .top)
        var pinch = GestureEvent(type: .pinch, phase: .end, time: .milliseconds(10), fingers: 2)
        (pinch.scale, pinch.angleDegrees) = (1.5, 20)
        let stroke = GestureEvent(type: .stroke, time: .zero, fingers: 0, template: "circle", score: 0.9, source: .mouse)
        var sequence = GestureEvent(type: .sequence, time: .zero, fingers: 3)
        sequence.name = "back-and-forth"
        let set = [
            FiredAction.environment(for: swipe, device: pad, direction: "down", binding: "b", step: 2),
            FiredAction.environment(for: pinch, device: pad, direction: "out", binding: "b"),
            FiredAction.environment(for: stroke, device: pad, direction: nil, binding: "b"),
            FiredAction.environment(for: sequence, device: pad, direction: nil, binding: "b"),
        ].flatMap(\.keys)
        #expect(Set(set) == Set(FiredAction.variableNames))
        #expect(FiredAction.variableNames.count == Set(FiredAction.variableNames).count)
    }
}
