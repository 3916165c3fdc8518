import GestureRecognition
import TouchInput
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Gestures from live touchpads and touchscreens: opens the devices, runs one
/// `GesturePipeline` (decoder and engine, the type `GestureReplay` uses) per
/// device, and hands out its gestures as they happen.
///
/// - Engine timers (a hold beginning, a sequence firing) are driven by the
///   reader's poll timeout: it waits at most until the earliest timer is due,
///   reads the frames already queued (stamped earlier: a reader that was not
///   scheduled finds them waiting, and a replay would take them first), and
///   then fires the timers; event times and that clock are both
///   CLOCK_MONOTONIC (see `EvdevDevice`). Idle, it blocks in `poll()`.
/// - After `SYN_DROPPED`, the resync goes through the pipeline as a trace
///   would hold it (`EvdevReader.Output.traceEvents`): the gesture in
///   progress ends cancelled, with a warning at most every 10 s
///   (`LostEventsWarning`).
/// - A device that goes away ends its gesture cancelled and is dropped; new
///   devices are picked up through an inotify watch on the directory (unless
///   one node was chosen).
/// - Gesture times count from when this object was made.
/// - With an ``Interception``, each device gets a uinput clone and is
///   grabbed; its frames reach the clone through a ``PassThroughFilter``
///   that keeps claimed gestures from it (Docs/Interception.md). A device
///   this package made (a clone, the daemon's virtual input) is skipped
///   then, and the clone of a device that goes away goes with it.
///
///     let live = try LiveGestures(selection: .touchDevices) { _ in LiveGestures.Setup() }
///     try live.run { output in
///         if case .gesture(let event, _) = output { print(event.jsonLine) }
///         return true
///     }
public final class LiveGestures {
    /// Which devices to read.
    public enum Selection: Hashable, Sendable {
        /// Every touchpad and touchscreen, including those that appear later.
        case touchDevices
        /// The touch devices whose name contains this text (any case), including later ones.
        case named(String)
        /// Exactly this node (`/dev/input/event5`); no others are picked up.
        case node(String)
    }

    /// One device being read.
    public struct Device: Hashable, Sendable {
        /// A number unique among the devices this object opened (1, 2, ...).
        public var id: Int
        /// The node it was opened from.
        public var node: String
        /// Its description.
        public var description: DeviceDescription
        /// The node of its clone, when it is intercepted.
        public var cloneNode: String? = nil
    }

    /// The engine configuration and templates for one device's pipeline.
    public typealias Setup = GesturePipeline.Setup

    /// What `run` hands out.
    public enum Output: Sendable {
        /// A device is now read (at the start, or plugged in later).
        case opened(Device)
        /// A gesture event from a device.
        case gesture(GestureEvent, Device)
        /// The device failed (usually it went away); its gesture was cancelled and it is no longer read.
        case removed(Device, EvdevError)
    }

    /// Wakes `run` from another thread or a signal source; `run` then finishes and returns.
    public var waker: EvdevReader.Waker { reader.waker }
    /// The devices being read, in the order they were opened.
    public var devices: [Device] { open.values.map(\.device).sorted { $0.id < $1.id } }

    private let selection: Selection
    private let setup: (Device) -> Setup?
    private let warn: (String) -> Void
    private let reader: EvdevReader
    private let originMicroseconds: Int64
    private let interception: Interception?
    private let claims: (Device) -> PassThroughFilter.Policy
    private var open: [ObjectIdentifier: Entry] = [:]
    private var pending: [Output] = []
    private var nextID = 1
    private var lostEvents = LostEventsWarning()

    /// Opens the selected devices and, unless one node is chosen, watches
    /// `directory` for new ones.
    ///
    /// - Parameters:
    ///   - selection: which devices to read.
    ///   - directory: where the event nodes are.
    ///   - setup: the pipeline setup for a device about to be read, or nil to
    ///     leave it alone (asked for each device before its gestures are read).
    ///   - warn: where one-sentence warnings go (standard error by default).
    ///   - interception: when given, each device is cloned and grabbed, and
    ///     claimed gestures kept from the clone.
    ///   - claims: what is claimed on a device, asked when a touch begins
    ///     (so a reload applies from the next touch).
    /// - Throws: the node's error for `.node`; `.notATouchDevice` when that node
    ///   is no touch device; `.permissionDenied` when no device could be opened
    ///   and some were denied.
    /// The corresponding C functions are `opendir`, `inotify_init1` and `libevdev_new_from_fd`.
    public init(selection: Selection, directory: String = "/dev/input",
                setup: @escaping (Device) -> Setup?,
                warn: @escaping (String) -> Void = LiveGestures.standardError,
                interception: Interception? = nil,
                claims: @escaping (Device) -> PassThroughFilter.Policy = { _ in PassThroughFilter.Policy() }) throws(EvdevError) {
        self.selection = selection
        self.setup = setup
        self.warn = warn
        self.interception = interception
        self.claims = claims
        self.originMicroseconds = EvdevDevice.nowMicroseconds()
        reader = try EvdevReader()
        switch selection {
        case .node(let path):
            let device = try EvdevDevice(path: path)
            guard GesturePipeline.surface(for: device.description) != nil else {
                throw .notATouchDevice(path: path, name: device.description.name)
            }
            _ = adopt(device)
        case .touchDevices, .named:
            try reader.watchForNewDevices(in: directory)
            var denied: EvdevError?
            for path in Self.eventNodes(in: directory) {
                do {
                    _ = adopt(try EvdevDevice(path: path))
                } catch {
                    if case .permissionDenied = error { denied = error }
                }
            }
            if open.isEmpty, let denied { throw denied }
        }
    }

    /// Writes a warning to standard error as one line, `gestures: ` first, unbuffered.
    /// The corresponding C function is `write`.
    public static func standardError(_ line: String) {
        let bytes = Array(("gestures: " + line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// Reads until `handle` returns false or the waker is woken, handing out
    /// every device opened and every gesture; then finishes each pipeline
    /// (a gesture in progress ends cancelled) and hands out those events too.
    /// The corresponding C function is `poll` (through `EvdevReader.wait`).
    public func run(_ handle: (Output) -> Bool) throws(EvdevError) {
        var going = true
        func emit(_ output: Output) { if going { going = handle(output) } }
        for output in pending { emit(output) }
        pending = []
        while going {
            let batch = try reader.wait(timeout: timeUntilNextTimer())
            if batch.woken { break }
            deliver(batch.outputs, emit)
            guard going, timerIsDue else { continue }
            // Frames stamped before a timer's due time go first, as in a replay:
            // a reader that was not scheduled for a while finds them queued.
            let queued = try reader.wait(timeout: .zero)
            if queued.woken { break }
            deliver(queued.outputs, emit)
            if going { fireDueTimers(emit) }
        }
        going = true
        for key in open.keys.sorted(by: { open[$0]!.device.id < open[$1]!.device.id }) {
            var entry = open[key]!
            let gestures = entry.pipeline.finish()
            if var intercepted = entry.intercepted {
                let frames = intercepted.pacer.drain() + intercepted.filter.finish()
                try? intercepted.clone.write(frames)
                intercepted.clone.end()
                entry.intercepted = nil
            }
            open[key] = entry
            for gesture in gestures { emit(.gesture(gesture, entry.device)) }
        }
    }

    /// Writes frames to an entry's clone as its pacer lets them go. A clone
    /// that cannot be written to stops the interception of its device
    /// (released, read beside the desktop from now on), so the device never
    /// stays grabbed for nothing.
    private func forward(_ frames: [[InputEvent]], for entry: inout Entry) {
        guard var intercepted = entry.intercepted else { return }
        intercepted.pacer.enqueue(frames, atOriginalPace: intercepted.filter.releasedWholeTouch)
        let due = intercepted.pacer.take(nowMicroseconds: EvdevDevice.nowMicroseconds())
        entry.intercepted = intercepted
        guard !due.isEmpty else { return }
        do {
            try intercepted.clone.write(due)
        } catch {
            intercepted.clone.end()
            entry.intercepted = nil
            entry.device.cloneNode = nil
            warn("stopped intercepting \(entry.device.node) (\(entry.device.description.name)), reading it beside the desktop: \(error.description)")
        }
    }

    /// Starts reading `device` if the selection and `setup` want it (and,
    /// when intercepting, it is not one this package made); nil otherwise.
    private func adopt(_ evdev: EvdevDevice) -> Device? {
        let description = evdev.description
        if case .named(let text) = selection, !description.name.lowercased().contains(text.lowercased()) { return nil }
        guard GesturePipeline.surface(for: description) != nil else { return nil }
        if interception != nil && evdev.isMadeByGestures { return nil }
        var device = Device(id: nextID, node: evdev.path, description: description)
        guard let chosen = setup(device),
              var pipeline = GesturePipeline(device: description, originMicroseconds: originMicroseconds,
                                             setup: chosen) else {
            return nil
        }
        nextID += 1
        pipeline.seed(from: evdev.state)  // contacts and keys already down when reading starts
        var intercepted: Entry.Intercepted?
        if let clone = interception?.take(evdev) {
            device.cloneNode = clone.node
            let filter = PassThroughFilter(device: description, deviceState: evdev.state, policy: claims(device))
            intercepted = Entry.Intercepted(clone: clone, filter: filter)
        }
        open[ObjectIdentifier(evdev)] = Entry(device: device, pipeline: pipeline, intercepted: intercepted)
        if !reader.devices.contains(where: { $0 === evdev }) {
            reader.add(evdev)
            pending.append(.opened(device))
        }
        return device
    }

    /// Fires every engine (and filter) timer due by now, each at its own time.
    /// Runs what the reader read through the pipelines (and the filters).
    private func deliver(_ outputs: [(device: EvdevDevice, output: EvdevReader.Output)], _ emit: (Output) -> Void) {
        for (device, output) in outputs {
            let key = ObjectIdentifier(device)
            switch output {
            case .added:
                if let opened = adopt(device) { emit(.opened(opened)) } else { reader.remove(device) }
            case .frame(let frame):
                guard var entry = open[key] else { continue }
                var gestures: [GestureEvent] = []
                for event in frame { gestures += entry.pipeline.process(event) }
                if var intercepted = entry.intercepted {
                    if intercepted.filter.isIdle { intercepted.filter.policy = claims(entry.device) }
                    let frames = intercepted.filter.process(frame, gestures: gestures, engineState: entry.pipeline.engine?.stateName ?? .idle)
                    entry.intercepted = intercepted
                    forward(frames, for: &entry)
                }
                open[key] = entry
                for gesture in gestures { emit(.gesture(gesture, entry.device)) }
            case .resynced(let frame):
                guard var entry = open[key] else { continue }
                warnAboutLostEvents(entry.device)
                entry.pipeline.seed(from: device.state)
                var gestures: [GestureEvent] = []
                for event in output.traceEvents { gestures += entry.pipeline.process(event) }
                if var intercepted = entry.intercepted {
                    let frames = intercepted.filter.resynchronize(frame, engineState: entry.pipeline.engine?.stateName ?? .idle)
                    entry.intercepted = intercepted
                    forward(frames, for: &entry)
                }
                open[key] = entry
                for gesture in gestures { emit(.gesture(gesture, entry.device)) }
            case .removed(let error):
                guard var entry = open.removeValue(forKey: key) else { continue }
                entry.intercepted?.clone.end()
                for gesture in entry.pipeline.cancel() { emit(.gesture(gesture, entry.device)) }
                emit(.removed(entry.device, error))
            }
        }
    }

    /// Whether an engine or filter timer is due now.
    private var timerIsDue: Bool {
        timeUntilNextTimer() == .zero
    }

    private func fireDueTimers(_ emit: (Output) -> Void) {
        let now = EvdevDevice.nowMicroseconds()
        for key in open.keys.sorted(by: { open[$0]!.device.id < open[$1]!.device.id }) {
            var entry = open[key]!
            let gestures = entry.pipeline.fireTimers(dueByMicroseconds: now)
            if var intercepted = entry.intercepted {
                var frames: [[InputEvent]] = []
                if !gestures.isEmpty || intercepted.filter.nextDeadlineMicroseconds.map({ $0 <= now }) ?? false {
                    frames = intercepted.filter.advance(toMicroseconds: now, gestures: gestures,
                                                        engineState: entry.pipeline.engine?.stateName ?? .idle)
                }
                entry.intercepted = intercepted
                forward(frames, for: &entry)
            }
            open[key] = entry
            for gesture in gestures { emit(.gesture(gesture, entry.device)) }
        }
    }

    /// The time until the earliest engine or filter timer, or nil (wait for input only).
    private func timeUntilNextTimer() -> Duration? {
        let engines = open.values.compactMap(\.pipeline.nextDeadlineMicroseconds)
        let filters = open.values.flatMap { entry in
            [entry.intercepted?.filter.nextDeadlineMicroseconds, entry.intercepted?.pacer.nextDueMicroseconds].compactMap { $0 }
        }
        guard let due = (engines + filters).min() else { return nil }
        return .microseconds(max(0, EventTime.microseconds(from: EvdevDevice.nowMicroseconds(), to: due)))
    }

    private func warnAboutLostEvents(_ device: Device) {
        if let sentence = lostEvents.sentence(node: device.node, cancelling: "the gesture in progress") { warn(sentence) }
    }

    /// One open device: what is known of it, its pipeline and, when it is
    /// intercepted, its clone and filter.
    private struct Entry {
        struct Intercepted {
            let clone: DeviceClone
            var filter: PassThroughFilter
            var pacer = ClonePacer()
        }

        var device: Device
        var pipeline: GesturePipeline
        var intercepted: Intercepted?
    }

    /// The `eventN` nodes in `directory`, in numeric order.
    public static func eventNodes(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var numbers: [Int] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name.hasPrefix("event"), let number = Int(name.dropFirst(5)) { numbers.append(number) }
        }
        return numbers.sorted().map { "\(directory)/event\($0)" }
    }
}
