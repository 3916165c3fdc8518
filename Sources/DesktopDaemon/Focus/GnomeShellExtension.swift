/// GNOME Shell's side: the extension `Tools/gnome-extension/gestures-focus@gestures`
/// (GNOME 45 and later), which serves ``objectPath`` on GNOME Shell's bus
/// name and calls back (``FocusCallback``) each daemon that subscribed.
enum GnomeShellExtension {
    /// The extension's id, as `gnome-extensions enable` takes it.
    static let uuid = "gestures-focus@gestures"
    /// The object it serves on `org.gnome.Shell`.
    static let objectPath = "/gestures/FocusReporter"
    /// Its interface.
    static let interface = "gestures.FocusReporter"
    /// The method a daemon calls with its unique bus name (then `Unsubscribe` with the same).
    static let subscribe = "Subscribe"
}
