import TouchInput
import Validation

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

    /// A device with these facts.
    public init(id: Int, name: String, vendor: Int = 0, product: Int = 0) {
        self.id = id
        self.name = name
        self.vendor = vendor
        self.product = product
    }

    /// The device `description`, known to its source as `id`.
    public init(id: Int, description: DeviceDescription) {
        self.init(id: id, name: description.name, vendor: Int(description.id.vendor), product: Int(description.id.product))
    }
}

extension DaemonConfiguration.DeviceMatcher {
    /// What matching a device against a matcher found.
    public enum Outcome: Hashable, Sendable {
        /// Every given part matches.
        case matched
        /// Some part does not match.
        case notMatched
        /// The name pattern could not decide (it timed out, the name is too
        /// long, or the pattern no longer compiles): the device does not match.
        case patternFailed(PatternMatcher.Outcome)
    }

    /// Whether `device` matches: vendor and product compared first, then the
    /// whole name through ``PatternMatcher`` (at most 20 ms; a pattern that
    /// times out does not match, and is then remembered as slow).
    public func match(_ device: InputDevice) -> Outcome {
        if let vendor, vendor != device.vendor { return .notMatched }
        if let product, product != device.product { return .notMatched }
        guard let namePattern else { return .matched }
        guard let matcher = try? PatternMatcher(namePattern) else { return .patternFailed(.notMatched) }
        switch matcher.matches(device.name) {
        case .matched: return .matched
        case .notMatched: return .notMatched
        case let other: return .patternFailed(other)
        }
    }
}
