import CLibevdev
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An open evdev device node (`/dev/input/eventN`), read-only and non-blocking.
///
/// Read its events through `EvdevReader`; the device keeps libevdev's copy of
/// the kernel state, which the reader's resync after `SYN_DROPPED` relies on.
///
///     let device = try EvdevDevice(path: "/dev/input/event5")
///     print(device.info.name, device.info.kind)   // SynPS/2 Synaptics TouchPad touchpad
public final class EvdevDevice {
    /// The device node this was opened from.
    public let path: String
    /// The device description, read when the device was opened.
    public let info: EvdevDeviceInfo

    let fileDescriptor: Int32
    let handle: OpaquePointer
    private var isGrabbed = false

    /// Opens a device node read-only and non-blocking, and reads its description.
    ///
    /// Throws `EvdevError.permissionDenied` without read access to the node,
    /// `.notAnInputDevice` for a node that is not evdev.
    /// The corresponding C function is `libevdev_new_from_fd`.
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
        self.path = path
        self.fileDescriptor = fd
        self.handle = pointer
        self.info = Self.readInfo(pointer)
    }

    deinit {
        if isGrabbed { _ = gestures_evdev_ioctl_grab(fileDescriptor, 0) }
        libevdev_free(handle)
        close(fileDescriptor)
    }

    /// Grabs the device exclusively (`grab == true`) or releases it: while
    /// grabbed, no other client (the desktop included) receives its events.
    /// The corresponding C function is `ioctl(EVIOCGRAB)`.
    public func setGrabbed(_ grab: Bool) throws(EvdevError) {
        let rc = gestures_evdev_ioctl_grab(fileDescriptor, grab ? 1 : 0)
        guard rc == 0 else { throw EvdevError(errno: rc, operation: grab ? "grab" : "release", path: path) }
        isGrabbed = grab
    }

    /// The last value libevdev knows for `code` in multitouch slot `slot`.
    /// The corresponding C function is `libevdev_get_slot_value`.
    public func slotValue(slot: Int32, code: UInt16) -> Int32 {
        libevdev_get_slot_value(handle, UInt32(slot), UInt32(code))
    }

    /// The last value libevdev knows for `code` of type `type` (keys, absolute axes).
    /// The corresponding C function is `libevdev_get_event_value`.
    public func value(type: UInt16, code: UInt16) -> Int32 {
        libevdev_get_event_value(handle, UInt32(type), UInt32(code))
    }

    /// The state libevdev holds for this device, as an `EvdevState`: keys,
    /// absolute axes and every slot's multitouch values.
    /// The corresponding C functions are `libevdev_get_event_value`, `libevdev_get_slot_value` and `libevdev_get_current_slot`.
    public var state: EvdevState {
        var state = EvdevState()
        for code in info.codes[EvdevEvent.key] ?? [] {
            state.apply(EvdevEvent(type: EvdevEvent.key, code: code, value: value(type: EvdevEvent.key, code: code)))
        }
        let axes = info.codes[EvdevEvent.abs] ?? []
        for code in axes where code < EvdevEvent.absMTSlot || code > EvdevEvent.absMTToolY {
            state.apply(EvdevEvent(type: EvdevEvent.abs, code: code, value: value(type: EvdevEvent.abs, code: code)))
        }
        if let slots = info.slotCount {
            for slot in 0..<Int32(slots) {
                state.apply(EvdevEvent(type: EvdevEvent.abs, code: EvdevEvent.absMTSlot, value: slot))
                for code in axes where code > EvdevEvent.absMTSlot && code <= EvdevEvent.absMTToolY {
                    state.apply(EvdevEvent(type: EvdevEvent.abs, code: code, value: slotValue(slot: slot, code: code)))
                }
            }
            state.apply(EvdevEvent(type: EvdevEvent.abs, code: EvdevEvent.absMTSlot, value: libevdev_get_current_slot(handle)))
        }
        return state
    }

    private static func readInfo(_ handle: OpaquePointer) -> EvdevDeviceInfo {
        var info = EvdevDeviceInfo(
            name: libevdev_get_name(handle).map { String(cString: $0) } ?? "",
            bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(handle)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(handle)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(handle)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(handle)))
        info.properties = (0...EvdevEvent.maxProperty).filter { libevdev_has_property(handle, UInt32($0)) != 0 }
        for type in 1...EvdevEvent.maxType where libevdev_has_event_type(handle, UInt32(type)) != 0 {
            let maxCode = libevdev_event_type_get_max(UInt32(type))
            guard maxCode >= 0 else { continue }
            let codes = (0...UInt16(maxCode)).filter { libevdev_has_event_code(handle, UInt32(type), UInt32($0)) != 0 }
            info.codes[type] = codes
            if type == EvdevEvent.abs {
                for code in codes {
                    guard let abs = libevdev_get_abs_info(handle, UInt32(code)) else { continue }
                    info.absinfo[code] = .init(minimum: abs.pointee.minimum, maximum: abs.pointee.maximum,
                                               fuzz: abs.pointee.fuzz, flat: abs.pointee.flat,
                                               resolution: abs.pointee.resolution)
                }
            }
        }
        return info
    }
}
