/// Descriptions of real devices, as data: the numbers come from the devices'
/// published ranges and resolutions. Virtual devices for tests, benchmarks and
/// the real-kernel suite are made from these, so every tool models the same
/// hardware.
///
///     DeviceCatalog.lenovoX1Carbon.sizeMillimeters   // (98.0, 53.9)
public enum DeviceCatalog {
    /// BTN_TOOL_FINGER ... BTN_TOOL_QUINTTAP: the finger-count keys of a touchpad.
    public static let fingerTools: [UInt16] = [BTN.TOOL_FINGER, BTN.TOOL_DOUBLETAP, BTN.TOOL_TRIPLETAP,
                                               BTN.TOOL_QUADTAP, BTN.TOOL_QUINTTAP]

    /// A protocol-B device: ABS_X/Y mirroring the first contact, `slots` slots,
    /// `keys`, and any `extraAxes`.
    public static func multitouch(name: String, bus: UInt16, vendor: UInt16, product: UInt16, properties: [UInt16],
                                  x: AbsInfo, y: AbsInfo, slots: Int32, keys: [UInt16],
                                  extraAxes: [UInt16: AbsInfo] = [:]) -> DeviceDescription {
        var absinfo: [UInt16: AbsInfo] = [
            ABS.X: x, ABS.Y: y,
            ABS.MT_SLOT: AbsInfo(minimum: 0, maximum: slots - 1),
            ABS.MT_POSITION_X: x, ABS.MT_POSITION_Y: y,
            ABS.MT_TRACKING_ID: AbsInfo(minimum: 0, maximum: 65535),
        ]
        absinfo.merge(extraAxes) { _, new in new }
        return DeviceDescription(name: name, id: .init(bus: bus, vendor: vendor, product: product, version: 1),
                                 properties: Set(properties),
                                 codes: [EV.KEY: Set(keys), EV.ABS: Set(absinfo.keys)],
                                 absInfo: absinfo)
    }

    /// Lenovo X1 Carbon 3rd, Synaptics PS/2: 98 x 54 mm, 2 slots, BTN_TOOL up
    /// to QUINTTAP (more fingers than slots), clickpad.
    public static let lenovoX1Carbon = multitouch(
        name: "SynPS/2 Synaptics TouchPad", bus: 0x11, vendor: 0x2, product: 0x7,
        properties: [INPUT_PROP.POINTER, INPUT_PROP.BUTTONPAD],
        x: AbsInfo(minimum: 1266, maximum: 5676, resolution: 45), y: AbsInfo(minimum: 1096, maximum: 4758, resolution: 68),
        slots: 2, keys: [BTN.LEFT, BTN.TOUCH] + fingerTools)

    /// Apple Magic Trackpad v1 (Bluetooth 05ac:030e): 132 x 112 mm, 16 slots,
    /// clickpad, touch major/minor.
    public static let appleMagicTrackpad = multitouch(
        name: "Apple Wireless Trackpad", bus: 0x5, vendor: 0x5ac, product: 0x30e,
        properties: [INPUT_PROP.POINTER, INPUT_PROP.BUTTONPAD],
        x: AbsInfo(minimum: -2909, maximum: 3167, resolution: 46), y: AbsInfo(minimum: -2456, maximum: 2565, resolution: 45),
        slots: 16, keys: [BTN.LEFT, BTN.TOUCH] + Array(fingerTools.prefix(4)),
        extraAxes: [ABS.MT_TOUCH_MAJOR: AbsInfo(minimum: 0, maximum: 1020),
                    ABS.MT_TOUCH_MINOR: AbsInfo(minimum: 0, maximum: 1020),
                    ABS.MT_ORIENTATION: AbsInfo(minimum: -31, maximum: 32)])

    /// Synaptics RMI4 TM3053 (bus RMI): 97 x 53 mm, 5 slots, pressure, tool type.
    public static let synapticsRMI4 = multitouch(
        name: "Synaptics TM3053-004", bus: 0x1d, vendor: 0x6cb, product: 0x0,
        properties: [INPUT_PROP.POINTER, INPUT_PROP.BUTTONPAD],
        x: AbsInfo(minimum: 0, maximum: 1940, resolution: 20), y: AbsInfo(minimum: 0, maximum: 1062, resolution: 20),
        slots: 5, keys: [BTN.LEFT, BTN.TOUCH] + fingerTools,
        extraAxes: [ABS.PRESSURE: AbsInfo(minimum: 0, maximum: 255),
                    ABS.MT_PRESSURE: AbsInfo(minimum: 0, maximum: 255),
                    ABS.MT_TOOL_TYPE: AbsInfo(minimum: 0, maximum: 2)])

    /// Atmel maXTouch touchscreen: 10 slots, direct, only BTN_TOUCH, no resolution.
    public static let atmelMaXTouch = multitouch(
        name: "Atmel maXTouch Touchscreen", bus: 0x18, vendor: 0x3eb, product: 0x8a03,
        properties: [INPUT_PROP.DIRECT],
        x: AbsInfo(minimum: 0, maximum: 799), y: AbsInfo(minimum: 0, maximum: 479),
        slots: 10, keys: [BTN.TOUCH])

    /// A USB mouse: relative x/y, wheel, three buttons.
    public static let usbMouse = DeviceDescription(
        name: "Logitech USB Optical Mouse", id: .init(bus: 0x3, vendor: 0x46d, product: 0xc077, version: 0x111),
        codes: [EV.KEY: [BTN.LEFT, BTN.RIGHT, BTN.MIDDLE],
                EV.REL: [REL.X, REL.Y, REL.WHEEL]])
}

extension DeviceDescription {
    /// The same device with `suffix` appended to its name, e.g. " (virtual)".
    public func named(withSuffix suffix: String) -> DeviceDescription {
        var copy = self
        copy.name += suffix
        return copy
    }
}
