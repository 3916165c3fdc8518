import Synchronization
import TouchInput

/// Takes devices from the desktop: each one gets a uinput clone first, then
/// is grabbed (`EVIOCGRAB`), so that the desktop reads the clone and this
/// process decides what reaches it. `LiveGestures` takes one for all its
/// devices (touch surfaces and mice), so that a missing `/dev/uinput` is
/// said once. Readers given one, even a disabled one, leave alone the devices this package made
/// (`EvdevDevice.isMadeByGestures`): clones, the daemon's virtual input.
///
/// Safety comes first: a device is never grabbed without its clone. When
/// the clone cannot be made, or the grab fails, the device is read beside
/// the desktop, as without interception, with one sentence on the log.
/// Both end with the process whatever ends it (SIGKILL included): the
/// kernel releases a grab when its descriptor closes and destroys a uinput
/// device when /dev/uinput's descriptor closes.
///
///     let interception = Interception(warn: { print($0) })
///     let live = try LiveGestures(selection: .all, setup: { _ in .init() }, interception: interception)
public final class Interception: Sendable {
    private let unavailable = Mutex<Bool>(false)
    private let warn: @Sendable (String) -> Void
    /// Whether devices are taken at all; a disabled interception reads
    /// beside the desktop (and still skips this package's own devices).
    public let isEnabled: Bool

    /// An interception saying why it cannot intercept through `warn`;
    /// `enabled: false` takes nothing.
    public init(enabled: Bool = true, warn: @escaping @Sendable (String) -> Void) {
        self.isEnabled = enabled
        self.warn = warn
    }

    /// Whether `/dev/uinput` turned out to be unusable, so nothing is intercepted.
    public var isUnavailable: Bool { unavailable.withLock { $0 } }

    /// Clones and grabs `device`, or returns nil (having said why) when it
    /// is to be read beside the desktop.
    func take(_ device: EvdevDevice) -> DeviceClone? {
        guard isEnabled, !isUnavailable else { return nil }
        do {
            return try DeviceClone(device)
        } catch .uinputUnavailable(let code) {
            let first = unavailable.withLock { state -> Bool in
                defer { state = true }
                return !state
            }
            if first {
                warn(
                    "not intercepting gestures: cannot create virtual devices, /dev/uinput is unavailable (\(EvdevError.errnoText(code))), so the desktop sees every gesture too; give the `input` group access to /dev/uinput (Tools/70-gestures.rules) or set `intercept: false`"
                )
            }
            return nil
        } catch {
            warn("not intercepting \(device.path) (\(device.description.name)), reading it beside the desktop: \(error.description)")
            return nil
        }
    }
}

/// A device taken from the desktop: grabbed, with a uinput clone that the
/// desktop reads instead, and whose descriptor the device's reader may
/// forward frames of motion to (`EventStream.forwardsMotion`) while both live.
final class DeviceClone {
    /// The grabbed device.
    let device: EvdevDevice
    /// The clone.
    private(set) var clone: VirtualDevice?

    /// Makes the clone, then grabs the device; on a failed grab the clone is
    /// destroyed again and the error thrown.
    /// The corresponding C functions are `libevdev_uinput_create_from_device` and `ioctl(EVIOCGRAB)`.
    init(_ device: EvdevDevice) throws(EvdevError) {
        let clone = try VirtualDevice(cloning: device)
        do {
            try device.setGrabbed(true)
        } catch {
            clone.destroy()
            throw error
        }
        self.device = device
        self.clone = clone
        device.stream.cloneFileDescriptor = clone.fileDescriptor
    }

    deinit { end() }

    /// The clone's node, or nil once ended.
    var node: String? { clone?.devnode }

    /// Writes frames to the clone, each closed by a `SYN_REPORT`.
    func write(_ frames: [[InputEvent]]) throws(EvdevError) {
        guard let clone else { return }
        for frame in frames { try clone.writeFrame(frame) }
    }

    /// Releases the device, then destroys the clone: the desktop reads the
    /// device again.
    func end() {
        guard let clone else { return }
        // The reader forwards to the clone no more before its descriptor closes.
        device.stream.cloneFileDescriptor = -1
        device.stream.forwardsMotion = false
        try? device.setGrabbed(false)
        clone.destroy()
        self.clone = nil
    }
}
