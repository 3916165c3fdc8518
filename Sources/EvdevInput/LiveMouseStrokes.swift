import GestureRecognition
import InputInterception
import TouchInput

/// Mouse gestures from live mice: opens the mice and runs each through its
/// own `GesturePipeline` (the type a replay of its recording runs, with a
/// `MouseStrokeEngine`), handing out its stroke gestures and its decisions.
/// `gestures strokes`, `gestures train --device` and the daemon's
/// `LiveSource` all read mice through it.
///
/// - Times are the events' own (`CLOCK_MONOTONIC`), counted from when
///   reading started; the pipeline's timers (the unplug grace, the press
///   delay) are fired when the reader wakes for them.
/// - A stroke is recognised `MouseStrokeEngine.unplugGrace` (100 ms) after
///   its button comes up: unplugging a mouse makes the kernel release its
///   buttons just before the device goes, and that stroke ends cancelled.
/// - After `SYN_DROPPED` the stroke in progress is cancelled (with a warning
///   at most every 10 s, `LostEventsWarning`); the resync frame is state, not
///   motion, so a button it shows held was pressed during the loss and starts no stroke.
/// - A device that goes away cancels its stroke (pending or in progress) and
///   is dropped; with ``Selection/mice(in:)`` new mice are picked up through
///   an inotify watch on the directory.
/// - With an ``Interception``, each mouse gets a uinput clone and is grabbed;
///   its pipeline withholds the stroke button (`StrokeButtonFilter`), so a
///   stroke never clicks (a short press reaches the clone as a click, a press
///   held still as a press, which abandons the stroke). Devices this package
///   made are skipped then.
///
///     let live = try LiveMouseStrokes(selection: .mice(in: "/dev/input")) { _ in GesturePipeline.Setup() }
///     try live.run { output in
///         if case .gesture(let stroke, _) = output { print(stroke.jsonLine) }
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

    /// What a mouse's pipeline is built with (its `mouse` settings say how
    /// strokes are drawn and recognised; whether the button is withheld is
    /// decided here: when the mouse is intercepted).
    public typealias Setup = GesturePipeline.Setup

    /// What `run` hands out.
    public enum Output: Sendable {
        /// A device is now read (at the start, or plugged in later); its
        /// `cloneNode` is set when it is intercepted.
        case opened(Device)
        /// A gesture of the device's pipeline: a recognised stroke (`source` mouse).
        case gesture(GestureEvent, Device)
        /// What the pipeline decided about a press of the stroke button; a
        /// stroke's (accepted or rejected) has its points.
        case decision(MouseDecision, Device)
        /// The device failed (usually it went away) and is no longer read;
        /// its stroke, if any, was handed out as cancelled just before.
        case removed(Device, EvdevError)
    }

    /// Wakes `run` from another thread or a signal source; `run` then returns.
    public var waker: EvdevReader.Waker { reader.waker }
    /// The devices being read, in the order they were opened.
    public var devices: [Device] { open.values.map(\.device).sorted { $0.id < $1.id } }

    private let setup: (Device) -> Setup?
    private let warn: (String) -> Void
    private let reader: EvdevReader
    private let interception: Interception?
    private let originMicroseconds: Int64
    private var open: [ObjectIdentifier: Entry] = [:]
    private var pending: [Output] = []
    private var lostEvents = LostEventsWarning()
    private var nextID = 1

    /// Opens the selected devices and, for ``Selection/mice(in:)``, watches
    /// the directory for new ones.
    ///
    /// - Parameters:
    ///   - selection: which devices to read.
    ///   - setup: what a device about to be read gets as its pipeline, or nil to leave it alone.
    ///   - warn: where one-sentence warnings go (standard error by default).
    ///   - interception: when given, each mouse is cloned and grabbed, and
    ///     strokes kept from the clone.
    /// - Throws: `.permissionDenied` when no mouse could be opened and some
    ///   node was denied; the reader's errors.
    /// The corresponding C functions are `opendir`, `inotify_init1` and `libevdev_new_from_fd`.
    public init(
        selection: Selection, setup: @escaping (Device) -> Setup?,
        warn: @escaping (String) -> Void = LiveGestures.standardError,
        interception: Interception? = nil
    ) throws(EvdevError) {
        self.setup = setup
        self.warn = warn
        self.interception = interception
        originMicroseconds = EvdevDevice.nowMicroseconds()
        reader = try EvdevReader()
        switch selection {
        case .device(let device):
            adopt(device, anyKind: true)
        case .mice(let directory):
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
    /// every device opened, every stroke and every decision. Woken, it
    /// finishes each pipeline first (released strokes are recognised, one
    /// still held ends cancelled) and hands out those too.
    /// The corresponding C function is `poll` (through `EvdevReader.wait`).
    public func run(_ handle: (Output) -> Bool) throws(EvdevError) {
        var going = true
        func emit(_ output: Output) { if going { going = handle(output) } }
        defer { endInterception() }
        for output in pending { emit(output) }
        pending = []
        var woken = false
        while going {
            let batch = try reader.wait(timeout: timeUntilNextTimer())
            if batch.woken { woken = true; break }
            deliver(batch.outputs, emit)
            guard going, timeUntilNextTimer() == .zero else { continue }
            // Frames stamped before a timer's due time go first, as in a replay.
            let queued = try reader.wait(timeout: .zero)
            if queued.woken { woken = true; break }
            deliver(queued.outputs, emit)
            if going { fireDueTimers(emit) }
        }
        guard woken else { return }
        for key in open.keys.sorted(by: { open[$0]!.device.id < open[$1]!.device.id }) {
            var entry = open[key]!
            let gestures = entry.pipeline.finish()
            hand(gestures, of: &entry, emit)
            open[key] = entry
        }
    }

    /// Runs what the reader read through the pipelines.
    private func deliver(_ outputs: [(device: EvdevDevice, output: EvdevReader.Output)], _ emit: (Output) -> Void) {
        for (evdev, output) in outputs {
            let key = ObjectIdentifier(evdev)
            switch output {
            case .added:
                adopt(evdev, anyKind: false)
                for output in pending { emit(output) }
                pending = []
            case .removed(let error):
                guard var entry = open.removeValue(forKey: key) else { continue }
                entry.intercepted?.clone.end()
                entry.intercepted = nil
                let gestures = entry.pipeline.cancel(reason: "the device is gone")
                hand(gestures, of: &entry, emit)
                emit(.removed(entry.device, error))
            case .frame, .resynced:
                guard var entry = open[key] else { continue }
                if case .resynced = output, let sentence = lostEvents.sentence(node: entry.device.node, cancelling: "a stroke in progress")
                {
                    warn(sentence)
                }
                var gestures: [GestureEvent] = []
                // A resync is SYN_DROPPED, then libevdev's state: the pipeline cancels and resynchronises.
                for event in output.traceEvents { entry.pipeline.process(event, into: &gestures) }
                hand(gestures, of: &entry, emit)
                open[key] = entry
            }
        }
    }

    /// Fires every pipeline's timers due by now, each at its own time.
    private func fireDueTimers(_ emit: (Output) -> Void) {
        let now = EvdevDevice.nowMicroseconds()
        for key in open.keys.sorted(by: { open[$0]!.device.id < open[$1]!.device.id }) {
            var entry = open[key]!
            let gestures = entry.pipeline.fireTimers(dueByMicroseconds: now)
            hand(gestures, of: &entry, emit)
            open[key] = entry
        }
    }

    /// The time until the earliest pipeline timer, or nil (wait for input only).
    private func timeUntilNextTimer() -> Duration? {
        guard let due = open.values.compactMap(\.pipeline.nextDeadlineMicroseconds).min() else { return nil }
        return .microseconds(max(0, EventTime.microseconds(from: EvdevDevice.nowMicroseconds(), to: due)))
    }

    /// Writes what the pipeline has for the clone, then hands out its gestures and decisions.
    private func hand(_ gestures: [GestureEvent], of entry: inout Entry, _ emit: (Output) -> Void) {
        forward(entry.pipeline.takeCloneFrames(), for: &entry)
        for gesture in gestures { emit(.gesture(gesture, entry.device)) }
        for decision in entry.pipeline.takeDecisions() { emit(.decision(decision, entry.device)) }
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
        guard var chosen = setup(device) else {
            if isRead { reader.remove(evdev) }
            return
        }
        // Read as a mouse whatever its kind (`.device` takes any): relative motion and buttons.
        var description = evdev.description
        if description.kind != .mouse { description = Self.asMouse(description) }
        let clone = interception?.take(evdev)
        chosen.mouse.withholdsButton = clone != nil
        guard let pipeline = GesturePipeline(device: description, originMicroseconds: originMicroseconds, setup: chosen) else {
            clone?.end()
            if isRead { reader.remove(evdev) }
            return
        }
        nextID += 1
        device.cloneNode = clone?.node
        open[ObjectIdentifier(evdev)] = Entry(device: device, pipeline: pipeline, intercepted: clone.map { Entry.Intercepted(clone: $0) })
        if !isRead { reader.add(evdev) }
        pending.append(.opened(device))
    }

    /// `description` as a mouse: only its relative axes and keys, so that its
    /// pipeline is a mouse's (a device chosen by name may describe more).
    static func asMouse(_ description: DeviceDescription) -> DeviceDescription {
        var mouse = DeviceDescription(name: description.name, id: description.id)
        for code in [REL.X, REL.Y, REL.WHEEL, REL.HWHEEL] where description.supports(EV.REL, code) { mouse.enable(EV.REL, code) }
        if !mouse.supports(EV.REL, REL.X) { mouse.enable(EV.REL, REL.X) }
        if !mouse.supports(EV.REL, REL.Y) { mouse.enable(EV.REL, REL.Y) }
        for code in BTN.LEFT...BTN.TASK where description.supports(EV.KEY, code) { mouse.enable(EV.KEY, code) }
        if !mouse.supports(EV.KEY, BTN.LEFT) { mouse.enable(EV.KEY, BTN.LEFT) }
        return mouse
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
            warn(
                "stopped intercepting \(entry.device.node) (\(entry.device.description.name)), reading it beside the desktop: \(error.description)"
            )
        }
    }

    /// Releases every grabbed mouse and destroys its clone.
    private func endInterception() {
        for key in Array(open.keys) {
            open[key]?.intercepted?.clone.end()
            open[key]?.intercepted = nil
        }
    }

    /// One open mouse: what is known of it, its pipeline and, when it is
    /// intercepted, its clone.
    private struct Entry {
        struct Intercepted {
            let clone: DeviceClone
        }

        var device: Device
        var pipeline: GesturePipeline
        var intercepted: Intercepted?
    }
}
