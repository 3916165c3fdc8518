import GestureRecognition

extension DaemonConfiguration {
    /// Whether a binding claims its gesture when its file does not say:
    /// swipes, pinches, holds and taps of 3 or more fingers.
    ///
    /// Those are the gestures desktops take for themselves (GNOME and KDE
    /// switch workspaces and open overviews with 3- and 4-finger swipes;
    /// libinput makes a 3-finger tap a middle click), so a user who binds one
    /// wants it instead of the desktop's. One and two fingers are pointer
    /// motion, scrolling, zooming in applications and clicks: claiming those
    /// takes them from every application, so it is asked for with `claim: true`.
    /// Strokes are not claimed by default (a one-finger stroke on a
    /// touchscreen is also every drag), nor is a binding without `fingers`.
    public static func claimsByDefault(_ match: Match) -> Bool {
        let kinds: Set<GestureEvent.Kind> = [.swipe, .pinch, .hold, .tap]
        guard kinds.contains(match.gesture), let fingers = match.fingers else { return false }
        return fingers >= 3
    }
}
