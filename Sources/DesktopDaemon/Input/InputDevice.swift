import TouchInput

/// A device that gestures come from, as a ``GestureSource`` describes it.
public struct InputDevice: Hashable, Sendable {
    /// A number that tells this device apart from the source's other devices
    /// while the source runs (a trace's device index, an evdev node number).
    public var id: Int
    /// The kernel's name for the device: `SynPS/2 Synaptics TouchPad`.
    public var name: String
    /// The vendor id.
    public var vendor: Int
    /// The product id.
    public var product: Int
    /// Whether it is a mouse (its claims are its stroke button's:
    /// `DaemonConfiguration.Binding.claimsMouseStrokes`).
    public var isMouse: Bool
    /// The diagonal of its surface, for a touch surface whose size is known:
    /// the longest a swipe on it can go.
    public var diagonalMillimeters: Double?

    /// A device with these facts.
    public init(
        id: Int, name: String, vendor: Int = 0, product: Int = 0, isMouse: Bool = false, diagonalMillimeters: Double? = nil
    ) {
        self.id = id
        self.name = name
        self.vendor = vendor
        self.product = product
        self.isMouse = isMouse
        self.diagonalMillimeters = diagonalMillimeters
    }

    /// The device `description`, known to its source as `id`.
    public init(id: Int, description: DeviceDescription) {
        let touch = description.kind == .touchpad || description.kind == .touchscreen
        self.init(
            id: id, name: description.name, vendor: Int(description.id.vendor), product: Int(description.id.product),
            isMouse: description.kind == .mouse,
            diagonalMillimeters: touch
                ? description.sizeMillimeters.map { ($0.width * $0.width + $0.height * $0.height).squareRoot() } : nil)
    }
}
