import GestureRecognition
import TouchInput

/// Turns a stroke drawn with a mouse into the daemon's `stroke` event: the
/// step between `LiveMouseStrokes` (points in mouse counts) and the bindings.
///
/// A mouse stroke is a `GestureEvent` of type `stroke` with no phase and
/// 0 fingers (no finger drew it), carrying the template and score, so a
/// binding `gesture: stroke, template: circle` matches it as it matches a
/// stroke drawn on a touch surface.
///
///     let recognised = MouseStrokeEvents.recognize(points, at: .seconds(2), settings: .init(), templates: .dollarShapes)
///     recognised.event   // GestureEvent(type: .stroke, fingers: 0, template: "circle", score: 0.97)
public enum MouseStrokeEvents {
    /// The finger count of a mouse stroke.
    public static let fingers = 0

    /// Recognises `points` against `templates` with the `settings`' orientation
    /// and threshold; the event is nil unless a template matched.
    ///
    /// - Complexity: O(templates x resampled points²) for the elastic matcher.
    public static func recognize(_ points: [Point], at time: Duration, settings: DaemonConfiguration.MouseSettings,
                                 templates: TemplateLibrary) -> (event: GestureEvent?, outcome: UnistrokeRecognizer.Outcome) {
        let outcome = UnistrokeRecognizer(library: templates, configuration: settings.recognition).recognize(points)
        let event = outcome.match.map {
            GestureEvent(type: .stroke, time: time, fingers: fingers, template: $0.name, score: $0.score)
        }
        return (event, outcome)
    }

    /// The evdev code of `button`: `BTN_RIGHT`, `BTN_MIDDLE` or `BTN_LEFT`.
    public static func code(_ button: DaemonConfiguration.MouseSettings.Button) -> UInt16 {
        switch button {
        case .right: BTN.RIGHT
        case .middle: BTN.MIDDLE
        case .left: BTN.LEFT
        }
    }
}
