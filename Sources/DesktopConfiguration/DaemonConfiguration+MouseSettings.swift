import GestureRecognition
import TouchInput

extension DaemonConfiguration {
    /// The `mouse` section: shapes drawn with a mouse while a button is held
    /// are recognised against ``DaemonConfiguration/templates`` and delivered
    /// as `stroke` events (no phase, 0 fingers).
    public struct MouseSettings: Hashable, Sendable {
        /// The button held while drawing.
        public enum Button: String, Hashable, Sendable, CaseIterable {
            /// `BTN_RIGHT`, `BTN_MIDDLE` or `BTN_LEFT`.
            case right, middle, left
        }

        /// What the pointer does while a stroke is drawn, when the daemon intercepts.
        public enum PointerMotion: String, Hashable, Sendable, CaseIterable {
            /// It moves, as without the daemon (the default).
            case pass
            /// It stays where the stroke began.
            case withhold
        }

        /// Whether the direction a shape is drawn in matters.
        public enum Orientation: String, Hashable, Sendable, CaseIterable {
            /// A shape matches only within 30 degrees of its template's
            /// orientation: a line drawn right-to-left is not one drawn left-to-right.
            case sensitive
            /// A shape matches in any orientation (the $1 study's setting).
            case invariant
        }

        /// The button that draws (default right).
        public var button = Button.right
        /// The path length below which a press is a click, in mouse counts: the
        /// kernel's `REL_X`/`REL_Y` units, before pointer acceleration (about
        /// 0.025 mm each on a 1,000 dpi mouse). Default 20.
        public var minimumLengthCounts = 20.0
        /// The smallest stroke that fires, in mouse counts: the diagonal of
        /// the box round its path (the stroke rule's length rule, as
        /// `engine.strokeMinimumLengthMillimeters` is on touch surfaces; the
        /// width ratio and margin are the engine's). A smaller one is logged
        /// as rejected, `too short: 31.2 of 50 counts`. Default 50.
        public var minimumSizeCounts = MouseStrokeEngine.Settings.defaultMinimumSizeCounts
        /// Whether orientation matters (default sensitive).
        public var orientation = Orientation.sensitive
        /// Best scores below this (in 0...1) are no match (default 0.75).
        public var threshold = 0.75
        /// When the daemon intercepts: how long a press of the button held
        /// still (moving less than ``minimumLengthCounts``) waits before it
        /// reaches applications as a press, so that drags with the button
        /// still work. Default 300 ms.
        public var pressAfter: Duration = .milliseconds(300)
        /// When the daemon intercepts: whether the pointer moves while a stroke is drawn (default pass).
        public var pointerMotion = PointerMotion.pass

        /// The defaults.
        public init() {}

        /// The recognizer's configuration for these settings.
        public var recognition: UnistrokeRecognizer.Configuration {
            UnistrokeRecognizer.Configuration(
                orientation: orientation == .sensitive ? .sensitive : .invariant,
                rejectionThreshold: threshold)
        }
    }
}
