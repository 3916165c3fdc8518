import DesktopConfiguration

/// Where the daemon learns which window has the focus: a binding's `apps`,
/// `notApps` and `title` are matched against what it says when a gesture's
/// fingers land (``DaemonConfiguration/applicability(for:)``).
///
/// Live sources (``LiveFocus``, over X11, sway or i3, Hyprland, wlroots
/// compositors' foreign-toplevel management, KWin) follow the
/// compositor's events and ignore the time; ``RecordedFocus`` replays a file
/// of timed focus changes beside a recording, so a replay is reproducible.
public protocol FocusSource: Sendable {
    /// The source's name, as `gestures focus` and `doctor` print it: `x11`, `sway`, `wlroots`, `recorded`.
    var name: String { get }
    /// The window focused at `time` on the gestures' clock (a recording's
    /// own time for a replay), or nil when none is (or none is known); a
    /// live source gives the latest it knows whatever the time.
    func focusedWindow(at time: Duration) -> FocusedWindow?
    /// Readies the source for `configuration`, which the daemon now uses:
    /// the session's connects when a binding first needs a focus
    /// (``SessionFocus``); others have nothing to do.
    func prepare(for configuration: DaemonConfiguration)
}

extension FocusSource {
    /// Nothing to do: a recorded focus or a live one already following.
    public func prepare(for configuration: DaemonConfiguration) {}
}
