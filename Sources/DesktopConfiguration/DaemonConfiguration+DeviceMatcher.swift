import Validation

extension DaemonConfiguration {
    /// A set of devices: a name pattern (whole name, through `PatternMatcher`)
    /// and/or a USB-style vendor and product id; every given part must match.
    public struct DeviceMatcher: Hashable, Sendable {
        /// The regular expression the whole device name must match.
        public var namePattern: String?
        /// The vendor id.
        public var vendor: Int?
        /// The product id.
        public var product: Int?

        /// A matcher for the given parts.
        public init(namePattern: String? = nil, vendor: Int? = nil, product: Int? = nil) {
            self.namePattern = namePattern
            self.vendor = vendor
            self.product = product
        }
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

    /// Whether the device `name` with ids `vendor` and `product` matches:
    /// vendor and product compared first, then the whole name through
    /// ``PatternMatcher`` (at most 20 ms; a pattern that times out does not
    /// match, and is then remembered as slow).
    public func match(name: String, vendor: Int, product: Int) -> Outcome {
        if let expected = self.vendor, expected != vendor { return .notMatched }
        if let expected = self.product, expected != product { return .notMatched }
        guard let namePattern else { return .matched }
        guard let matcher = try? PatternMatcher(namePattern) else { return .patternFailed(.notMatched) }
        switch matcher.matches(name) {
        case .matched: return .matched
        case .notMatched: return .notMatched
        case let other: return .patternFailed(other)
        }
    }
}
