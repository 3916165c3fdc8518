import TouchInput

/// Which kinds of device a ``DeviceLoop`` reads: touch surfaces (touchpads
/// and touchscreens, each with a `GestureEngine`), mice (each with a
/// `MouseStrokeEngine`), or both. Every kind runs through the same
/// ``InterceptedDevice`` on the same loop.
///
///     DeviceKinds.touch.reads(pad)     // true
///     DeviceKinds.touch.reads(mouse)   // false
///     DeviceKinds.all.reads(mouse)     // true
public struct DeviceKinds: OptionSet, Hashable, Sendable {
    /// The kinds, as bits.
    public let rawValue: Int

    /// Kinds from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Touchpads and touchscreens (`GesturePipeline.surface(for:)`).
    public static let touch = DeviceKinds(rawValue: 1 << 0)
    /// Mice: relative pointers with buttons (`DeviceDescription.Kind.mouse`).
    public static let mice = DeviceKinds(rawValue: 1 << 1)
    /// Touch surfaces and mice.
    public static let all: DeviceKinds = [.touch, .mice]

    /// Whether a device so described is of one of these kinds.
    public func reads(_ device: DeviceDescription) -> Bool {
        if contains(.touch) && GesturePipeline.surface(for: device) != nil { return true }
        return contains(.mice) && device.kind == .mouse
    }
}
