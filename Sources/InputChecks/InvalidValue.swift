/// A decoded value that its type does not accept, said in the project's
/// words with the path of the value: `strokeRecognition.resampleCount: must
/// be an integer between 8 and 1024`.
///
/// Thrown by the `Decodable` initialisers of configuration types (see
/// ``NumberRange``) and by ``JSONText/decode(_:from:maximumDepth:)``, which
/// also turns Foundation's decoding errors into it.
public struct InvalidValue: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where, as `sequences[2].directions[0]`; empty for the whole document.
    public var path: String
    /// What is wrong, as a phrase: `must be one of up, down, left, right`.
    public var message: String

    /// An error at `path` saying `message`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// An error at the coding path `codingPath` saying `message`.
    public init(codingPath: [any CodingKey], message: String) {
        self.init(path: JSONText.keyPath(codingPath), message: message)
    }

    /// The path under `root`: `engine` + `swipeDirection.ways` is `engine.swipeDirection.ways`.
    public func path(under root: String) -> String {
        if path.isEmpty { return root }
        if root.isEmpty { return path }
        return path.hasPrefix("[") ? root + path : root + "." + path
    }

    /// `path: message`, or the message alone for the whole document.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
