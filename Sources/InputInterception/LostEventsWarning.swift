/// The warning that the kernel dropped a device's events (`SYN_DROPPED`:
/// this program fell behind), given at most once every ``interval`` so that
/// a machine under load does not flood the log. `DeviceLoop` keeps one for
/// all its devices, touch surfaces and mice.
///
///     var lostEvents = LostEventsWarning()
///     lostEvents.sentence(node: "/dev/input/event5", cancelling: "the gesture in progress")
///     // "the kernel dropped events from /dev/input/event5 (this program fell behind); the gesture in progress is cancelled."
///     lostEvents.sentence(node: "/dev/input/event5", cancelling: "the gesture in progress")   // nil, for 10 s
package struct LostEventsWarning {
    /// How often, at most, lost events are warned about: 10 s.
    package static let interval: Duration = .seconds(10)

    private var lastWarning: ContinuousClock.Instant?

    /// No warning given yet.
    package init() {}

    /// The warning for `node`, saying that `what` is cancelled, or nil when
    /// the last warning was less than ``interval`` before `now`.
    package mutating func sentence(
        node: String, cancelling what: String,
        now: ContinuousClock.Instant = .now
    ) -> String? {
        if let lastWarning, now - lastWarning < Self.interval { return nil }
        lastWarning = now
        return "the kernel dropped events from \(node) (this program fell behind); \(what) is cancelled."
    }
}
