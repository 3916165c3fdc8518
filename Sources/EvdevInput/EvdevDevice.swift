internal import CLibevdev
import InputInterception
import TouchInput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An open evdev device node (`/dev/input/eventN`), read-only and non-blocking.
///
/// Read its events through `EvdevReader`, which reads the node itself
/// (`read(2)`, below libevdev: libevdev reads the description only); the
/// device keeps the state the frames read so far leave it in, which the
/// reader's resync after `SYN_DROPPED` starts from. Its events are stamped with CLOCK_MONOTONIC (not the kernel's default
/// CLOCK_REALTIME), so event times and timeouts share one clock.
///
///     let device = try EvdevDevice(path: "/dev/input/event5")
///     print(device.description.name, device.description.kind)   // SynPS/2 Synaptics TouchPad touchpad
public final class EvdevDevice {
    /// The device node this was opened from.
    public let path: String
    /// The device description, read when the device was opened.
    public let description: DeviceDescription

    let fileDescriptor: Int32
    let handle: OpaquePointer
    /// The node's events, read raw, and the state they leave.
    let stream: EventStream
    private var isGrabbed = false

    /// Opens a device node read-only and non-blocking, reads its description
    /// and state, and switches its event clock to CLOCK_MONOTONIC.
    ///
    /// Throws `EvdevError.permissionDenied` without read access to the node,
    /// `.notAnInputDevice` for a node that is not evdev.
    /// The corresponding C functions are `libevdev_new_from_fd` and `libevdev_set_clock_id`.
    public init(path: String) throws(EvdevError) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw EvdevError(errno: errno, operation: "open", path: path) }
        var pointer: OpaquePointer?
        let rc = libevdev_new_from_fd(fd, &pointer)
        guard rc == 0, let pointer else {
            close(fd)
            throw EvdevError(errno: rc, operation: "read the device description of", path: path)
        }
        gestures_evdev_install_log_handler(pointer)
        let clock = libevdev_set_clock_id(pointer, CLOCK_MONOTONIC)
        guard clock == 0 else {
            libevdev_free(pointer)
            close(fd)
            throw EvdevError(errno: clock, operation: "set the event clock of", path: path)
        }
        let description = Self.readDescription(pointer)
        do {
            stream = try EventStream(fileDescriptor: fd, path: path, description: description)
        } catch {
            libevdev_free(pointer)
            close(fd)
            throw error
        }
        self.path = path
        self.fileDescriptor = fd
        self.handle = pointer
        self.description = description
    }

    deinit {
        if isGrabbed { _ = gestures_evdev_ioctl_grab(fileDescriptor, 0) }
        libevdev_free(handle)
        close(fileDescriptor)
    }

    /// The device's physical location (`phys`, such as `isa0060/serio1/input0`),
    /// or nil when it has none. Devices this package makes start with
    /// `VirtualDevice.ownPhysicalLocationPrefix`.
    /// The corresponding C function is `libevdev_get_phys`.
    public var physicalLocation: String? {
        libevdev_get_phys(handle).map { String(cString: $0) }
    }

    /// Whether this package made the device (a clone of a grabbed device,
    /// the daemon's virtual keyboard or pointer): readers that intercept
    /// leave such devices alone.
    public var isMadeByGestures: Bool {
        physicalLocation?.hasPrefix(VirtualDevice.ownPhysicalLocationPrefix) ?? false
    }

    /// The current time of the clock event times use (CLOCK_MONOTONIC), in microseconds.
    /// The corresponding C function is `clock_gettime`.
    public static func nowMicroseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }

    /// Grabs the device exclusively (`grab == true`) or releases it: while
    /// grabbed, no other client (the desktop included) receives its events.
    /// The corresponding C function is `ioctl(EVIOCGRAB)`.
    public func setGrabbed(_ grab: Bool) throws(EvdevError) {
        let rc = gestures_evdev_ioctl_grab(fileDescriptor, grab ? 1 : 0)
        guard rc == 0 else { throw EvdevError(errno: rc, operation: grab ? "grab" : "release", path: path) }
        isGrabbed = grab
    }

    /// The value of `code` in multitouch slot `slot` as the frames read so
    /// far (or the state when the device was opened or last resynced) left it.
    public func slotValue(slot: Int32, code: UInt16) -> Int32 {
        stream.state.value(type: EV.ABS, code: code, slot: slot)
    }

    /// The value of `code` of type `type` (keys: 1 down, 0 up; absolute
    /// axes) as the frames read so far left it.
    public func value(type: UInt16, code: UInt16) -> Int32 {
        stream.state.value(type: type, code: code)
    }

    /// The state the frames read so far leave this device in (from its
    /// state when it was opened, or last resynced), as an `EvdevState`:
    /// keys, absolute axes and every slot's multitouch values.
    public var state: EvdevState { stream.state.state(of: description) }

    private static func readDescription(_ handle: OpaquePointer) -> DeviceDescription {
        var description = DeviceDescription(
            name: libevdev_get_name(handle).map { String(cString: $0) } ?? "",
            id: .init(
                bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(handle)),
                vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(handle)),
                product: UInt16(truncatingIfNeeded: libevdev_get_id_product(handle)),
                version: UInt16(truncatingIfNeeded: libevdev_get_id_version(handle))))
        description.properties = Set((0...INPUT_PROP.MAX).filter { libevdev_has_property(handle, UInt32($0)) != 0 })
        for type in 1...EV.MAX where libevdev_has_event_type(handle, UInt32(type)) != 0 {
            let maxCode = libevdev_event_type_get_max(UInt32(type))
            guard maxCode >= 0 else { continue }
            let codes = (0...UInt16(maxCode)).filter { libevdev_has_event_code(handle, UInt32(type), UInt32($0)) != 0 }
            description.codes[type] = Set(codes)
            if type == EV.ABS {
                for code in codes {
                    guard let abs = libevdev_get_abs_info(handle, UInt32(code)) else { continue }
                    description.absInfo[code] = AbsInfo(
                        minimum: abs.pointee.minimum, maximum: abs.pointee.maximum,
                        fuzz: abs.pointee.fuzz, flat: abs.pointee.flat,
                        resolution: abs.pointee.resolution)
                }
            }
        }
        return description
    }
}
