import InputChecks

/// The KWin script the KWin focus source loads (``SessionBusFocusConnection``):
/// it follows KWin's activated window (`workspace.windowActivated` in
/// Plasma 6, `clientActivated` in Plasma 5) and its caption, and reports
/// each change to the daemon with `callDBus` (``FocusCallback``: the
/// window's `resourceClass`, `resourceName` and `caption`).
///
///     KWinScript.source(daemon: ":1.42")   // "const daemon = \":1.42\"; ..."
enum KWinScript {
    /// The script's text, calling back the bus name `daemon`.
    static func source(daemon: String) -> String {
        """
        // Loaded by gestures (its KWin focus source): reports each activated window over the session bus.
        const daemon = \(JSONText.quoted(daemon));
        function text(value) { return value === undefined || value === null ? "" : String(value); }
        let followed = null;
        function report() {
            if (followed) {
                callDBus(daemon, "\(FocusCallback.objectPath)", "\(FocusCallback.interface)", "\(FocusCallback.activated)",
                    text(followed.resourceClass), text(followed.resourceName), text(followed.caption));
            } else {
                callDBus(daemon, "\(FocusCallback.objectPath)", "\(FocusCallback.interface)", "\(FocusCallback.deactivated)");
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
}
