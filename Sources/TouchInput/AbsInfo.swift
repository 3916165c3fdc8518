/// The range and precision of one absolute axis, as `struct input_absinfo`
/// (without the current value, which belongs to the event stream).
///
/// ```swift
/// let x = AbsInfo(minimum: 1266, maximum: 5676, resolution: 45)
/// print(x.rangeMillimeters)  // Optional(98.0)
/// ```
public struct AbsInfo: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    /// Noise the kernel filters out, in device units.
    public var fuzz: Int32
    /// The dead zone around the centre (joysticks), in device units.
    public var flat: Int32
    /// Units per millimetre for position axes (units per radian for
    /// ABS_MT_ORIENTATION); 0 when the driver does not know it.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// `maximum - minimum` in device units, computed without overflow.
    public var range: Int64 { Int64(maximum) - Int64(minimum) }

    /// The axis length in millimetres, or nil when the resolution is unknown (0 or negative).
    public var rangeMillimeters: Double? {
        resolution > 0 ? Double(range) / Double(resolution) : nil
    }
}
