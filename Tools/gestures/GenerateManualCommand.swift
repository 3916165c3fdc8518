import CommandLineKit
import DesktopDaemon

/// `gestures generate-manual` (hidden): prints the manual page, made from the
/// same option tables as `--help`; `Tools/install` installs it as gestures(1).
enum GenerateManualCommand: Command {
    static let name = "generate-manual"
    static let abstract = "Print the manual page gestures(1) in roff, from the option tables."

    static func parse(_ arguments: ParsedArguments) {}

    static func run(_ options: Void) -> Int32 {
        print(page.text, terminator: "")
        return 0
    }

    /// The page: the tool's tables plus what no table says.
    static var page: ManualPage {
        ManualPage(tool: gesturesTool, description: description, sections: sections)
    }

    static let description = """
        gestures reads touchpads, touchscreens and mice through libevdev (live) or
        recordings (JSON traces, libinput record YAML, evemu), recognises swipes,
        pinches, rotations, holds, taps, swipe sequences and drawn shapes, and
        prints them or, as a daemon (gestures run), runs the commands a
        configuration file binds to them.

        The commands that read a file look at its content first: a file of the
        wrong kind (a stroke log given to replay, a recording given to recognize,
        a configuration given where a recording is expected) is refused with one
        sentence saying what it is and which command takes it.
        """

    /// What each top-level key of a configuration holds; every key the reader takes has a line (a test checks).
    static let configurationKeys: [(key: String, help: String)] = [
        ("version", "required: 1."),
        (
            "devices",
            "the devices read: a list of {name: PATTERN} (a regular expression) or {vendor, product}; default every touchpad, touchscreen and mouse."
        ),
        ("engine", "the gesture engine's thresholds (gestures check-config names every key it takes)."),
        ("sequences", "named swipe sequences: {name, directions: [left, right, ...]}."),
        ("templates", "the template library of drawn shapes (~ is $HOME; relative to this file); default the 16 $1 shapes."),
        ("actions", "how commands run: maximumConcurrent, queueLimit, timeoutSeconds."),
        ("mouse", "read mice, and the button that draws their strokes: {button: right|middle|left, orientation, threshold, ...}."),
        ("bindings", "the list of bindings, each a gesture and an action (below)."),
        ("intercept", "keep claimed gestures from the desktop (default true)."),
    ]

    /// The configuration this page shows, which passes check-config as pasted (a test checks).
    static let example = """
        version: 1
        bindings:
          - name: next workspace
            gesture: swipe
            fingers: 3
            direction: left
            action: {keys: [leftmeta, right]}
          - name: volume
            gesture: swipe
            fingers: 4
            direction: up
            action: {phase: continuous, every: 5, command: [wpctl, set-volume, "@DEFAULT_SINK@", 5%+]}
          - gesture: pinch
            direction: in
            action: {command: [xdotool, key, ctrl+minus]}
        """

    /// The CONFIGURATION section: the top-level keys, a binding's keys from
    /// the reader's own form (``DaemonConfiguration/BindingForm``), and an example.
    static var configuration: String {
        let form = DaemonConfiguration().bindingForm
        let keys = configurationKeys.map { "\($0.key): \($0.help)" }.joined(separator: "\n\n")
        let fields = form.fields.map { "\($0.key): \($0.help)" }.joined(separator: "\n\n")
        return """
            The configuration is one YAML or JSON object. gestures check-config checks it and prints every error with the path of the bad key (bindings[2].fingers); Docs/Configuration.md has every key and its range.

            \(keys)

            A binding names a gesture (\(form.gestures.joined(separator: ", "))), the conditions it must meet and one action (\(form.actionKinds.joined(separator: ", "))):

            \(fields)

            An example:

            \(example.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
            """
    }

    static var sections: [ManualPage.Section] {
        let files = ConfigurationLocation.fileNames
        return [
            .init("CONFIGURATION", configuration),
            .init(
                "FILES",
                """
                $XDG_CONFIG_HOME/gestures/\(files[0]) (or \(files.dropFirst().joined(separator: ", ")), in that order: the first that exists is read; ~/.config when XDG_CONFIG_HOME is unset)

                The configuration of gestures run, also read by replay, watch and train (--config PATH names another, --no-config reads none). gestures check-config checks it and prints every error with the path of the bad key.

                /usr/lib/udev/rules.d/70-gestures.rules (the package), /etc/udev/rules.d/70-gestures.rules (Tools/install)

                Lets the logged-in user and the input group read touchpads, touchscreens, mice and tablets.

                /usr/lib/systemd/user/gestures.service (the package), ~/.local/share/systemd/user/gestures.service (Tools/install)

                The systemd user unit that runs gestures run with the graphical session.
                """),
            .init(
                "ENVIRONMENT",
                """
                The commands gestures run starts get \(FiredAction.variableNames.dropLast().joined(separator: ", ")) and \(FiredAction.variableNames.last!); values that do not apply are unset.
                """),
            .init("SEE ALSO", "libinput(1), evemu-record(1), udev(7), systemctl(1)"),
        ]
    }
}
