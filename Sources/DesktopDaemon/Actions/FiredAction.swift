import GestureRecognition

/// One command to run because a binding fired, with the gesture's values in
/// its environment.
public struct FiredAction: Hashable, Sendable {
    /// The binding's name, or its path (`bindings[3]`).
    public var binding: String
    /// The program and its arguments; empty for an input action.
    public var command: [String]
    /// What the virtual keyboard or pointer does instead of a command, or nil.
    public var input: InputStep?
    /// The `GESTURE_*` variables, added to the daemon's own environment.
    public var environment: [String: String]
    /// How long the command may run before it is killed.
    public var timeout: Duration
    /// The gesture that fired it, as one readable line.
    public var gesture: String

    /// An action of `binding` running `command`.
    public init(
        binding: String, command: [String], input: InputStep? = nil, environment: [String: String] = [:],
        timeout: Duration = .seconds(10), gesture: String = ""
    ) {
        self.binding = binding
        self.command = command
        self.input = input
        self.environment = environment
        self.timeout = timeout
        self.gesture = gesture
    }

    /// Every variable ``environment(for:device:direction:binding:step:)``
    /// can set, in the order of its table: what the manual page lists.
    public static let variableNames = [
        "GESTURE_TYPE", "GESTURE_PHASE", "GESTURE_FINGERS", "GESTURE_SOURCE", "GESTURE_TIME_MS", "GESTURE_DIRECTION",
        "GESTURE_DX_MM", "GESTURE_DY_MM", "GESTURE_DISTANCE_MM", "GESTURE_EDGE", "GESTURE_SCALE", "GESTURE_ANGLE_DEGREES",
        "GESTURE_TEMPLATE", "GESTURE_SCORE", "GESTURE_SEQUENCE", "GESTURE_STEP", "GESTURE_DEVICE", "GESTURE_DEVICE_VENDOR",
        "GESTURE_DEVICE_PRODUCT", "GESTURE_BINDING",
    ]

    /// The variables for `event` from `device`; absent values are left out.
    ///
    /// | Variable | Value |
    /// |---|---|
    /// | `GESTURE_TYPE` | swipe, pinch, hold, tap, stroke, sequence |
    /// | `GESTURE_PHASE` | begin, update, end (absent for tap, stroke, sequence) |
    /// | `GESTURE_FINGERS` | the finger count (absent for a mouse's stroke) |
    /// | `GESTURE_SOURCE` | `mouse` for a stroke drawn with a mouse (absent for touch) |
    /// | `GESTURE_TIME_MS` | the event's time, in ms from the source's start |
    /// | `GESTURE_DIRECTION` | the binding's direction, else the one the engine saw: swipes up ... down_right; pinches in, out, clockwise, counterclockwise (past the engine's thresholds) |
    /// | `GESTURE_DX_MM`, `GESTURE_DY_MM` | swipes: the displacement so far (y grows down) |
    /// | `GESTURE_DISTANCE_MM` | swipes: the length of that displacement |
    /// | `GESTURE_EDGE` | swipes from an edge: top, bottom, left, right |
    /// | `GESTURE_SCALE`, `GESTURE_ANGLE_DEGREES` | pinches: spread ratio, rotation (clockwise positive) |
    /// | `GESTURE_TEMPLATE`, `GESTURE_SCORE` | strokes: the template and score |
    /// | `GESTURE_SEQUENCE` | sequences: the name |
    /// | `GESTURE_STEP` | continuous actions: 1 for the first firing of the gesture, then 2, ... |
    /// | `GESTURE_DEVICE`, `GESTURE_DEVICE_VENDOR`, `GESTURE_DEVICE_PRODUCT` | the device's name, ids as 4 hex digits |
    /// | `GESTURE_BINDING` | the binding's name or path |
    public static func environment(
        for event: GestureEvent, device: InputDevice, direction: String?, binding: String, step: Int? = nil
    ) -> [String: String] {
        let number = GestureEvent.decimalText
        var values: [String: String] =
            event.source == .touch
            ? ["GESTURE_FINGERS": String(event.fingers)] : ["GESTURE_SOURCE": event.source.rawValue]
        values.merge([
            "GESTURE_TYPE": event.type.rawValue,
            "GESTURE_TIME_MS": number(event.timeMilliseconds),
            "GESTURE_DEVICE": device.name,
            "GESTURE_DEVICE_VENDOR": hex(device.vendor),
            "GESTURE_DEVICE_PRODUCT": hex(device.product),
            "GESTURE_BINDING": binding,
        ]) { _, new in new }
        values["GESTURE_PHASE"] = event.phase?.rawValue
        values["GESTURE_DIRECTION"] = direction
        if let dx = event.dxMillimeters, let dy = event.dyMillimeters {
            values["GESTURE_DX_MM"] = number(dx)
            values["GESTURE_DY_MM"] = number(dy)
            values["GESTURE_DISTANCE_MM"] = number((dx * dx + dy * dy).squareRoot())
        }
        values["GESTURE_EDGE"] = event.edge?.rawValue
        values["GESTURE_SCALE"] = event.scale.map(number)
        values["GESTURE_ANGLE_DEGREES"] = event.angleDegrees.map(number)
        values["GESTURE_TEMPLATE"] = event.template
        values["GESTURE_SCORE"] = event.score.map(number)
        values["GESTURE_SEQUENCE"] = event.type == .sequence ? event.name : nil
        values["GESTURE_STEP"] = step.map(String.init)
        return values
    }

    static func hex(_ value: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - text.count)) + text
    }
}
