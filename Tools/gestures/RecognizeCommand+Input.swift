import CommandLineKit
import DesktopDaemon
import GestureRecognition
import TouchInput

extension RecognizeCommand {
    /// The input a stroke is judged as, each with the daemon's rule for it:
    /// a touchpad's and a touchscreen's strokes pass the engine's stroke rule
    /// and recognizer (`engine.strokeRecognition`, lengths in millimetres), a
    /// mouse's the `mouse` section's (orientation sensitive by default,
    /// lengths in counts), as `GesturePipeline` builds them.
    enum Input: String, CaseIterable, Sendable {
        case mouse, touchpad, touchscreen

        /// `--as mouse|touchpad|touchscreen`.
        static let option = Option(
            "--as", valueName: "INPUT", .choice(Input.self),
            help: "Judge the strokes as the daemon judges this input's (default: the one the configuration draws strokes with).")

        /// The input the configuration draws strokes with, when not asked:
        /// a touchscreen, a touchpad, then a mouse (read only with a `mouse`
        /// section), the first that draws strokes; a touchscreen when none does.
        static func drawing(in configuration: DaemonConfiguration?) -> Input {
            let engine = configuration?.engine ?? GestureEngine.Configuration()
            if engine.touchscreenStrokeFingers != nil { return .touchscreen }
            if engine.touchpadStrokeFingers != nil { return .touchpad }
            return configuration?.mouse != nil ? .mouse : .touchscreen
        }

        /// The daemon's stroke rule and recognizer configuration for this input.
        func settings(_ configuration: DaemonConfiguration?) -> (rule: StrokeRule, recognition: UnistrokeRecognizer.Configuration) {
            let engine = configuration?.engine ?? GestureEngine.Configuration()
            switch self {
            case .touchpad, .touchscreen:
                return (engine.strokeRule, engine.strokeRecognition)
            case .mouse:
                let mouse = configuration?.mouse ?? DaemonConfiguration.MouseSettings()
                return (MouseStrokeEngine.Settings.rule(minimumSizeCounts: mouse.minimumSizeCounts, engine: engine), mouse.recognition)
            }
        }

        /// Which rule was used, as `recognize --explain` says it: `as a
        /// touchscreen stroke: the engine's stroke rule, lengths in mm,
        /// orientation invariant`, and why the daemon would draw none from this input.
        func ruleText(_ configuration: DaemonConfiguration?, recognition: UnistrokeRecognizer.Configuration, asked: Bool) -> String {
            let engine = configuration?.engine ?? GestureEngine.Configuration()
            let orientation: String
            switch recognition.orientation {
            case .invariant: orientation = "orientation invariant"
            case .sensitive(let degrees): orientation = "orientation sensitive (within \(rounded(degrees))°)"
            }
            var text: String
            switch self {
            case .touchpad, .touchscreen:
                text = "as a \(rawValue) stroke: the engine's stroke rule, lengths in mm, \(orientation)"
                let key = self == .touchpad ? "touchpadStrokeFingers" : "touchscreenStrokeFingers"
                if engine.strokeFingers(on: self == .touchpad ? .touchpad : .touchscreen) == nil {
                    text += "; the daemon draws no \(rawValue) strokes (engine.\(key) is not set)"
                }
            case .mouse:
                text = "as a mouse stroke: the mouse section's rule, lengths in counts, \(orientation)"
                if configuration?.mouse == nil { text += "; the daemon reads no mouse (the configuration has no mouse section)" }
            }
            if !asked { text += " (--as for another input)" }
            return text
        }
    }
}
