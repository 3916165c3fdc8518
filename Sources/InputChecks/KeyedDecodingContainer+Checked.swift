extension KeyedDecodingContainer {
    /// The number at `key`, or nil when absent or null; anything else that
    /// is not a number in `range` throws ``InvalidValue`` with the range's
    /// ``NumberRange/requirement``.
    public func decodeNumber(forKey key: Key, in range: NumberRange) throws -> Double? {
        let value: Double?
        do { value = try decodeIfPresent(Double.self, forKey: key) } catch {
            throw InvalidValue(codingPath: codingPath + [key], message: range.requirement)
        }
        guard let value else { return nil }
        guard range.contains(value) else { throw InvalidValue(codingPath: codingPath + [key], message: range.requirement) }
        return value
    }

    /// The integer at `key`, or nil when absent or null, checked as ``decodeNumber(forKey:in:)`` checks.
    public func decodeInteger(forKey key: Key, in range: NumberRange) throws -> Int? {
        var whole = range
        whole.wholeNumbers = true
        guard let value = try decodeNumber(forKey: key, in: whole) else { return nil }
        guard let integer = whole.integer(value) else { throw InvalidValue(codingPath: codingPath + [key], message: whole.requirement) }
        return integer
    }

    /// The boolean at `key`, or nil when absent or null; a decoder's own
    /// ``InvalidValue`` (which may say what it found) passes through.
    public func decodeFlag(forKey key: Key) throws -> Bool? {
        do { return try decodeIfPresent(Bool.self, forKey: key) } catch let invalid as InvalidValue { throw invalid } catch {
            throw InvalidValue(codingPath: codingPath + [key], message: "must be true or false")
        }
    }

    /// The string at `key`, or nil when absent or null; a decoder's own
    /// ``InvalidValue`` passes through.
    public func decodeText(forKey key: Key) throws -> String? {
        do { return try decodeIfPresent(String.self, forKey: key) } catch let invalid as InvalidValue { throw invalid } catch {
            throw InvalidValue(codingPath: codingPath + [key], message: "must be a string")
        }
    }
}
