import CommandLineKit
import DesktopDaemon
import Foundation

/// The one configuration file every command reads: the daemon's (`run`,
/// `check-config`), whose `engine`, `sequences` and `templates` sections
/// `replay`, `watch` and `train` use too, checked the same way everywhere.
enum ConfigurationFile {
    /// The directory the file is looked for in: $XDG_CONFIG_HOME/gestures
    /// (default ~/.config/gestures).
    static var defaultDirectory: String {
        var environment = ProcessInfo.processInfo.environment
        if environment["HOME"] == nil { environment["HOME"] = NSHomeDirectory() }
        return ConfigurationLocation(environment: environment).directory
    }

    /// The first of config.json, config.yaml, config.yml in ``defaultDirectory``
    /// that exists, or nil.
    static var existingDefaultPath: String? {
        ConfigurationLocation.fileNames.lazy.map { "\(defaultDirectory)/\($0)" }
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The default files present beside the one read, which are ignored.
    static var ignoredDefaultPaths: [String] {
        Array(
            ConfigurationLocation.fileNames.map { "\(defaultDirectory)/\($0)" }
                .filter { FileManager.default.fileExists(atPath: $0) }.dropFirst())
    }

    /// `given`, else the default file; a failure saying where to write one
    /// when there is none, ending with `orGive` (how this command names
    /// another file: `give --config PATH`).
    static func path(_ given: String?, orGive: String = "give --config PATH") throws -> String {
        if let path = given ?? existingDefaultPath { return path }
        throw CommandFailure(
            "no configuration file: write \(defaultDirectory)/config.yaml (see 'man gestures' or the README, \"A first configuration\"), or \(orGive)"
        )
    }

    /// Reads and checks the file at `path`, after checking it is one
    /// (``FileArgument``; `options`, the command's table, for its hints).
    ///
    /// - Throws: a ``FailureReport`` with one line per error, each naming
    ///   the file and the bad key, as `check-config` prints them; a
    ///   ``CommandFailure`` for a file that is not a configuration.
    static func load(_ path: String, options: [OptionSpec] = []) throws -> DaemonConfiguration {
        try FileArgument.check(path, as: .configuration, options: options)
        do { return try DaemonConfiguration.load(contentsOf: path) } catch {
            throw FailureReport(lines: error.lines)
        }
    }

    /// The `--config PATH` option.
    static let option = Option(
        "--config", valueName: "PATH", .file,
        help: "The configuration file, JSON or YAML (default: $XDG_CONFIG_HOME/gestures/config.json or config.yaml).")
}

/// `--config PATH` and `--no-config`, for the commands that use the
/// configuration's engine, sequences and templates when there is one:
/// the file given, else the default file when it exists, else none.
struct ConfigurationOptions: OptionGroup {
    /// `--no-config`: the engine's defaults even when the default file exists.
    static let none = Flag("--no-config", help: "Read no configuration file: the engine's defaults and the bundled templates.")

    static var options: [OptionSpec] { [ConfigurationFile.option.spec, none.spec] }

    /// Which file to read.
    enum Choice: Equatable {
        /// This file; it must exist.
        case file(String)
        /// The default file, when it exists.
        case defaultIfPresent
        /// None.
        case none
    }

    /// Which file to read.
    var choice: Choice

    init(_ arguments: ParsedArguments) throws(UsageError) {
        switch (arguments[ConfigurationFile.option], arguments[Self.none]) {
        case (let path?, false): choice = .file(path)
        case (nil, false): choice = .defaultIfPresent
        case (nil, true): choice = .none
        case (_?, true): throw UsageError("--config and --no-config cannot be combined")
        }
    }

    /// The checked configuration, or nil when there is none to read;
    /// `options` is the command's table, for hints.
    ///
    /// - Throws: a ``FailureReport`` of its errors, as `check-config` prints them.
    func load(options: [OptionSpec] = []) throws -> DaemonConfiguration? {
        try readPath.map { path in try ConfigurationFile.load(path, options: options) }
    }

    /// The file ``load(options:)`` reads: the one given, or the default one
    /// when it exists; nil with `--no-config` or without a default file.
    var readPath: String? {
        switch choice {
        case .file(let given): given
        case .defaultIfPresent: ConfigurationFile.existingDefaultPath
        case .none: nil
        }
    }
}
