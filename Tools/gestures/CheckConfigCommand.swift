import CommandLineKit
import DesktopDaemon
import Foundation
import GestureRecognition
import InputChecks

extension DaemonConfiguration.Binding {
    /// `3-finger swipe left, on end: xdotool key super (claimed: kept from the desktop)`;
    /// a stroke binding that claims only mouse strokes says so when `readsMice`
    /// (the configuration has a `mouse` section: without one no mouse is read).
    func summary(readsMice: Bool) -> String {
        var words: [String] = []
        if let fingers = match.fingers { words.append("\(fingers)-finger") }
        words.append(match.gesture.rawValue)
        if let direction = match.swipeDirection { words.append(direction.rawValue) }
        if let direction = match.pinchDirection { words.append(direction.rawValue) }
        if let edge = match.edge { words.append("from the \(edge.rawValue) edge") }
        if let template = match.template { words.append("'\(template)'") }
        if let sequence = match.sequence { words.append("'\(sequence)'") }
        if let distance = match.minimumDistanceMillimeters { words.append("of at least \(FiredActionText.number(distance)) mm") }
        if let scale = match.minimumScale { words.append("to scale \(FiredActionText.number(scale)) or more") }
        if let scale = match.maximumScale { words.append("to scale \(FiredActionText.number(scale)) or less") }
        if let angle = match.minimumAngleDegrees { words.append("turning \(FiredActionText.number(angle))° or more") }
        if match.device != nil { words.append("on matching devices") }
        if let filter = match.application { words.append(filter.summary) }
        let when: String
        switch action.phase {
        case .end: when = "on end"
        case .begin: when = "on begin"
        case .continuous(let every):
            let unit =
                match.gesture == .swipe
                ? " mm"
                : match.pinchDirection == .clockwise || match.pinchDirection == .counterclockwise ? "°" : " scale step"
            when = "every \(FiredActionText.number(every))\(unit)"
        }
        let claimed =
            claim
            ? " (claimed: kept from the desktop)"
            : claimsMouseStrokes && readsMice
                ? " (claimed from a mouse: its stroke button kept from applications\(match.application == nil ? "" : " where the binding applies"))"
                : ""
        return "\(label): \(words.joined(separator: " ")), \(when): \(action.summary)\(claimed)"
    }
}

extension DaemonConfiguration.ApplicationFilter {
    /// `only in firefox or org\.mozilla\..*, titled '.*YouTube.*', not in foot`.
    var summary: String {
        var parts: [String] = []
        if !apps.isEmpty { parts.append("only in " + apps.joined(separator: " or ")) }
        if let title { parts.append("titled '\(title)'") }
        if !notApps.isEmpty { parts.append("not in " + notApps.joined(separator: " or ")) }
        return parts.joined(separator: ", ")
    }
}

enum FiredActionText {
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// `gestures check-config`: checks a configuration file and summarises it.
enum CheckConfigCommand: Command {
    static let name = "check-config"
    static let abstract = "Check a daemon configuration and print its errors or what it binds."
    static let discussion = """
        PATH defaults to $XDG_CONFIG_HOME/gestures/config.json (or config.yaml,
        config.yml; ~/.config without XDG_CONFIG_HOME). Every error is printed on
        stderr with the path of the bad key, and the exit status is 1; a valid
        file gets a summary of its bindings on stdout. `replay`, `watch` and
        `train` read the same file and report its errors the same way.
        """
    static let arguments = [ArgumentSpec("PATH", count: .optional, kind: .file, help: "The configuration file, JSON or YAML.")]
    static let strict = Flag(
        "--strict",
        help: "Treat warnings (bindings that can never fire or fire together, a second configuration file) as errors: exit status 1.")
    static let options = [strict.spec]

    /// The file to check, when given, and whether warnings fail.
    struct Options {
        var path: String?
        var strict: Bool
    }

    static func parse(_ arguments: ParsedArguments) -> Options {
        Options(path: arguments.positionals.first, strict: arguments[strict])
    }

    static func run(_ options: Options) throws -> Int32 {
        let path = try ConfigurationFile.path(options.path, orGive: "give its path: 'gestures check-config PATH'")
        let configuration = try ConfigurationFile.load(path, options: Self.options)
        // Names, patterns, commands and paths come from the file: every line is printed escaped.
        func print(_ line: String) { Swift.print(Excerpt.printable(line)) }
        let plural = { (count: Int, word: String) in counted(count, word) }
        let shapes = counted(configuration.templates.names.count, "shape")
        let templates = configuration.templatesPath.map { "templates \($0) (\(shapes))" } ?? "the bundled templates (\(shapes))"
        let devices = configuration.devices.isEmpty ? "every touch device" : plural(configuration.devices.count, "device matcher")
        print(
            "\(path): valid, version \(DaemonConfiguration.version): \(plural(configuration.bindings.count, "binding")), \(devices), \(plural(configuration.sequences.count, "sequence")), \(templates)"
        )
        print(
            "actions: at most \(configuration.actions.maximumConcurrent) at once, \(configuration.actions.queueLimit) waiting, timeout \(ActionTimeText.seconds(configuration.actions.timeout)) s"
        )
        for binding in configuration.bindings { print(binding.summary(readsMice: configuration.mouse != nil)) }
        for (winner, loser) in configuration.overrides() {
            let (a, b) = (configuration.bindings[winner], configuration.bindings[loser])
            print("where \(a.label) applies, it replaces \(b.label) (the same gesture; \(a.path) names the application)")
        }
        var warnings = configuration.warnings().map { "\(path): warning: \($0)" }
        if options.path == nil, let ignored = ConfigurationFile.ignoredDefaultPaths.first {
            warnings.insert("\(path): warning: \(ignored) is there too and ignored: keep one file", at: 0)
        }
        for warning in warnings { printError(Excerpt.printable(warning)) }
        return options.strict && !warnings.isEmpty ? 1 : 0
    }
}

enum ActionTimeText {
    static func seconds(_ duration: Duration) -> String {
        FiredActionText.number(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
}
