internal import CLibevdev
import TouchInput
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A virtual input device made through uinput from a description: the kernel
/// treats it as real hardware, so anything reading `/dev/input` sees its events.
///
/// Needs `/dev/uinput` (the uinput module) and permission to write it. The
/// device is destroyed by `destroy()` or when this object goes away.
///
///     let pad = try VirtualDevice(description)
///     try pad.writeFrame([InputEvent(type: EV.ABS, code: ABS.MT_TRACKING_ID, value: 1, microseconds: 0)])
///     print(pad.devnode!)   // /dev/input/event5
public final class VirtualDevice {
    /// The description the device was created from.
    public let description: DeviceDescription
    private var device: OpaquePointer?
    private var uinput: OpaquePointer?

    /// Creates the device. Event types other than key, relative, absolute,
    /// miscellaneous and switch are ignored.
    /// The corresponding C function is `libevdev_uinput_create_from_device`.
    public init(_ info: DeviceDescription) throws(EvdevError) {
        self.description = info
        guard let device = libevdev_new() else {
            throw EvdevError.system(errno: ENOMEM, operation: "allocate", path: "a virtual device")
        }
        gestures_evdev_install_log_handler(device)
        libevdev_set_name(device, info.name)
        libevdev_set_id_bustype(device, Int32(info.id.bus))
        libevdev_set_id_vendor(device, Int32(info.id.vendor))
        libevdev_set_id_product(device, Int32(info.id.product))
        libevdev_set_id_version(device, Int32(info.id.version))
        for property in info.properties.sorted() {
            libevdev_enable_property(device, UInt32(property))
        }
        let supportedTypes: Set<UInt16> = [EV.KEY, EV.REL, EV.ABS, EV.MSC, EV.SW]
        for (type, codes) in info.codes.sorted(by: { $0.key < $1.key }) where supportedTypes.contains(type) {
            for code in codes.sorted() {
                if type == EV.ABS {
                    let axis = info.absInfo[code] ?? AbsInfo(minimum: 0, maximum: 0)
                    var abs = input_absinfo(value: axis.minimum, minimum: axis.minimum, maximum: axis.maximum,
                                            fuzz: axis.fuzz, flat: axis.flat, resolution: axis.resolution)
                    libevdev_enable_event_code(device, UInt32(type), UInt32(code), &abs)
                } else {
                    libevdev_enable_event_code(device, UInt32(type), UInt32(code), nil)
                }
            }
        }
        var uinput: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(device, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &uinput)
        guard rc == 0, let uinput else {
            libevdev_free(device)
            let code = -rc
            if code == ENOENT || code == ENODEV || code == EACCES || code == EPERM {
                throw EvdevError.uinputUnavailable(errno: code)
            }
            throw EvdevError(errno: rc, operation: "create", path: "/dev/uinput")
        }
        self.device = device
        self.uinput = uinput
    }

    deinit { destroy() }

    /// The `/dev/input/eventN` node of the device, or nil once destroyed (or without sysfs).
    /// The corresponding C function is `libevdev_uinput_get_devnode`.
    public var devnode: String? {
        guard let uinput, let node = libevdev_uinput_get_devnode(uinput) else { return nil }
        return String(cString: node)
    }

    /// Writes one event; its time is ignored: the kernel stamps it with the current time.
    /// The corresponding C function is `libevdev_uinput_write_event`.
    public func write(_ event: InputEvent) throws(EvdevError) {
        guard let uinput else { throw EvdevError.deviceGone(path: "the destroyed virtual device") }
        let rc = libevdev_uinput_write_event(uinput, UInt32(event.type), UInt32(event.code), event.value)
        guard rc == 0 else { throw EvdevError(errno: rc, operation: "write to", path: devnode ?? "/dev/uinput") }
    }

    /// Writes the events of one frame followed by one `SYN_REPORT`: a trace
    /// frame's own `SYN_REPORT` and `SYN_DROPPED` markers are skipped
    /// (`SYN_MT_REPORT`, protocol A, is written).
    /// The corresponding C function is `libevdev_uinput_write_event`.
    public func writeFrame(_ events: [InputEvent]) throws(EvdevError) {
        for event in events where !(event.type == EV.SYN && (event.code == SYN.REPORT || event.code == SYN.DROPPED)) {
            try write(event)
        }
        try write(InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: 0))
    }

    /// Destroys the device: it disappears from `/dev/input` and readers get ENODEV.
    /// The corresponding C function is `libevdev_uinput_destroy`.
    public func destroy() {
        if let uinput { libevdev_uinput_destroy(uinput) }
        if let device { libevdev_free(device) }
        uinput = nil
        device = nil
    }
}
