import InputInterception
import TouchInput

/// The kernel's side of `DeviceLoop`: the `DeviceIO` that reads evdev
/// nodes (``EvdevReader``: `poll()`, `read(2)`, resyncs, the inotify
/// watch for new nodes, an armed device's motion forwarded to its clone), and takes devices from the desktop through uinput
/// (``Interception``, `DeviceClone`: the clone made first, then
/// `EVIOCGRAB`). Nothing here decides anything: `LiveGestures` runs the loop
/// over it, and the loop's `InterceptedDevice` decides.
///
///     let devices = try EvdevDevices(selection: .all, interception: nil)
///     let loop = DeviceLoop(io: devices, devices: devices.takeOpened(), intercepts: false,
///                           setup: { _ in .init() }, warn: LiveGestures.standardError)
public final class EvdevDevices: DeviceIO {
    /// An open device, compared by identity.
    public struct Handle: Hashable {
        /// The device.
        public let device: EvdevDevice

        /// The same object.
        public static func == (a: Handle, b: Handle) -> Bool { a.device === b.device }
        /// Hashes the object's identity.
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(device)) }
    }

    /// The reader of every open device.
    public let reader: EvdevReader
    /// Of the nodes found at the start, the last one that could not be opened
    /// for want of permission, if any.
    public private(set) var denied: EvdevError?
    private let interception: Interception?
    private var opened: [Handle] = []
    private var clones: [Handle: DeviceClone] = [:]
    /// The one node chosen for its mouse strokes that is no mouse: read as one.
    private var readAsMouse: Handle?

    /// Opens the selected devices (every node of `directory`, or exactly
    /// one) and, unless one node is chosen, watches `directory` for new ones.
    /// With `interception`, ``intercept(_:)`` takes devices from the desktop.
    /// One node chosen when `kinds` are mice alone is read as a mouse
    /// whatever its kind (its relative axes and buttons,
    /// `DeviceDescription.readAsMouse`).
    ///
    /// - Throws: the node's error for `.node`; `.notATouchDevice` when that
    ///   node is of none of `kinds`; the watch's errors.
    /// The corresponding C functions are `opendir`, `inotify_init1` and `libevdev_new_from_fd`.
    public init(
        selection: LiveGestures.Selection, directory: String = "/dev/input", kinds: DeviceKinds = .touch,
        interception: Interception?
    ) throws(EvdevError) {
        self.interception = interception
        reader = try EvdevReader()
        switch selection {
        case .node(let path):
            let device = try EvdevDevice(path: path)
            if !kinds.reads(device.description) {
                guard kinds == .mice else { throw .notATouchDevice(path: path, name: device.description.name) }
                readAsMouse = Handle(device: device)
            }
            reader.add(device)
            opened.append(Handle(device: device))
        case .all, .named:
            try reader.watchForNewDevices(in: directory)
            for path in LiveGestures.eventNodes(in: directory) {
                do {
                    let device = try EvdevDevice(path: path)
                    reader.add(device)
                    opened.append(Handle(device: device))
                } catch {
                    if case .permissionDenied = error { denied = error }
                }
            }
        }
    }

    /// The devices opened by `init`, once (later calls return none).
    public func takeOpened() -> [Handle] {
        defer { opened = [] }
        return opened
    }

    /// The current time of CLOCK_MONOTONIC, the events' clock.
    /// The corresponding C function is `clock_gettime`.
    public func nowMicroseconds() -> Int64 { EvdevDevice.nowMicroseconds() }

    /// Waits in `poll()` until a device sent something, the waker is woken or
    /// the deadline passes; returns what could be read (an armed device's
    /// motion already written to its clone, ``forwardMotion(_:of:)``).
    /// The corresponding C functions are `poll`, `read` and `write`.
    public func read(until deadline: Int64?) throws(EvdevError) -> DeviceInput<Handle, EvdevError> {
        let timeout = deadline.map { Duration.microseconds(max(0, EventTime.microseconds(from: nowMicroseconds(), to: $0))) }
        let batch = try reader.wait(timeout: timeout)
        var input = DeviceInput<Handle, EvdevError>(woken: batch.woken)
        for (device, output) in batch.outputs {
            let handle = Handle(device: device)
            switch output {
            case .added: input.items.append(.opened(handle))
            case .frame(let frame): input.items.append(.frame(handle, frame))
            case .forwarded(let frame): input.items.append(.forwarded(handle, frame))
            case .resynced(let frame): input.items.append(.resynced(handle, frame))
            case .removed(let error):
                clones.removeValue(forKey: handle)?.end()
                input.items.append(.removed(handle, error))
            }
        }
        return input
    }

    /// The node, the description (read as a mouse's for a node chosen for
    /// its strokes) and whether this package made the device.
    public func facts(of device: Handle) -> DeviceFacts {
        let description = device == readAsMouse ? device.device.description.readAsMouse : device.device.description
        return DeviceFacts(node: device.device.path, description: description, isMadeByGestures: device.device.isMadeByGestures)
    }

    /// The state the device's frames read so far left it in (``EvdevDevice/state``).
    public func state(of device: Handle) -> EvdevState { device.device.state }

    /// Stops reading the device; it closes when nothing holds it any more.
    public func close(_ device: Handle) {
        release(device)
        reader.remove(device.device)
    }

    /// Clones and grabs the device (`Interception.take(_:)`); the clone's node, or nil.
    public func intercept(_ device: Handle) -> String? {
        guard let clone = interception?.take(device.device) else { return nil }
        clones[device] = clone
        return clone.node
    }

    /// Writes frames to the device's clone.
    /// The corresponding C function is `write` (``VirtualDevice/writeFrame(_:)``).
    public func writeClone(_ frames: [[InputEvent]], of device: Handle) throws(EvdevError) {
        try clones[device]?.write(frames)
    }

    /// Arms or disarms the reader's forwarding of the device's motion to its
    /// clone (`EvdevReader.Output.forwarded`); nothing for a device not
    /// intercepted (it has no clone to forward to).
    public func forwardMotion(_ armed: Bool, of device: Handle) {
        device.device.stream.forwardsMotion = armed && device.device.stream.cloneFileDescriptor >= 0
    }

    /// Releases the device, then destroys its clone.
    /// The corresponding C functions are `ioctl(EVIOCGRAB)` and `libevdev_uinput_destroy`.
    public func release(_ device: Handle) {
        clones.removeValue(forKey: device)?.end()
    }
}
