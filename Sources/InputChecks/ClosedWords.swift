/// The words one place of an input accepts, and the one message for a word
/// that is not among them: `unknown direction 'rihgt'; did you mean 'right'?
/// expected one of up, right, down, left`.
///
/// Every closed word the package reads goes through one of these: the keys
/// of a configuration's sections, gesture types, directions, buttons, key
/// names, the choices of engine settings and the words of trace lines, so a
/// typing mistake gets the same suggestion (``Suggestion``) wherever it is.
///
///     let buttons = ClosedWords("button", ["right", "middle", "left"])
///     buttons.problem("rihgt")   // "unknown button 'rihgt'; did you mean 'right'? expected one of right, middle, left"
public struct ClosedWords: Hashable, Sendable {
    /// What a word names, for messages: `direction`, `key`.
    public var noun: String
    /// The words, in the order messages list them.
    public var words: [String]
    /// Words people type for one of ``words`` (lower case): `super` for `leftmeta`.
    public var aliases: [String: String]
    /// What messages say is expected, when not the list of ``words``: `the
    /// engine's keys are listed in Docs/GestureEngine.md`.
    public var expectation: String?

    /// The `words` a `noun` may be.
    public init(_ noun: String, _ words: [String], aliases: [String: String] = [:], expectation: String? = nil) {
        self.noun = noun
        self.words = words
        self.aliases = aliases
        self.expectation = expectation
    }

    /// The cases of `type`, by raw value, in declaration order.
    public init<T: CaseIterable & RawRepresentable>(_ noun: String, _ type: T.Type) where T.RawValue == String {
        self.init(noun, type.allCases.map(\.rawValue))
    }

    /// Whether `word` is one of the words, as written.
    public func contains(_ word: String) -> Bool { words.contains(word) }

    /// The word `typed` was probably meant to be, if one is near enough.
    public func suggestion(for typed: String) -> String? {
        Suggestion.nearest(to: typed, in: words, aliases: aliases)
    }

    /// `expected one of up, down, left` (`expected pass or withhold` for
    /// two), or the ``expectation``.
    public var expected: String {
        if let expectation { return expectation }
        return words.count == 2 ? "expected \(words[0]) or \(words[1])" : "expected one of \(words.joined(separator: ", "))"
    }

    /// `unknown direction 'rihgt'; did you mean 'right'? expected one of ...`;
    /// with `quoting: false` (where the path already names the word, as for
    /// keys) `unknown key; did you mean 'bindings'? expected one of ...`.
    /// The suggestion is for `meant` when given (the word as looked up:
    /// `supr` for `KEY_SUPR`).
    public func problem(_ typed: String, quoting: Bool = true, meant: String? = nil) -> String {
        let word = quoting ? " " + Excerpt.quoted(typed) : ""
        let hint = suggestion(for: meant ?? typed).map { Suggestion.phrase($0) + " " } ?? "; "
        return "unknown \(noun)\(word)\(hint)\(expected)"
    }

    /// The word `typed` as `T`, or ``InvalidValue`` at `codingPath` saying ``problem(_:quoting:)``.
    public func decode<T: RawRepresentable>(_ typed: String, as type: T.Type, codingPath: [any CodingKey]) throws(InvalidValue) -> T
    where T.RawValue == String {
        guard let value = T(rawValue: typed) else { throw InvalidValue(codingPath: codingPath, message: problem(typed)) }
        return value
    }
}

/// A type read from one of a closed set of words: its `Decodable`
/// conformance reads a string and refuses any other word with
/// ``ClosedWords/problem(_:quoting:)`` (and a value that is not a string with
/// `must be a string`), so every reader of it says the same.
public protocol ClosedWord: CaseIterable, RawRepresentable, Decodable where RawValue == String {
    /// The words and what they name.
    static var closedWords: ClosedWords { get }
}

extension ClosedWord {
    /// Reads one of ``closedWords``.
    public init(from decoder: any Decoder) throws {
        let text: String
        do { text = try decoder.singleValueContainer().decode(String.self) } catch let invalid as InvalidValue {
            throw invalid
        } catch {
            throw InvalidValue(codingPath: decoder.codingPath, message: "must be a string")
        }
        self = try Self.closedWords.decode(text, as: Self.self, codingPath: decoder.codingPath)
    }
}
