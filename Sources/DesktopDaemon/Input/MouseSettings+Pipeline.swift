import GestureRecognition
import TouchInput

extension DaemonConfiguration.MouseSettings {
    /// The settings of a mouse's pipeline (`MouseStrokeEngine`) for this
    /// `mouse` section: the one place the section becomes the pipeline's, for
    /// live mice, `gestures run --replay` and `gestures replay` alike. The
    /// stroke rule takes its width ratio and margin from `engine`.
    public func strokeSettings(
        withholdsButton: Bool, engine: GestureEngine.Configuration = GestureEngine.Configuration()
    ) -> MouseStrokeEngine.Settings {
        MouseStrokeEngine.Settings(
            strokes: StrokeButtonFilter.Settings(
                button: button.code, minimumLengthCounts: minimumLengthCounts,
                pressDelay: pressAfter, passesMotion: pointerMotion == .pass),
            recognition: recognition,
            rule: MouseStrokeEngine.Settings.rule(minimumSizeCounts: minimumSizeCounts, engine: engine),
            withholdsButton: withholdsButton)
    }
}

extension DaemonConfiguration.MouseSettings.Button {
    /// The evdev code of the button: `BTN_RIGHT`, `BTN_MIDDLE` or `BTN_LEFT`.
    public var code: UInt16 {
        switch self {
        case .right: BTN.RIGHT
        case .middle: BTN.MIDDLE
        case .left: BTN.LEFT
        }
    }
}
