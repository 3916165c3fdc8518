/// Every problem found in one value that is read on past its first problem
/// (a configuration file, one of its bindings), in the order found.
public struct InvalidValues: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problems; never empty when thrown.
    public var all: [InvalidValue]

    /// The problems `all`.
    public init(_ all: [InvalidValue]) {
        self.all = all
    }

    /// The problems, one `path: message` after the other.
    public var description: String { all.map(\.description).joined(separator: "; ") }
}

/// What a `Decodable` initialiser collects while it reads on past a bad
/// value, so that one pass over a document reports every problem in it
/// with its path, not just the first:
///
///     var problems = DecodingProblems()
///     let fingers = problems.attempt { try c.decodeInteger(forKey: .fingers, in: range) }
///     let name = problems.attempt { try c.decodeText(forKey: .name) }
///     try problems.finish()   // throws InvalidValues when any attempt failed
///
/// Errors are taken in the project's words (``JSONText/invalidValue(_:)``);
/// ``InvalidValues`` thrown by a nested value are taken one by one.
public struct DecodingProblems: Sendable {
    /// The problems so far, in the order found.
    public private(set) var all: [InvalidValue] = []

    /// None yet.
    public init() {}

    /// The problems of the object `decoder` reads with `keys` before any
    /// value is read: each key it holds that `keys` does not name (see
    /// ``Swift/Decoder/unknownKeys(allowed:)``). The start of every section
    /// a configuration reads.
    public init<Keys: CodingKey & CaseIterable>(unknownKeysOf decoder: any Decoder, keyedBy keys: Keys.Type) {
        all = decoder.unknownKeys(allowed: .keys(keys))
    }

    /// Whether none was found.
    public var isEmpty: Bool { all.isEmpty }

    /// Records `error`: each of an ``InvalidValues``, else the error in our words.
    public mutating func record(_ error: any Error) {
        if let many = error as? InvalidValues { all += many.all } else { all.append(JSONText.invalidValue(error)) }
    }

    /// Records each of `problems`.
    public mutating func record(_ problems: [InvalidValue]) {
        all += problems
    }

    /// Records `message` at `codingPath`.
    public mutating func fail(_ codingPath: [any CodingKey], _ message: String) {
        all.append(InvalidValue(codingPath: codingPath, message: message))
    }

    /// The value `body` reads, or nil with its error recorded.
    public mutating func attempt<T>(_ body: () throws -> T?) -> T? {
        do { return try body() } catch {
            record(error)
            return nil
        }
    }

    /// Throws the problems found, if any.
    public func finish() throws(InvalidValues) {
        guard all.isEmpty else { throw InvalidValues(all) }
    }
}

/// A key of any name or index: for the keys a document holds that a type
/// does not name, and for paths built by hand.
public struct AnyCodingKey: CodingKey, Hashable, Sendable {
    public var stringValue: String
    public var intValue: Int?

    public init(stringValue: String) {
        self.stringValue = stringValue
    }

    public init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    /// The key `name`.
    public init(_ name: String) {
        self.init(stringValue: name)
    }
}

extension Decoder {
    /// The object being decoded, keyed by `Keys`; anything else throws
    /// ``InvalidValue``: the decoder's own when it gives one, which says
    /// what it found (`must be an object, not a string`), else `otherwise`.
    public func object<Keys: CodingKey>(
        keyedBy keys: Keys.Type, otherwise: String = "must be an object"
    ) throws -> KeyedDecodingContainer<Keys> {
        do { return try container(keyedBy: keys) } catch let invalid as InvalidValue { throw invalid } catch {
            throw InvalidValue(codingPath: codingPath, message: otherwise)
        }
    }

    /// The keys of the object being decoded, in the document's order; empty
    /// for anything else.
    public var documentKeys: [String] {
        ((try? container(keyedBy: AnyCodingKey.self))?.allKeys ?? []).map(\.stringValue)
    }

    /// The keys of the object being decoded that `words` does not hold, each
    /// as an ``InvalidValue`` at its own path saying
    /// ``ClosedWords/problem(_:quoting:)``, in the document's order.
    public func unknownKeys(allowed words: ClosedWords) -> [InvalidValue] {
        documentKeys.filter { !words.contains($0) }.map {
            InvalidValue(codingPath: codingPath + [AnyCodingKey($0)], message: words.problem($0, quoting: false))
        }
    }
}

extension ClosedWords {
    /// The keys `Keys` names, in declaration order, as closed words: what
    /// an object read with them may hold.
    public static func keys<Keys: CodingKey & CaseIterable>(_ type: Keys.Type, expectation: String? = nil) -> ClosedWords {
        ClosedWords("key", type.allCases.map(\.stringValue), expectation: expectation)
    }
}

extension KeyedDecodingContainer {
    /// The list at `key` of at most `limit` values of `T` (more are refused
    /// with `tooMany(count)` before any is read), or nil when absent or null;
    /// not a list, it throws `must be a list of NOUN` (or the decoder's own
    /// ``InvalidValue``, which says what it found).
    public func decodeList<T: Decodable>(
        _ type: T.Type, forKey key: Key, of noun: String, limit: Int, tooMany: (Int) -> String
    ) throws -> [T]? {
        try list(T.self, forKey: key, of: noun, limit: limit, tooMany: tooMany) { throw $0 }
    }

    /// The list as ``decodeList(_:forKey:limit:tooMany:)`` reads it, but a
    /// value that cannot be read is recorded in `problems` and left out,
    /// and the rest are read.
    public func decodeList<T: Decodable>(
        _ type: T.Type, forKey key: Key, of noun: String, limit: Int, tooMany: (Int) -> String, problems: inout DecodingProblems
    ) throws -> [T]? {
        try list(T.self, forKey: key, of: noun, limit: limit, tooMany: tooMany) { problems.record($0) }
    }

    private func list<T: Decodable>(
        _ type: T.Type, forKey key: Key, of noun: String, limit: Int, tooMany: (Int) -> String, onError: (any Error) throws -> Void
    ) throws -> [T]? {
        if !contains(key) || ((try? decodeNil(forKey: key)) ?? false) { return nil }
        var list: any UnkeyedDecodingContainer
        do { list = try nestedUnkeyedContainer(forKey: key) } catch let invalid as InvalidValue { throw invalid } catch {
            throw InvalidValue(codingPath: codingPath + [key], message: "must be a list of \(noun)")
        }
        if let count = list.count, count > limit {
            throw InvalidValue(codingPath: codingPath + [key], message: tooMany(count))
        }
        var result: [T] = []
        while !list.isAtEnd {
            let index = list.currentIndex
            do { result.append(try list.decode(T.self)) } catch {
                try onError(error)
                // A decoder that fails before reading leaves the index; step over the value.
                if list.currentIndex == index { _ = try? list.decode(Skipped.self) }
                if list.currentIndex == index { break }
            }
        }
        return result
    }
}

/// Any value, read and dropped.
private struct Skipped: Decodable {
    init(from decoder: any Decoder) throws {}
}
