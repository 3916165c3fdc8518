import GestureRecognition
import InputInterception
import TouchInput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Gestures from live touchpads, touchscreens and mice: `DeviceLoop` (the
/// pure loop, with one `InterceptedDevice` per device: the `GesturePipeline`
/// that `GestureReplay` runs, and the hand-over to its clone) over
/// ``EvdevDevices`` (libevdev, `poll()`, uinput). This class only opens the
/// devices and connects the two. Which kinds it reads is its `kinds`
/// (touch surfaces by default); a mouse's pipeline (`MouseStrokeEngine`)
/// draws strokes with its stroke button held and, intercepted, withholds
/// that button from its clone (`StrokeButtonFilter`).
///
/// - Engine timers (a hold beginning, a sequence firing, a mouse stroke's
///   unplug grace and press delay) are driven by the reader's poll
///   timeout; event times and that clock are both CLOCK_MONOTONIC (see
///   `EvdevDevice`). Idle, it blocks in `poll()`.
/// - After `SYN_DROPPED`, the resync goes through the pipeline as a trace
///   would hold it (`EvdevReader.Output.traceEvents`): the gesture in
///   progress ends cancelled, with a warning at most every 10 s.
/// - A device that goes away ends its gesture cancelled and is dropped; new
///   devices are picked up through an inotify watch on the directory (unless
///   one node was chosen).
/// - Gesture times count from when this object was made.
/// - With an ``Interception``, each device gets a uinput clone and is
///   grabbed; its frames reach the clone through a `PassThroughFilter`
///   that keeps claimed gestures from it (Docs/Interception.md). A device
///   this package made (a clone, the daemon's virtual input) is skipped
///   then, and the clone of a device that goes away goes with it.
///
///     let live = try LiveGestures(selection: .all) { _ in LiveGestures.Setup() }
///     try live.run { output in
///         if case .gesture(let event, _) = output { print(event.jsonLine) }
///         return true
///     }
public final class LiveGestures {
    /// Which devices to read.
    public enum Selection: Hashable, Sendable {
        /// Every device of the kinds read, including those that appear later.
        case all
        /// The devices of the kinds read whose name contains this text (any
        /// case), including later ones.
        case named(String)
        /// Exactly this node (`/dev/input/event5`); no others are picked up.
        /// With mice alone read, it is read as a mouse whatever its kind.
        case node(String)
    }

    /// One device being read.
    public typealias Device = LiveDevice

    /// The engine configuration and templates for one device's pipeline.
    public typealias Setup = GesturePipeline.Setup

    /// What `run` hands out: a device opened, a gesture, a stroke's verdict,
    /// a mouse's decision, a hand-over's mode, a device removed (`DeviceLoop.Output`).
    public typealias Output = DeviceLoop<EvdevDevices>.Output

    /// Wakes `run` from another thread or a signal source; `run` then finishes and returns.
    public var waker: EvdevReader.Waker { loop.io.reader.waker }
    /// The devices being read, in the order they were opened.
    public var devices: [Device] { loop.devices }
    /// The time, in the events' clock (microseconds), that gesture times count from.
    public var originMicroseconds: Int64 { loop.originMicroseconds }

    private let loop: DeviceLoop<EvdevDevices>

    /// Opens the selected devices and, unless one node is chosen, watches
    /// `directory` for new ones.
    ///
    /// - Parameters:
    ///   - selection: which devices to read.
    ///   - directory: where the event nodes are.
    ///   - kinds: the kinds of device read: touch surfaces (the default),
    ///     mice, or both.
    ///   - setup: the pipeline setup for a device about to be read, or nil to
    ///     leave it alone (asked for each device before its gestures are read).
    ///   - warn: where one-sentence warnings go (standard error by default).
    ///   - interception: when given, each device is cloned and grabbed, and
    ///     claimed gestures kept from the clone.
    ///   - claims: what is claimed on a device, asked when a touch begins
    ///     (so a reload applies from the next touch).
    ///   - watchesFrames: whether every decoded frame is handed out too
    ///     (`DeviceLoop.Output.frame`), asked at each frame.
    ///   - recordsEvents: whether each frame's events are handed out as read
    ///     (`DeviceLoop.Output.events`), asked at each frame.
    /// - Throws: the node's error for `.node`; `.notATouchDevice` when that node
    ///   is of none of `kinds`; `.permissionDenied` when no device could be opened
    ///   and some were denied.
    /// The corresponding C functions are `opendir`, `inotify_init1` and `libevdev_new_from_fd`.
    public init(
        selection: Selection, directory: String = "/dev/input", kinds: DeviceKinds = .touch,
        setup: @escaping (Device) -> Setup?,
        warn: @escaping (String) -> Void = LiveGestures.standardError,
        interception: Interception? = nil,
        claims: @escaping (Device) -> PassThroughFilter.Policy = { _ in PassThroughFilter.Policy() },
        watchesFrames: @escaping () -> Bool = { false },
        recordsEvents: @escaping () -> Bool = { false }
    ) throws(EvdevError) {
        let io = try EvdevDevices(selection: selection, directory: directory, kinds: kinds, interception: interception)
        var name: String?
        if case .named(let text) = selection { name = text.lowercased() }
        loop = DeviceLoop(
            io: io, devices: io.takeOpened(), kinds: kinds, intercepts: interception != nil,
            setup: { device in
                if let name, !device.description.name.lowercased().contains(name) { return nil }
                return setup(device)
            }, claims: claims, warn: warn, watchesFrames: watchesFrames, recordsEvents: recordsEvents)
        if loop.devices.isEmpty, let denied = io.denied { throw denied }
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
        try loop.run(handle)
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
