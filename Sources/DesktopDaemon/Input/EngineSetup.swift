import GestureRecognition
import TouchInput

/// The engine's configuration and stroke templates, for a source to build
/// the gesture engine of each device it opens.
public struct EngineSetup: Sendable {
    /// The thresholds and sequences.
    public var configuration: GestureEngine.Configuration
    /// The templates strokes are recognised against.
    public var templates: TemplateLibrary
    /// Mouse gestures, or nil when mice are not read.
    public var mouse: DaemonConfiguration.MouseSettings?
    /// Whether devices are taken from the desktop (``DaemonConfiguration/intercept``).
    public var intercept: Bool

    /// A setup with these parts.
    public init(
        configuration: GestureEngine.Configuration, templates: TemplateLibrary,
        mouse: DaemonConfiguration.MouseSettings? = nil, intercept: Bool = false
    ) {
        self.configuration = configuration
        self.templates = templates
        self.mouse = mouse
        self.intercept = intercept
    }

    /// What each device's gesture pipeline is built with: for mice, the
    /// `mouse` settings (their defaults without a `mouse` section), the
    /// button withheld from the desktop when intercepting, and the stroke
    /// rule's width ratio and margin of the engine's configuration.
    public var pipeline: GesturePipeline.Setup {
        GesturePipeline.Setup(
            configuration: configuration, templates: templates,
            mouse: (mouse ?? DaemonConfiguration.MouseSettings()).strokeSettings(
                withholdsButton: intercept, engine: configuration))
    }
}
