/// The calls a compositor's code of ours (``KWinScript``, the GNOME Shell
/// extension) makes to the daemon on the session bus, which
/// ``SessionBusFocusConnection`` serves: `Activated(class, instance, title)`
/// when a window is activated or retitled, `Deactivated()` when none is
/// active, on ``objectPath`` and ``interface`` of the daemon's unique bus name.
enum FocusCallback {
    /// The object path called.
    static let objectPath = "/gestures/Focus"
    /// The interface of the calls.
    static let interface = "gestures.Focus"
    /// The method called with (class, instance, title) when a window is activated or retitled.
    static let activated = "Activated"
    /// The method called with nothing when no window is active.
    static let deactivated = "Deactivated"

    /// The focus a call says: `Activated(class, instance, title)` gives that
    /// window (the instance kept when it differs), and `Deactivated()` no
    /// window; nil for any other call.
    static func change(member: String, arguments: [String], source: String) -> FocusedWindow?? {
        switch (member, arguments.count) {
        case (activated, 3):
            let instance = arguments[1].isEmpty || arguments[1] == arguments[0] ? nil : arguments[1]
            return .some(FocusedWindow(appID: arguments[0], instance: instance, title: arguments[2], source: source))
        case (deactivated, 0): return .some(nil)
        default: return nil
        }
    }
}
