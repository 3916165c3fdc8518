import GestureRecognition
import TouchInput

/// Mouse gestures from live mice: opens the mice, turns button-held motion
/// into strokes with one `MouseStrokeTracker` per device, and hands out each
/// finished or cancelled stroke. `gestures strokes`, `gestures train --device`
/// and the daemon's `LiveSource` all read mice through it.
///
/// - A stroke is handed out ``unplugGrace`` (100 ms) after its button comes
///   up: unplugging a mouse makes the kernel release its buttons just before
///   the device goes, and that stroke must end cancelled, not recognised.
/// - After `SYN_DROPPED` the stroke in progress is cancelled (with a warning
///   at most every 10 s, `LostEventsWarning`); the resync frame is state, not motion, so a button
///   it shows held was pressed during the loss and starts no stroke.
/// - A device that goes away cancels its stroke (pending or in progress) and
///   is dropped; with ``Selection/mice(in:)`` new mice are picked up through
///   an inotify watch on the directory.
///
///     let live = try LiveMouseStrokes(selection: .mice(in: "/dev/input")) { _ in LiveMouseStrokes.Setup() }
///     try live.run { output in
///         if case .stroke(let points, _) = output { print(recognizer.recognize(points)) }
///         return true
///     }
public final class LiveMouseStrokes {
    /// Which devices to read.
    public enum Selection {
        /// Every mouse in the directory, including those plugged in later.
        case mice(in: String)
        /// Exactly this device, whatever its kind; no others are picked up.
        case device(EvdevDevice)
    }

    /// One device being read (the same description `LiveGestures` gives).
    public typealias Device = LiveGestures.Device

    /// How one device's strokes are drawn.
    public struct Setup: Sendable, Hashable {
        /// The button that draws (`BTN_RIGHT` by default).
        public var button: UInt16
        /// The path length, in mouse counts, below which a press is a click.
        public var minimumLengthCounts: Double

        /// A setup; the defaults are `MouseStrokeTracker`'s.
        public init(button: UInt16 = BTN.RIGHT, minimumLengthCounts: Double = 20) {
            self.button = button
            self.minimumLengthCounts = minimumLengthCounts
        }
    }

    /// What `run` hands out.
    public enum Output: Sendable {
        /// A device is now read (at the start, or plugged in later).
        case opened(Device)
        /// A finished stroke: its points in mouse counts from where the button
        /// went down (y grows downwards).
        case stroke([Point], Device)
        /// A stroke cut short, with the reason (`events were lost`, `the device is gone`).
        case cancelled(reason: String, Device)
        /// The device failed (usually it went away) and is no longer read;
        /// its stroke, if any, was handed out as cancelled just before.
        case removed(Device, EvdevError)
    }

    /// How long a device must outlive a button release for the stroke to count:
    /// unplugging a mouse makes the kernel release its buttons just before it goes.
    public static let unplugGrace: Duration = .milliseconds(100)

    /// Wakes `run` from another thread or a signal source; `run` then returns.
    public var waker: EvdevReader.Waker { reader.waker }
    /// The devices being read, in the order they were opened.
    public var devices: [Device] { open.values.map(\.device).sorted { $0.id < $1.id } }

    private let setup: (Device) -> Setup?
    private let warn: (String) -> Void
    private let reader: EvdevReader
    private let followsNewMice: Bool
    private var open: [ObjectIdentifier: (device: Device, tracker: MouseStrokeTracker)] = [:]
    private var pending: [Output] = []
    private var nextID = 1

    /// Opens the selected devices and, for ``Selection/mice(in:)``, watches
    /// the directory for new ones.
    ///
    /// - Parameters:
    ///   - selection: which devices to read.
    ///   - setup: how a device about to be read draws, or nil to leave it alone.
    ///   - warn: where one-sentence warnings go (standard error by default).
    /// - Throws: `.permissionDenied` when no mouse could be opened and some
    ///   node was denied; the reader's errors.
    /// The corresponding C functions are `opendir`, `inotify_init1` and `libevdev_new_from_fd`.
    public init(selection: Selection, setup: @escaping (Device) -> Setup?,
                warn: @escaping (String) -> Void = LiveGestures.standardError) throws(EvdevError) {
        self.setup = setup
        self.warn = warn
        reader = try EvdevReader()
        switch selection {
        case .device(let device):
            followsNewMice = false
            adopt(device, anyKind: true)
        case .mice(let directory):
            followsNewMice = true
            try reader.watchForNewDevices(in: directory)
            var denied: EvdevError?
            for path in LiveGestures.eventNodes(in: directory) {
                do { adopt(try EvdevDevice(path: path), anyKind: false) } catch {
                    if case .permissionDenied = error { denied = error }
                }
            }
            if open.isEmpty, let denied { throw denied }
        }
    }

    /// Reads until `handle` returns false or the waker is woken, handing out
    /// every device opened and every stroke. A stroke still held when it
    /// returns is dropped, as a stroke whose button never came up.
    /// The corresponding C function is `poll` (through `EvdevReader.wait`).
    public func run(_ handle: (Output) -> Bool) throws(EvdevError) {
        let clock = ContinuousClock()
        var due: [ObjectIdentifier: (points: [Point], at: ContinuousClock.Instant)] = [:]
        var lostEvents = LostEventsWarning()
        for output in pending { guard handle(output) else { return } }
        pending = []
        while true {
            let timeout = due.values.map(\.at).min().map { max(.zero, $0 - clock.now) }
            let batch = try reader.wait(timeout: timeout)
            if batch.woken { return }
            for (evdev, output) in batch.outputs {
                let key = ObjectIdentifier(evdev)
                switch output {
                case .added:
                    adopt(evdev, anyKind: false)
                    for output in pending { guard handle(output) else { return } }
                    pending = []
                case .removed(let error):
                    guard var entry = open.removeValue(forKey: key) else { continue }
                    if entry.tracker.cancel() != nil || due.removeValue(forKey: key) != nil {
                        guard handle(.cancelled(reason: "the device is gone", entry.device)) else { return }
                    }
                    guard handle(.removed(entry.device, error)) else { return }
                case .resynced:
                    guard var entry = open[key] else { continue }
                    let wasDrawing = entry.tracker.cancel() != nil
                    open[key] = entry
                    if let sentence = lostEvents.sentence(node: entry.device.node, cancelling: "a stroke in progress") {
                        warn(sentence)
                    }
                    if wasDrawing { guard handle(.cancelled(reason: "events were lost", entry.device)) else { return } }
                case .frame(let frame):
                    guard var entry = open[key] else { continue }
                    if case .ended(let points)? = entry.tracker.process(frame) {
                        due[key] = (points, clock.now + Self.unplugGrace)
                    }
                    open[key] = entry
                }
            }
            for (key, stroke) in due.sorted(by: { $0.value.at < $1.value.at }) where stroke.at <= clock.now {
                due[key] = nil
                guard let device = open[key]?.device else { continue }
                guard handle(.stroke(stroke.points, device)) else { return }
            }
        }
    }

    /// Starts reading `evdev` if it is a mouse (or `anyKind`) and `setup` wants it.
    private func adopt(_ evdev: EvdevDevice, anyKind: Bool) {
        let isRead = reader.devices.contains { $0 === evdev }
        guard anyKind || evdev.description.kind == .mouse else {
            if isRead { reader.remove(evdev) }
            return
        }
        let device = Device(id: nextID, node: evdev.path, description: evdev.description)
        guard let chosen = setup(device) else {
            if isRead { reader.remove(evdev) }
            return
        }
        nextID += 1
        open[ObjectIdentifier(evdev)] = (device, MouseStrokeTracker(button: chosen.button, minimumLengthCounts: chosen.minimumLengthCounts))
        if !isRead { reader.add(evdev) }
        pending.append(.opened(device))
    }
}
