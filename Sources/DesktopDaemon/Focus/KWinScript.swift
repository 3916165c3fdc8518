import InputChecks

/// The KWin script the KWin focus source loads (``KWinFocusConnection``):
/// it follows KWin's activated window (`workspace.windowActivated` in
/// Plasma 6, `clientActivated` in Plasma 5) and its caption, and reports
/// each change to the daemon over the session bus with `callDBus`: a call
/// of ``activated`` with the window's `resourceClass`, `resourceName` and
/// `caption`, or of ``deactivated`` when no window is active. The calls go
/// to the daemon's unique bus name, on ``objectPath`` and ``interface``.
///
///     KWinScript.source(daemon: ":1.42")   // "const daemon = \":1.42\"; ..."
enum KWinScript {
    /// The object path the script calls.
    static let objectPath = "/gestures/Focus"
    /// The interface of the calls.
    static let interface = "gestures.Focus"
    /// The method called with (resourceClass, resourceName, caption) when a window is activated or retitled.
    static let activated = "Activated"
    /// The method called with nothing when no window is active.
    static let deactivated = "Deactivated"
    /// The signature of ``activated``'s arguments.
    static let activatedSignature = "sss"

    /// The script's text, calling back the bus name `daemon`.
    static func source(daemon: String) -> String {
        """
        // Loaded by gestures (its KWin focus source): reports each activated window over the session bus.
        const daemon = \(JSONText.quoted(daemon));
        function text(value) { return value === undefined || value === null ? "" : String(value); }
        let followed = null;
        function report() {
            if (followed) {
                callDBus(daemon, "\(objectPath)", "\(interface)", "\(activated)",
                    text(followed.resourceClass), text(followed.resourceName), text(followed.caption));
            } else {
                callDBus(daemon, "\(objectPath)", "\(interface)", "\(deactivated)");
            }
        }
        function activated(window) {
            if (followed) { try { followed.captionChanged.disconnect(report); } catch (error) {} }
            followed = window || null;
            if (followed) followed.captionChanged.connect(report);
            report();
        }
        (workspace.windowActivated || workspace.clientActivated).connect(activated);
        activated(workspace.activeWindow !== undefined ? workspace.activeWindow : workspace.activeClient);

        """
    }

    /// The focus a call of the script says: `Activated(class, name, caption)`
    /// gives that window (the name as its instance when it differs), and
    /// `Deactivated()` no window; nil for any other call.
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
