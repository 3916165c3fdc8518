/// One key and its value in a mapping: a member of a JSON object
/// (``DocumentNode/Member``) or a pair of a YAML mapping (``YAMLNode/Pair``).
public struct MappingEntry<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The key.
    public var key: String
    /// The value.
    public var value: Value

    /// The entry `key: value`.
    public init(key: String, value: Value) {
        self.key = key
        self.value = value
    }
}
