/// Where the configuration of a session is looked for: the folder
/// `$XDG_CONFIG_HOME/gestures` (`~/.config/gestures` when that is unset or
/// not absolute), and in it `config.json`, `config.yaml`, `config.yml`, the
/// first present being the one read.
///
///     ConfigurationLocation(environment: ["HOME": "/home/ada"]).candidates.first
///     // "/home/ada/.config/gestures/config.json"
public struct ConfigurationLocation: Hashable, Sendable {
    /// The file names looked for, in the order they are preferred.
    public static let fileNames = ["config.json", "config.yaml", "config.yml"]

    /// The folder.
    public var directory: String

    /// The folder of the session whose environment is `environment`.
    public init(environment: [String: String]) {
        let base: String
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else {
            base = (environment["HOME"] ?? "") + "/.config"
        }
        directory = base + "/gestures"
    }

    /// The files looked for, in order of preference.
    public var candidates: [String] { Self.fileNames.map { "\(directory)/\($0)" } }
}
