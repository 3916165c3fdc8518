import CommandLineKit

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

    static let sections: [ManualPage.Section] = [
        .init(
            "FILES",
            """
            $XDG_CONFIG_HOME/gestures/config.yaml (or config.json, config.yml; ~/.config when XDG_CONFIG_HOME is unset)

            The configuration of gestures run, also read by replay, watch and train (--config PATH names another, --no-config reads none). gestures check-config checks it and prints every error with the path of the bad key.

            /etc/udev/rules.d/70-gestures.rules

            Lets the logged-in user and the input group read touchpads, touchscreens, mice and tablets (installed by Tools/install).

            ~/.local/share/systemd/user/gestures.service

            The systemd user unit that runs gestures run with the graphical session.
            """),
        .init(
            "ENVIRONMENT",
            """
            The commands gestures run starts get GESTURE_TYPE, GESTURE_PHASE, GESTURE_FINGERS, GESTURE_TIME_MS, GESTURE_DIRECTION, GESTURE_DX_MM, GESTURE_DY_MM, GESTURE_DISTANCE_MM, GESTURE_EDGE, GESTURE_SCALE, GESTURE_ANGLE_DEGREES, GESTURE_TEMPLATE, GESTURE_SCORE, GESTURE_SEQUENCE, GESTURE_STEP, GESTURE_DEVICE, GESTURE_DEVICE_VENDOR, GESTURE_DEVICE_PRODUCT and GESTURE_BINDING; values that do not apply are unset.
            """),
        .init("SEE ALSO", "libinput(1), evemu-record(1), udev(7), systemctl(1)"),
    ]
}
