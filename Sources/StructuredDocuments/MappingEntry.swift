/// One key and its value in a mapping: a member of a JSON object
/// (``DocumentNode/Member``) or a pair of a YAML mapping (``YAMLNode/Pair``).
public struct MappingEntry<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The key.
    public var key: String
    /// The value.
    public var value: Value
    /// The 1-based line the key is on, when the reader keeps it (YAML does).
    public var line: Int?

    /// The entry `key: value`, its key on `line` when known.
    public init(key: String, value: Value, line: Int? = nil) {
        self.key = key
        self.value = value
        self.line = line
    }
}
