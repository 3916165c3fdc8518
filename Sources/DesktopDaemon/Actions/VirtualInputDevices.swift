import EvdevInput
import Foundation
import TouchInput

/// The two virtual devices input actions go through; the seam between
/// ``InputActionPerformer`` and uinput, which tests replace.
public protocol VirtualInputDevices: Sendable {
    /// Makes the devices if they are not made yet; returns a sentence for
    /// the log (what was made, or why it could not be), or nil when nothing changed.
    func prepare() -> String?
    /// Writes frames (each closed by a `SYN_REPORT`) to the keyboard or the pointer.
    func write(_ frames: [[InputEvent]], to device: VirtualInputDevice) throws(EvdevError)
}

/// Which of the daemon's virtual devices.
public enum VirtualInputDevice: String, Hashable, Sendable {
    /// The keyboard: every key the kernel names.
    case keyboard
    /// The pointer: relative motion, the wheels, left, right and middle buttons.
    case pointer
}

/// The real devices, through uinput: "gestures virtual keyboard" and
/// "gestures virtual pointer", their `phys` starting with
/// `VirtualDevice.ownPhysicalLocationPrefix` so that the daemon never reads them.
public final class UinputInputDevices: VirtualInputDevices, @unchecked Sendable {
    // Guarded by `lock`; the devices are used only while it is held.
    private let lock = NSLock()
    private var keyboard: VirtualDevice?
    private var pointer: VirtualDevice?

    /// Devices made on the first ``prepare()`` (or write).
    public init() {}
    /// The keyboard's description: every `KEY_*` code below the buttons and
    /// from `KEY_OK` on (no `BTN_*`, so udev sees a keyboard, not a mouse).
    public static var keyboardDescription: DeviceDescription {
        var keyboard = DeviceDescription(
            name: "gestures virtual keyboard", id: .init(bus: 0x06, vendor: 0x6765, product: 0x0001, version: 1))
        for code in UInt16(1)..<0x100 { keyboard.enable(EV.KEY, code) }
        for code in UInt16(0x160)..<0x2c0 { keyboard.enable(EV.KEY, code) }
        return keyboard
    }

    /// The pointer's description: a three-button mouse with wheels.
    public static var pointerDescription: DeviceDescription {
        var pointer = DeviceDescription(
            name: "gestures virtual pointer", id: .init(bus: 0x06, vendor: 0x6765, product: 0x0002, version: 1),
            properties: [INPUT_PROP.POINTER])
        for code in [REL.X, REL.Y, REL.WHEEL, REL.HWHEEL] { pointer.enable(EV.REL, code) }
        for code in [BTN.LEFT, BTN.RIGHT, BTN.MIDDLE] { pointer.enable(EV.KEY, code) }
        return pointer
    }

    /// Makes the keyboard and the pointer unless they exist; says what was made, or why not.
    /// The corresponding C function is `libevdev_uinput_create_from_device`.
    public func prepare() -> String? {
        lock.lock()
        defer { lock.unlock() }
        return makeDevices()
    }

    /// Writes frames to the keyboard or the pointer, making them first if needed.
    /// The corresponding C function is `write` (through `VirtualDevice.writeFrame`).
    public func write(_ frames: [[InputEvent]], to target: VirtualInputDevice) throws(EvdevError) {
        lock.lock()
        defer { lock.unlock() }
        _ = makeDevices()
        guard let device = target == .keyboard ? keyboard : pointer else {
            throw EvdevError.uinputUnavailable(errno: 2 /* ENOENT */)
        }
        for frame in frames { try device.writeFrame(frame) }
    }

    /// Makes whichever device is missing; call with the lock held.
    private func makeDevices() -> String? {
        guard keyboard == nil || pointer == nil else { return nil }
        do {
            let prefix = VirtualDevice.ownPhysicalLocationPrefix
            if keyboard == nil { keyboard = try VirtualDevice(Self.keyboardDescription, physicalLocation: prefix + "keyboard") }
            if pointer == nil { pointer = try VirtualDevice(Self.pointerDescription, physicalLocation: prefix + "pointer") }
            return
                "made the virtual keyboard \(keyboard?.devnode ?? "?") and pointer \(pointer?.devnode ?? "?") for keys, button and drag actions"
        } catch {
            return
                "cannot make the virtual keyboard and pointer for keys, button and drag actions, which will not run: \(error.description)"
        }
    }
}
