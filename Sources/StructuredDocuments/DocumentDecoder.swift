import InputChecks

extension DocumentNode {
    /// Decodes `type` from this tree through its `Decodable` conformance,
    /// with no detour through JSON text: the one way a configuration's
    /// sections are read, whichever format the file was written in.
    ///
    /// A value of the wrong kind throws ``InvalidValue`` saying what it is
    /// instead, at its path: `bindings[0].claim: must be true or false, not
    /// a number`. Keys are listed in the document's order.
    ///
    ///     struct Point: Decodable { var x: Double }
    ///     try DocumentNode.parse(yaml: Data("x: 3".utf8)).decode(Point.self).x   // 3
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: decoder)
    }

    /// A decoder of this tree, for initialisers that take more than a
    /// decoder (a configuration and the folder its relative paths start from).
    public var decoder: any Decoder { DocumentDecoder(node: self, codingPath: []) }
}

/// A `Decoder` over one node of a ``DocumentNode`` tree.
struct DocumentDecoder: Decoder {
    let node: DocumentNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = node else { throw mismatch(node, codingPath, "an object") }
        return KeyedDecodingContainer(ObjectContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = node else { throw mismatch(node, codingPath, "a list") }
        return ListContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ValueContainer(node: node, codingPath: codingPath)
    }
}

/// `must be a string, not a number`.
private func mismatch(_ node: DocumentNode, _ codingPath: [any CodingKey], _ expected: String) -> InvalidValue {
    InvalidValue(codingPath: codingPath, message: "must be \(expected), not \(node.kindDescription)")
}

/// A scalar of `node` as `T`, for the three kinds of container.
private func scalar<T: Decodable>(_ type: T.Type, _ node: DocumentNode, _ codingPath: [any CodingKey]) throws -> T {
    switch type {
    case is Bool.Type:
        guard case .bool(let flag) = node else { throw mismatch(node, codingPath, "true or false") }
        return flag as! T
    case is String.Type:
        guard case .string(let text) = node else { throw mismatch(node, codingPath, "a string") }
        return text as! T
    case is Double.Type:
        guard case .number(let value, _) = node else { throw mismatch(node, codingPath, "a number") }
        return value as! T
    case is Float.Type:
        guard case .number(let value, _) = node else { throw mismatch(node, codingPath, "a number") }
        return Float(value) as! T
    case is Int.Type:
        return try integer(Int.self, node, codingPath) as! T
    case is Int64.Type:
        return try integer(Int64.self, node, codingPath) as! T
    case is Int32.Type:
        return try integer(Int32.self, node, codingPath) as! T
    case is UInt16.Type:
        return try integer(UInt16.self, node, codingPath) as! T
    default:
        return try T(from: DocumentDecoder(node: node, codingPath: codingPath))
    }
}

/// A whole number that fits `T`.
private func integer<T: FixedWidthInteger>(_ type: T.Type, _ node: DocumentNode, _ codingPath: [any CodingKey]) throws -> T {
    guard case .number(let value, let text) = node else { throw mismatch(node, codingPath, "an integer") }
    guard value == value.rounded(), let result = T(exactly: value) else {
        throw InvalidValue(codingPath: codingPath, message: "must be an integer, not \(Excerpt.escaped(text))")
    }
    return result
}

private struct ObjectContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [DocumentNode.Member]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { members.contains { $0.key == key.stringValue } }

    private func node(_ key: Key) throws -> DocumentNode {
        guard let member = members.first(where: { $0.key == key.stringValue }) else {
            throw InvalidValue(codingPath: codingPath + [key], message: "is required")
        }
        return member.value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try node(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try scalar(type, try node(key), codingPath + [key])
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decode(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try DocumentDecoder(node: try node(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try DocumentDecoder(node: try node(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        DocumentDecoder(node: .object(members), codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        DocumentDecoder(node: try node(key), codingPath: codingPath + [key])
    }
}

private struct ListContainer: UnkeyedDecodingContainer {
    let items: [DocumentNode]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(items: [DocumentNode], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The next item and its path, stepping past it.
    private mutating func next() throws -> (DocumentNode, [any CodingKey]) {
        let path = codingPath + [AnyCodingKey(intValue: currentIndex)]
        guard !isAtEnd else { throw InvalidValue(codingPath: path, message: "is required") }
        defer { currentIndex += 1 }
        return (items[currentIndex], path)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (node, path) = try next()
        return try scalar(type, node, path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (node, path) = try next()
        return try DocumentDecoder(node: node, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (node, path) = try next()
        return try DocumentDecoder(node: node, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (node, path) = try next()
        return DocumentDecoder(node: node, codingPath: path)
    }
}

private struct ValueContainer: SingleValueDecodingContainer {
    let node: DocumentNode
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { node == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try scalar(type, node, codingPath)
    }
}

/// A scalar as the document wrote it: a string, or a number's own text
/// (`007` stays `007`, `0.10` stays `0.10`), for words that may be written
/// either way, such as a command's arguments in YAML.
public struct WrittenScalar: Decodable, Hashable, Sendable {
    /// The string, or the number as written.
    public var text: String

    /// Reads a string or a number; anything else throws ``InvalidValue``
    /// (`must be a string, not a boolean`).
    public init(from decoder: any Decoder) throws {
        if let document = decoder as? DocumentDecoder, case .number(_, let written) = document.node {
            text = written
            return
        }
        let single = try decoder.singleValueContainer()
        if let number = try? single.decode(Double.self) {
            text = NumberRange.format(number)
        } else {
            text = try single.decode(String.self)
        }
    }
}
