/// Where the daemon's gestures come from: live evdev devices (``LiveSource``),
/// a replay of recorded traces (``ReplaySource``), or anything a closure
/// produces. A source runs on the caller's thread until its input ends.
public protocol GestureSource: Sendable {
    /// Reads input and hands every gesture to `sink`, until the input ends.
    ///
    /// A source asks ``GestureSink/accepts`` before it reads a device, and
    /// ``GestureSink/engineSetup`` for the engine of each device it opens,
    /// so a reload applies to the devices opened after it.
    func run(into sink: GestureSink) throws
}
