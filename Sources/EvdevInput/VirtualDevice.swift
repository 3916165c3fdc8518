internal import CLibevdev
import InputInterception
import SystemCalls
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
/// device is destroyed by `destroy()`, when this object goes away, or when
/// the process ends (the kernel destroys it when /dev/uinput is closed; the
/// descriptor is close-on-exec, so commands the process starts do not keep it).
///
///     let pad = try VirtualDevice(description)
///     try pad.writeFrame([InputEvent(type: EV.ABS, code: ABS.MT_TRACKING_ID, value: 1, microseconds: 0)])
///     print(pad.devnode!)   // /dev/input/event5
public final class VirtualDevice {
    /// The description the device was created from.
    public let description: DeviceDescription
    private var device: OpaquePointer?
    private var uinput: OpaquePointer?
    /// /dev/uinput, opened here (not by libevdev) so that `phys` can be set
    /// before the device is created; closed after it is destroyed.
    private var uinputFD: Int32 = -1

    /// The event types a virtual device gets: keys, relative and absolute
    /// axes, miscellaneous, switches, LEDs and sounds. Left out: autorepeat
    /// (the kernel would repeat a clone's held keys on top of the repeats the
    /// device sends) and force feedback (uinput needs its effects handled).
    public static let supportedTypes: Set<UInt16> = [EV.KEY, EV.REL, EV.ABS, EV.MSC, EV.SW, EV.LED, EV.SND]

    /// The start of the physical location (`phys`) of every device this
    /// package makes for itself (clones, the virtual keyboard and pointer),
    /// so that its readers can leave them alone.
    public static let ownPhysicalLocationPrefix = "gestures/"

    /// Creates the device.
    ///
    /// - Parameters:
    ///   - info: name, ids, properties, event codes and axes; event types
    ///     outside ``supportedTypes`` are left out.
    ///   - physicalLocation: its `phys`, or nil for none.
    ///   - absoluteValues: the start value of absolute axes (the minimum for
    ///     those not given).
    /// The corresponding C function is `libevdev_uinput_create_from_device`.
    public init(
        _ info: DeviceDescription, physicalLocation: String? = nil,
        absoluteValues: [UInt16: Int32] = [:]
    ) throws(EvdevError) {
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
        for (type, codes) in info.codes.sorted(by: { $0.key < $1.key }) where Self.supportedTypes.contains(type) {
            for code in codes.sorted() {
                if type == EV.ABS {
                    let axis = info.absInfo[code] ?? AbsInfo(minimum: 0, maximum: 0)
                    var abs = input_absinfo(
                        value: absoluteValues[code] ?? axis.minimum, minimum: axis.minimum, maximum: axis.maximum,
                        fuzz: axis.fuzz, flat: axis.flat, resolution: axis.resolution)
                    libevdev_enable_event_code(device, UInt32(type), UInt32(code), &abs)
                } else {
                    libevdev_enable_event_code(device, UInt32(type), UInt32(code), nil)
                }
            }
        }
        // libevdev sets no `phys`; uinput takes one only before the device exists.
        let fd = open("/dev/uinput", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            libevdev_free(device)
            throw Self.creationError(code)
        }
        if let physicalLocation {
            let rc = gestures_uinput_set_phys(fd, physicalLocation)
            guard rc == 0 else {
                close(fd)
                libevdev_free(device)
                throw Self.creationError(-rc)
            }
        }
        var uinput: OpaquePointer?
        let rc = libevdev_uinput_create_from_device(device, fd, &uinput)
        guard rc == 0, let uinput else {
            close(fd)
            libevdev_free(device)
            throw Self.creationError(-rc)
        }
        self.device = device
        self.uinput = uinput
        self.uinputFD = fd
    }

    private static func creationError(_ code: Int32) -> EvdevError {
        if code == ENOENT || code == ENODEV || code == EACCES || code == EPERM || code == ENXIO {
            return .uinputUnavailable(errno: code)
        }
        return EvdevError(errno: code, operation: "create", path: "/dev/uinput")
    }

    /// A clone of `device` for the desktop to read while the device is
    /// grabbed: its name, ids, properties, event codes and axes (range,
    /// resolution, fuzz, flat, and the current values of the axes that are
    /// not per contact), so that libinput and udev give it the device's
    /// quirks and settings (a multitouch touch surface's clone also carries
    /// `ABS_MT_TOOL_TYPE`, `InterceptedDevice.cloneDescription(of:)`, so that
    /// the hand-over can cancel contacts on it); its `phys` is ``ownPhysicalLocationPrefix``
    /// followed by `clone/` and the device's own.
    /// The corresponding C functions are `libevdev_get_phys` and `libevdev_uinput_create_from_device`.
    public convenience init(cloning device: EvdevDevice) throws(EvdevError) {
        var values: [UInt16: Int32] = [:]
        for code in device.description.codes[EV.ABS] ?? [] where !EvdevState.isPerSlot(code) && code != ABS.MT_SLOT {
            values[code] = device.value(type: EV.ABS, code: code)
        }
        try self.init(
            InterceptedDevice.cloneDescription(of: device.description),
            physicalLocation: Self.ownPhysicalLocationPrefix + "clone/" + (device.physicalLocation ?? ""),
            absoluteValues: values)
    }

    deinit { destroy() }

    /// The `/dev/input/eventN` node of the device, or nil once destroyed (or without sysfs).
    /// The corresponding C function is `libevdev_uinput_get_devnode`.
    public var devnode: String? {
        guard let uinput, let node = libevdev_uinput_get_devnode(uinput) else { return nil }
        return String(cString: node)
    }

    /// The uinput descriptor, or -1 once destroyed: what an intercepted
    /// device's reader writes forwarded frames to (`EventStream`).
    /// The corresponding C function is `libevdev_uinput_get_fd`.
    var fileDescriptor: Int32 { uinput.map { libevdev_uinput_get_fd($0) } ?? -1 }

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
    /// The frame goes to the kernel in one `write`, so readers never wait
    /// between its events.
    /// The corresponding C functions are `libevdev_uinput_get_fd` and `write`.
    public func writeFrame(_ events: [InputEvent]) throws(EvdevError) {
        guard let uinput else { throw EvdevError.deviceGone(path: "the destroyed virtual device") }
        var buffer: [input_event] = []
        buffer.reserveCapacity(events.count + 1)
        func append(_ type: UInt16, _ code: UInt16, _ value: Int32) {
            var event = input_event()
            event.type = type
            event.code = code
            event.value = value
            buffer.append(event)
        }
        for event in events where !(event.type == EV.SYN && (event.code == SYN.REPORT || event.code == SYN.DROPPED)) {
            append(event.type, event.code, event.value)
        }
        append(EV.SYN, SYN.REPORT, 0)
        let fd = libevdev_uinput_get_fd(uinput)
        let size = buffer.count * MemoryLayout<input_event>.stride
        let written = buffer.withUnsafeBytes { bytes in Result { () throws(Errno) in try FileDescriptor(rawValue: fd).write(bytes) } }
        switch written {
        case .failure(let error): throw EvdevError(errno: error.rawValue, operation: "write to", path: devnode ?? "/dev/uinput")
        case .success(let count) where count != size: throw EvdevError(errno: EIO, operation: "write to", path: devnode ?? "/dev/uinput")
        case .success: break
        }
    }

    /// Destroys the device: it disappears from `/dev/input` and readers get ENODEV.
    /// The corresponding C function is `libevdev_uinput_destroy`.
    public func destroy() {
        if let uinput { libevdev_uinput_destroy(uinput) }
        if let device { libevdev_free(device) }
        if uinputFD >= 0 { close(uinputFD) }
        uinput = nil
        device = nil
        uinputFD = -1
    }
}
