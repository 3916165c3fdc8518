import Foundation
import GestureRecognition
import GestureTraces
import InputChecks
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
            return try decode(
                data, format: .detect(path: path, data: data),
                baseDirectory: PathName.folder(of: path))
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
            throw ConfigurationErrors([
                .init(path: "", message: InputFile.tooLargeMessage(bytes: data.count, limit: Limits.maximumFileBytes))
            ])
        }
        let root: DocumentNode
        do {
            root = format == .json ? try DocumentNode.parse(json: data) : try DocumentNode.parse(yaml: data)
        } catch {
            throw ConfigurationErrors([.init(path: "", message: error.description)])
        }
        guard case .object = root else {
            throw ConfigurationErrors([.init(path: "", message: "the document must be an object (a mapping), not \(root.kindDescription)")])
        }
        do throws(InvalidValues) {
            return try DaemonConfiguration(from: root.decoder, baseDirectory: baseDirectory)
        } catch {
            throw ConfigurationErrors(error.all)
        }
    }

    /// Reads the file, its size checked before anything is read.
    private static func readFile(_ path: String) throws(ConfigurationErrors) -> Data {
        do { return try InputFile.read(path, maximumBytes: Limits.maximumFileBytes) } catch {
            throw ConfigurationErrors(file: path, [.init(path: "", message: error.message)])
        }
    }
}
