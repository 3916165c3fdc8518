import GestureRecognition
import InputInterception
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
/// - With an ``Interception``, each mouse gets a uinput clone and is grabbed;
///   a ``StrokeButtonFilter`` keeps the stroke button from the clone, so a
///   stroke never clicks (a short press reaches it as a click, a press held
///   still as a press, which abandons the stroke). Devices this package made
///   are skipped then.
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

    /// How one device's strokes are drawn, and told from clicks and presses
    /// when intercepting: the stroke button filter's settings.
    public typealias Setup = StrokeButtonFilter.Settings

    /// What `run` hands out.
    public enum Output: Sendable {
        /// A device is now read (at the start, or plugged in later); its
        /// `cloneNode` is set when it is intercepted.
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
    private let interception: Interception?
    private var open: [ObjectIdentifier: Entry] = [:]
    private var pending: [Output] = []
    private var nextID = 1

    /// Opens the selected devices and, for ``Selection/mice(in:)``, watches
    /// the directory for new ones.
    ///
    /// - Parameters:
    ///   - selection: which devices to read.
    ///   - setup: how a device about to be read draws, or nil to leave it alone.
    ///   - warn: where one-sentence warnings go (standard error by default).
    ///   - interception: when given, each mouse is cloned and grabbed, and
    ///     strokes kept from the clone.
    /// - Throws: `.permissionDenied` when no mouse could be opened and some
    ///   node was denied; the reader's errors.
    /// The corresponding C functions are `opendir`, `inotify_init1` and `libevdev_new_from_fd`.
    public init(selection: Selection, setup: @escaping (Device) -> Setup?,
                warn: @escaping (String) -> Void = LiveGestures.standardError,
                interception: Interception? = nil) throws(EvdevError) {
        self.setup = setup
        self.warn = warn
        self.interception = interception
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
        defer { endInterception() }
        for output in pending { guard handle(output) else { return } }
        pending = []
        while true {
            var timeout = due.values.map(\.at).min().map { max(.zero, $0 - clock.now) }
            if let filterDue = open.values.compactMap({ $0.intercepted?.filter.nextDeadlineMicroseconds }).min() {
                let wait = Duration.microseconds(max(0, filterDue - EvdevDevice.nowMicroseconds()))
                timeout = timeout.map { min($0, wait) } ?? wait
            }
            let batch = try reader.wait(timeout: timeout)
            if batch.woken { return }
            passHeldPresses()
            for (evdev, output) in batch.outputs {
                let key = ObjectIdentifier(evdev)
                switch output {
                case .added:
                    adopt(evdev, anyKind: false)
                    for output in pending { guard handle(output) else { return } }
                    pending = []
                case .removed(let error):
                    guard var entry = open.removeValue(forKey: key) else { continue }
                    entry.intercepted?.clone.end()
                    if entry.tracker.cancel() != nil || due.removeValue(forKey: key) != nil {
                        guard handle(.cancelled(reason: "the device is gone", entry.device)) else { return }
                    }
                    guard handle(.removed(entry.device, error)) else { return }
                case .resynced(let frame):
                    guard var entry = open[key] else { continue }
                    let wasDrawing = entry.tracker.cancel() != nil
                    if var intercepted = entry.intercepted {
                        let out = intercepted.filter.resynchronize(frame)
                        entry.intercepted = intercepted
                        forward(out.frames, for: &entry)
                    }
                    open[key] = entry
                    if let sentence = lostEvents.sentence(node: entry.device.node, cancelling: "a stroke in progress") {
                        warn(sentence)
                    }
                    if wasDrawing { guard handle(.cancelled(reason: "events were lost", entry.device)) else { return } }
                case .frame(let frame):
                    guard var entry = open[key] else { continue }
                    if var intercepted = entry.intercepted {
                        let out = intercepted.filter.process(frame)
                        entry.intercepted = intercepted
                        forward(out.frames, for: &entry)
                        if out.abandonsStroke { _ = entry.tracker.cancel() }
                    }
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

    /// Starts reading `evdev` if it is a mouse (or `anyKind`) and `setup`
    /// wants it (and, when intercepting, this package did not make it).
    private func adopt(_ evdev: EvdevDevice, anyKind: Bool) {
        let isRead = reader.devices.contains { $0 === evdev }
        guard anyKind || evdev.description.kind == .mouse, interception == nil || !evdev.isMadeByGestures else {
            if isRead { reader.remove(evdev) }
            return
        }
        var device = Device(id: nextID, node: evdev.path, description: evdev.description)
        guard let chosen = setup(device) else {
            if isRead { reader.remove(evdev) }
            return
        }
        nextID += 1
        var intercepted: Entry.Intercepted?
        if let clone = interception?.take(evdev) {
            device.cloneNode = clone.node
            intercepted = Entry.Intercepted(clone: clone, filter: StrokeButtonFilter(settings: chosen))
        }
        open[ObjectIdentifier(evdev)] = Entry(device: device, intercepted: intercepted,
                                              tracker: MouseStrokeTracker(button: chosen.button, minimumLengthCounts: chosen.minimumLengthCounts))
        if !isRead { reader.add(evdev) }
        pending.append(.opened(device))
    }

    /// Lets withheld presses held still past their delay reach their clones
    /// (and abandons those strokes).
    private func passHeldPresses() {
        let now = EvdevDevice.nowMicroseconds()
        for key in Array(open.keys) {
            guard var entry = open[key], var intercepted = entry.intercepted,
                  let due = intercepted.filter.nextDeadlineMicroseconds, due <= now else { continue }
            let out = intercepted.filter.advance(toMicroseconds: now)
            entry.intercepted = intercepted
            forward(out.frames, for: &entry)
            if out.abandonsStroke { _ = entry.tracker.cancel() }
            open[key] = entry
        }
    }

    /// Writes frames to an entry's clone; a clone that cannot be written to
    /// stops the interception of its mouse (released, read beside the desktop).
    private func forward(_ frames: [[InputEvent]], for entry: inout Entry) {
        guard let intercepted = entry.intercepted, !frames.isEmpty else { return }
        do {
            try intercepted.clone.write(frames)
        } catch {
            intercepted.clone.end()
            entry.intercepted = nil
            warn("stopped intercepting \(entry.device.node) (\(entry.device.description.name)), reading it beside the desktop: \(error.description)")
        }
    }

    /// Releases every grabbed mouse and destroys its clone.
    private func endInterception() {
        for key in Array(open.keys) {
            open[key]?.intercepted?.clone.end()
            open[key]?.intercepted = nil
        }
    }

    /// One open mouse: what is known of it, its stroke tracker and, when it
    /// is intercepted, its clone and filter.
    private struct Entry {
        struct Intercepted {
            let clone: DeviceClone
            var filter: StrokeButtonFilter
        }

        var device: Device
        var intercepted: Intercepted?
        var tracker: MouseStrokeTracker
    }
}
