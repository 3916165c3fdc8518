import InputChecks

/// One thing wrong with a configuration, and where:
/// `bindings[3].action.every: must be a number between 0.5 and 1000 (mm)`.
/// The package's one such value (``InputChecks/InvalidValue``): the
/// configuration's errors have the paths and words of every other reader.
public typealias ConfigurationError = InvalidValue

/// Every error found in one configuration file, in document order.
public struct ConfigurationErrors: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file, when the configuration came from one.
    public var file: String?
    /// The errors; never empty when thrown.
    public var errors: [ConfigurationError]

    /// The errors of `file`.
    public init(file: String? = nil, _ errors: [ConfigurationError]) {
        self.file = file
        self.errors = errors
    }

    /// The most errors ``lines`` lists; the rest are counted in one more line.
    public static let maximumLines = 20
    /// The most errors ``description`` lists; the rest are counted.
    public static let maximumInDescription = 3

    /// One line per error, each starting with the file when known: at most
    /// ``maximumLines``, then `... and 180 more errors`.
    public var lines: [String] {
        var result = errors.prefix(Self.maximumLines).map { error in file.map { "\($0): \(error)" } ?? error.description }
        if errors.count > Self.maximumLines {
            result.append("\(file.map { "\($0): " } ?? "")... and \(errors.count - Self.maximumLines) more errors")
        }
        return result
    }

    /// The errors on one line: `config.json has 2 errors: a: ...; b: ...`
    /// (at most ``maximumInDescription`` of them, then how many more).
    public var description: String { description(listedBy: nil) }

    /// The errors on one line, as ``description``; when some are left out,
    /// it says that `command` lists every one: `...; and 2 more: 'gestures
    /// check-config config.yaml' lists every error`.
    public func description(listedBy command: String?) -> String {
        let count = errors.count == 1 ? "1 error" : "\(errors.count) errors"
        let what = file.map { "\($0) has \(count)" } ?? "the configuration has \(count)"
        var listed = errors.prefix(Self.maximumInDescription).map(\.description).joined(separator: "; ")
        if errors.count > Self.maximumInDescription {
            listed += "; and \(errors.count - Self.maximumInDescription) more"
            if let command { listed += ": '\(command)' lists every error" }
        }
        return what + ": " + listed
    }
}

extension ConfigurationError {
    /// An error at `path` saying `message`: `ConfigurationError("bindings[3].action", "is required")`.
    public init(_ path: String, _ message: String) {
        self.init(path: path, message: message)
    }
}
