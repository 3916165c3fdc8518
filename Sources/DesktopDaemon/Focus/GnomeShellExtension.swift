/// GNOME Shell's side: the extension `Tools/gnome-extension/gestures-focus@gestures`
/// (GNOME 45 and later; ``legacyUUID`` is the same made for GNOME 40 to 44 by
/// `Tools/gnome-extension/legacy`), which serves ``objectPath`` on GNOME
/// Shell's bus name and calls back (``FocusCallback``) each daemon that subscribed.
enum GnomeShellExtension {
    /// The extension's id, as `gnome-extensions enable` takes it.
    static let uuid = "gestures-focus@gestures"
    /// The id of the same extension for GNOME 40 to 44.
    static let legacyUUID = "gestures-focus-legacy@gestures"
    /// What to run to enable the one for the user's GNOME.
    static let enableCommand =
        "`gnome-extensions enable \(uuid)` (GNOME 45 and later) or `gnome-extensions enable \(legacyUUID)` (GNOME 40 to 44)"
    /// The object it serves on `org.gnome.Shell`.
    static let objectPath = "/gestures/FocusReporter"
    /// Its interface.
    static let interface = "gestures.FocusReporter"
    /// The method a daemon calls with its unique bus name (then `Unsubscribe` with the same).
    static let subscribe = "Subscribe"
}
