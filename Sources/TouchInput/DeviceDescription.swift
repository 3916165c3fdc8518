/// What an input device is: its name and ids, the event codes it can send,
/// the ranges of its absolute axes and its properties.
///
/// This is the data libinput's `record` and evemu write in a recording's
/// header, and what a virtual (uinput) device needs to be created again.
/// Facts derived from it (``kind``, ``slotCount``, ``sizeMillimeters``...)
/// are in `DeviceDescription+Facts.swift`.
///
/// ```swift
/// var pad = DeviceDescription(name: "Test pad")
/// pad.enable(EV.KEY, BTN.TOOL_FINGER)
/// pad.enable(ABS.X, AbsInfo(minimum: 0, maximum: 1940, resolution: 20))
/// pad.enable(ABS.Y, AbsInfo(minimum: 0, maximum: 1062, resolution: 20))
/// print(pad.kind)  // touchpad
/// ```
public struct DeviceDescription: Hashable, Sendable {
    /// The kernel name, as in `/sys/class/input/eventN/device/name`.
    public var name: String
    /// Bus type, vendor, product and version (`struct input_id`).
    public var id: ID
    /// `INPUT_PROP_*` values the device has.
    public var properties: Set<UInt16>
    /// Supported codes for each event type (`EV_*` -> codes).
    public var codes: [UInt16: Set<UInt16>]
    /// Axis information for each supported `EV_ABS` code.
    public var absInfo: [UInt16: AbsInfo]

    /// The device ids, `struct input_id`.
    public struct ID: Hashable, Sendable {
        public var bus: UInt16
        public var vendor: UInt16
        public var product: UInt16
        public var version: UInt16

        public init(bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0) {
            self.bus = bus
            self.vendor = vendor
            self.product = product
            self.version = version
        }
    }

    public init(
        name: String,
        id: ID = ID(),
        properties: Set<UInt16> = [],
        codes: [UInt16: Set<UInt16>] = [:],
        absInfo: [UInt16: AbsInfo] = [:]
    ) {
        self.name = name
        self.id = id
        self.properties = properties
        self.codes = codes
        self.absInfo = absInfo
    }

    /// Whether the device can send `code` of event `type`.
    public func supports(_ type: UInt16, _ code: UInt16) -> Bool {
        codes[type]?.contains(code) ?? false
    }

    /// Whether the device has the property (`INPUT_PROP_*`).
    public func hasProperty(_ property: UInt16) -> Bool {
        properties.contains(property)
    }

    /// Declares that the device sends `code` of event `type` (and its event type).
    public mutating func enable(_ type: UInt16, _ code: UInt16) {
        codes[type, default: []].insert(code)
    }

    /// Declares an absolute axis with its range.
    public mutating func enable(_ code: UInt16, _ info: AbsInfo) {
        enable(EV.ABS, code)
        absInfo[code] = info
    }
}
