#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A failure of an evdev or uinput operation, mapped from libevdev's negative
/// errno returns.
///
/// `description` is one sentence a user can act on:
///
///     print(EvdevError(errno: EACCES, path: "/dev/input/event3"))
///     // Permission denied reading /dev/input/event3: add yourself to the `input` group (sudo usermod -aG input $USER, then log in again) or install the udev rule shipped in Tools/70-gestures.rules.
public enum EvdevError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No permission to open the node (EACCES, EPERM).
    case permissionDenied(path: String)
    /// The device disappeared: unplugged or destroyed (ENODEV).
    case deviceGone(path: String)
    /// No more events are queued right now (EAGAIN); not a failure while reading.
    case noMoreEvents
    /// The node does not exist (ENOENT).
    case notFound(path: String)
    /// The folder of event nodes does not exist, or holds no `eventN` node:
    /// there is no input device to read (the one wording of `devices`,
    /// `run`, `watch` and `record` for it).
    case noInputDevices(directory: String, exists: Bool)
    /// The node is not an evdev device (ENOTTY, EINVAL from the evdev ioctls).
    case notAnInputDevice(path: String)
    /// The device is neither a touchpad nor a touchscreen, so it makes no touch gestures.
    case notATouchDevice(path: String, name: String)
    /// `/dev/uinput` is missing or unusable, so virtual devices cannot be made.
    case uinputUnavailable(errno: Int32)
    /// Any other errno, with the operation that failed.
    case system(errno: Int32, operation: String, path: String)

    /// Maps a positive errno value (or a negative libevdev return) to an error.
    ///
    /// - Parameters:
    ///   - errno: `EACCES` or `-EACCES`; the sign is ignored.
    ///   - operation: what was being done, for errors without a dedicated case.
    ///   - path: the device node involved.
    public init(errno: Int32, operation: String = "open", path: String) {
        let code = errno < 0 ? -errno : errno
        switch code {
        case EACCES, EPERM: self = .permissionDenied(path: path)
        case ENODEV, ENXIO: self = .deviceGone(path: path)
        case EAGAIN: self = .noMoreEvents
        case ENOENT: self = .notFound(path: path)
        case ENOTTY, EINVAL: self = .notAnInputDevice(path: path)
        default: self = .system(errno: code, operation: operation, path: path)
        }
    }

    /// The one-sentence message for users.
    public var description: String {
        switch self {
        case .permissionDenied(let path):
            return
                "Permission denied reading \(path): add yourself to the `input` group (sudo usermod -aG input $USER, then log in again) or install the udev rule shipped in Tools/70-gestures.rules."
        case .deviceGone(let path):
            return "The device \(path) is gone (unplugged or destroyed)."
        case .noMoreEvents:
            return "No more events are queued."
        case .notFound(let path):
            return "There is no device node \(path)."
        case .noInputDevices(let directory, let exists):
            let why = exists ? "\(directory) holds no event node" : "\(directory) does not exist"
            return
                "There are no input devices to read: \(why) (in a container or VM, the machine's devices are not passed in); run gestures on the machine with the touchpad, or give --dir DIR."
        case .notAnInputDevice(let path):
            return "\(path) is not an evdev input device."
        case .notATouchDevice(let path, let name):
            return "\(path) (\(name)) is neither a touchpad nor a touchscreen; run 'gestures devices' to find one."
        case .uinputUnavailable(let errno):
            return
                "Cannot create a virtual device: /dev/uinput is unavailable (\(Self.errnoText(errno))); load the uinput module and run as root or a member of the group owning /dev/uinput."
        case .system(let errno, let operation, let path):
            return "Cannot \(operation) \(path): \(Self.errnoText(errno))."
        }
    }

    static func errnoText(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }
}
