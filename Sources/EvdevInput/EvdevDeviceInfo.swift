/// What an input device is and what it can report: name, ids, properties,
/// supported codes per event type and absolute-axis ranges, as plain data.
///
/// Read from a live device by `EvdevDevice`, used by `VirtualDevice` to create
/// one, and stored in the header of a recording. (A later merge unifies it with
/// TouchInput's `DeviceDescription`.)
///
///     var pad = EvdevDeviceInfo(name: "Synaptics TM3053", bus: 0x1d)
///     pad.codes[EvdevEvent.key] = [EvdevEvent.btnToolFinger, EvdevEvent.btnTouch]
///     pad.absinfo[EvdevEvent.absX] = .init(minimum: 0, maximum: 1940, resolution: 20)
///     print(pad.widthMillimeters!)   // 97.0
public struct EvdevDeviceInfo: Hashable, Sendable, Codable {
    /// The kernel's device name.
    public var name: String
    /// The bus type (`BUS_USB` 0x03, `BUS_I8042` 0x11, `BUS_RMI` 0x1d...).
    public var bus: UInt16
    /// The vendor id.
    public var vendor: UInt16
    /// The product id.
    public var product: UInt16
    /// The version id.
    public var version: UInt16
    /// The input properties (`INPUT_PROP_*` numbers) the device has, ascending.
    public var properties: [UInt16]
    /// The supported codes per event type, ascending. `EV_SYN` may be left out.
    public var codes: [UInt16: [UInt16]]
    /// The range and resolution of each absolute axis in `codes[EV_ABS]`.
    public var absinfo: [UInt16: AbsInfo]

    /// Range, noise filters and resolution of one absolute axis, as in `struct input_absinfo`.
    public struct AbsInfo: Hashable, Sendable, Codable {
        /// The smallest value the axis reports.
        public var minimum: Int32
        /// The largest value the axis reports.
        public var maximum: Int32
        /// The noise the kernel filters out, in axis units.
        public var fuzz: Int32
        /// The dead zone around the centre, in axis units.
        public var flat: Int32
        /// Units per millimetre for positions (units per radian for angles); 0 when unknown.
        public var resolution: Int32

        /// Creates an axis description.
        public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
            self.minimum = minimum
            self.maximum = maximum
            self.fuzz = fuzz
            self.flat = flat
            self.resolution = resolution
        }

        /// The axis length in millimetres, or nil without a resolution.
        public var lengthMillimeters: Double? {
            resolution > 0 ? Double(maximum - minimum) / Double(resolution) : nil
        }
    }

    /// Creates a description; codes and axes are added afterwards.
    public init(name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
                properties: [UInt16] = [], codes: [UInt16: [UInt16]] = [:], absinfo: [UInt16: AbsInfo] = [:]) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.codes = codes
        self.absinfo = absinfo
    }

    /// Whether the device has the input property `property` (`INPUT_PROP_*`).
    public func hasProperty(_ property: UInt16) -> Bool { properties.contains(property) }

    /// Whether the device reports `code` of event type `type`.
    public func has(_ type: UInt16, _ code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }

    /// The number of multitouch slots (`ABS_MT_SLOT` maximum + 1), or nil for a device without slots.
    public var slotCount: Int? {
        guard let slot = absinfo[EvdevEvent.absMTSlot], has(EvdevEvent.abs, EvdevEvent.absMTSlot) else { return nil }
        return Int(slot.maximum) + 1
    }

    /// The axis giving horizontal positions: `ABS_X`, else `ABS_MT_POSITION_X`.
    public var xAxis: AbsInfo? { absinfo[EvdevEvent.absX] ?? absinfo[EvdevEvent.absMTPositionX] }
    /// The axis giving vertical positions: `ABS_Y`, else `ABS_MT_POSITION_Y`.
    public var yAxis: AbsInfo? { absinfo[EvdevEvent.absY] ?? absinfo[EvdevEvent.absMTPositionY] }

    /// The width of the sensor in millimetres, or nil without an x axis resolution.
    public var widthMillimeters: Double? { xAxis?.lengthMillimeters }
    /// The height of the sensor in millimetres, or nil without a y axis resolution.
    public var heightMillimeters: Double? { yAxis?.lengthMillimeters }
}

extension EvdevDeviceInfo {
    private enum CodingKeys: String, CodingKey {
        case name, bus, vendor, product, version, properties, codes, absinfo
    }

    /// Decodes the JSON form: `codes` and `absinfo` keyed by decimal numbers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        bus = try container.decode(UInt16.self, forKey: .bus)
        vendor = try container.decode(UInt16.self, forKey: .vendor)
        product = try container.decode(UInt16.self, forKey: .product)
        version = try container.decode(UInt16.self, forKey: .version)
        properties = try container.decode([UInt16].self, forKey: .properties)
        codes = try Self.numericKeys(container.decode([String: [UInt16]].self, forKey: .codes), .codes, container)
        absinfo = try Self.numericKeys(container.decode([String: AbsInfo].self, forKey: .absinfo), .absinfo, container)
    }

    /// Encodes the JSON form: `codes` and `absinfo` keyed by decimal numbers.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(bus, forKey: .bus)
        try container.encode(vendor, forKey: .vendor)
        try container.encode(product, forKey: .product)
        try container.encode(version, forKey: .version)
        try container.encode(properties, forKey: .properties)
        try container.encode(Dictionary(uniqueKeysWithValues: codes.map { (String($0.key), $0.value) }), forKey: .codes)
        try container.encode(Dictionary(uniqueKeysWithValues: absinfo.map { (String($0.key), $0.value) }), forKey: .absinfo)
    }

    private static func numericKeys<Value>(_ dictionary: [String: Value], _ key: CodingKeys,
                                           _ container: KeyedDecodingContainer<CodingKeys>) throws -> [UInt16: Value] {
        var result: [UInt16: Value] = [:]
        for (text, value) in dictionary {
            guard let number = UInt16(text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                       debugDescription: "key '\(text)' is not an event code number")
            }
            result[number] = value
        }
        return result
    }
}
