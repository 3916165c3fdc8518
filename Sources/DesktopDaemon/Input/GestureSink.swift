import GestureRecognition
import InputInterception
import TouchInput

/// What a ``GestureSource`` hands its gestures to.
public struct GestureSink: Sendable {
    /// Whether the configuration's device matchers take `device`.
    public var accepts: @Sendable (_ device: InputDevice) -> Bool
    /// The engine setup for a device opened now.
    public var engineSetup: @Sendable () -> EngineSetup
    /// Takes one gesture event from `device`.
    public var deliver: @Sendable (_ event: GestureEvent, _ device: InputDevice) -> Void
    /// Takes one stroke drawn on `device`, with the verdict of the stroke
    /// rule: the daemon logs the ones that fire nothing, with the reason
    /// (an accepted one also comes to ``deliver`` as its `stroke` event).
    public var strokeDrawn: @Sendable (_ stroke: DrawnStroke, _ device: InputDevice) -> Void
    /// Told that `device` went away (after its cancelled gesture was delivered),
    /// so what the daemon keeps for it can be forgotten.
    public var deviceRemoved: @Sendable (_ device: InputDevice) -> Void
    /// What is claimed on `device`, for a source that intercepts it: asked
    /// when the fingers land or a mouse's stroke button goes down, with the
    /// focus the gesture that starts is then matched with. `time` is nil
    /// live (the focus of now) and a replay's moment on the gestures' clock
    /// (the focus a recorded focus gives for it).
    public var interceptionPolicy: @Sendable (_ device: InputDevice, _ time: Duration?) -> PassThroughFilter.Policy
    /// Told once a live source has offered every device present when it
    /// started (``accepts`` was asked of each), before it reads them.
    public var startedReading: @Sendable () -> Void
    /// The daemon's log, for a source's own notes (a trace that cannot be read).
    public var log: DaemonLog
    /// Whether anyone draws the devices' frames now (a page of `gestures ui`
    /// watching the daemon): a source hands ``frame`` its decoded frames
    /// only then, so an unwatched daemon does nothing more per frame.
    public var watchesFrames: @Sendable () -> Bool
    /// Takes one decoded frame of `device` (described by `description`), at
    /// `time` on the gestures' clock, before the gestures of the same frame.
    public var frame: @Sendable (_ frame: TouchFrame, _ time: Duration, _ device: InputDevice, _ description: DeviceDescription) -> Void
    /// Whether anyone records the devices' events now (a page of `gestures
    /// ui` writing a trace): a source hands ``events`` each frame's events only then.
    public var recordsEvents: @Sendable () -> Bool
    /// Takes the events of one frame of `device` as the device sent them (or a trace holds them).
    public var events: @Sendable (_ events: [InputEvent], _ device: InputDevice, _ description: DeviceDescription) -> Void

    /// A sink from its parts.
    public init(
        accepts: @escaping @Sendable (InputDevice) -> Bool,
        engineSetup: @escaping @Sendable () -> EngineSetup,
        deliver: @escaping @Sendable (GestureEvent, InputDevice) -> Void,
        strokeDrawn: @escaping @Sendable (DrawnStroke, InputDevice) -> Void = { _, _ in },
        deviceRemoved: @escaping @Sendable (InputDevice) -> Void = { _ in },
        interceptionPolicy: @escaping @Sendable (InputDevice, Duration?) -> PassThroughFilter.Policy = { _, _ in
            PassThroughFilter.Policy()
        },
        startedReading: @escaping @Sendable () -> Void = {},
        log: DaemonLog,
        watchesFrames: @escaping @Sendable () -> Bool = { false },
        frame: @escaping @Sendable (TouchFrame, Duration, InputDevice, DeviceDescription) -> Void = { _, _, _, _ in },
        recordsEvents: @escaping @Sendable () -> Bool = { false },
        events: @escaping @Sendable ([InputEvent], InputDevice, DeviceDescription) -> Void = { _, _, _ in }
    ) {
        self.accepts = accepts
        self.engineSetup = engineSetup
        self.deliver = deliver
        self.strokeDrawn = strokeDrawn
        self.deviceRemoved = deviceRemoved
        self.interceptionPolicy = interceptionPolicy
        self.startedReading = startedReading
        self.log = log
        self.watchesFrames = watchesFrames
        self.frame = frame
        self.recordsEvents = recordsEvents
        self.events = events
    }
}
