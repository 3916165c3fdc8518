import Foundation
import GestureRecognition
import StructuredDocuments

extension DaemonConfiguration {
    /// The syntax of a configuration file.
    public enum Format: String, Sendable, CaseIterable {
        /// JSON.
        case json
        /// YAML, read through libyaml.
        case yaml

        /// The format for a file name: `.yaml` and `.yml` are YAML, `.json`
        /// JSON; otherwise JSON when the text starts with `{`, else YAML.
        public static func detect(path: String, data: Data) -> Format {
            let lower = path.lowercased()
            if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") { return .yaml }
            if lower.hasSuffix(".json") { return .json }
            let first = data.first { !(" \t\r\n" as String).utf8.contains($0) }
            return first == UInt8(ascii: "{") ? .json : .yaml
        }
    }

    /// Reads and checks the configuration file at `path`: its size before
    /// parsing (``Limits/maximumFileBytes``), then its syntax, its version,
    /// and every key. Relative template paths are taken from the file's directory.
    ///
    /// - Throws: ``ConfigurationErrors`` with every error found, each with
    ///   the path of the bad key.
    public static func load(contentsOf path: String) throws(ConfigurationErrors) -> DaemonConfiguration {
        let data = try readFile(path)
        do {
            return try decode(data, format: .detect(path: path, data: data),
                              baseDirectory: (path as NSString).deletingLastPathComponent)
        } catch {
            throw ConfigurationErrors(file: path, error.errors)
        }
    }

    /// Checks and decodes a configuration from `data`, collecting every
    /// error rather than stopping at the first; a missing or unsupported
    /// `version` stops the check, since the rest would be read by the wrong rules.
    ///
    ///     try DaemonConfiguration.decode(Data(#"{"version": 1, "bindings": [{"gesture": "tap"}]}"#.utf8), format: .json)
    ///     // throws: bindings[0].action: is required
    public static func decode(
        _ data: Data, format: Format, baseDirectory: String = FileManager.default.currentDirectoryPath
    ) throws(ConfigurationErrors) -> DaemonConfiguration {
        guard data.count <= Limits.maximumFileBytes else {
            throw ConfigurationErrors([.init("", "the file is \(data.count) bytes, over the limit of \(Limits.maximumFileBytes) bytes")])
        }
        let root: DocumentNode
        do {
            root = format == .json ? try DocumentNode.parse(json: data) : try DocumentNode.parse(yaml: data)
        } catch {
            throw ConfigurationErrors([.init("", error.description)])
        }
        var reader = ConfigurationReader(baseDirectory: baseDirectory)
        let configuration = reader.configuration(root)
        guard let configuration, reader.errors.isEmpty else { throw ConfigurationErrors(reader.errors) }
        return configuration
    }

    /// Reads at most one byte over the limit, so a huge file is never read whole.
    private static func readFile(_ path: String) throws(ConfigurationErrors) -> Data {
        func failure(_ message: String) -> ConfigurationErrors { ConfigurationErrors(file: path, [.init("", message)]) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw failure("no such file") }
        guard !isDirectory.boolValue else { throw failure("is a directory, not a configuration file") }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw failure("cannot be read (check its permissions)") }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: Limits.maximumFileBytes + 1) ?? Data() } catch {
            throw failure("cannot be read: \((error as NSError).localizedDescription)")
        }
        guard data.count <= Limits.maximumFileBytes else {
            throw failure("the file is over the limit of \(Limits.maximumFileBytes) bytes")
        }
        return data
    }
}
