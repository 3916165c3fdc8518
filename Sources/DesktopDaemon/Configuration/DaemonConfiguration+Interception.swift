import InputInterception
import GestureRecognition
import InputChecks

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

    /// What is claimed on `device`: the claiming bindings whose `device`
    /// matches it (a name pattern that cannot decide claims nothing, and
    /// says so in `notes`), with the engine's thresholds.
    public func interceptionPolicy(for device: InputDevice) -> (policy: PassThroughFilter.Policy, notes: [String]) {
        var claims: [PassThroughFilter.Claim] = []
        var notes: [String] = []
        for binding in bindings where binding.claim {
            if let matcher = binding.match.device {
                switch matcher.match(device) {
                case .matched: break
                case .notMatched: continue
                case .patternFailed(let outcome):
                    notes.append("\(binding.label).device.name: the pattern \(outcome) against the device \(Excerpt.quoted(device.name, limit: 80)), so the binding claims nothing on it")
                    continue
                }
            }
            let claim = PassThroughFilter.Claim(gesture: binding.match.gesture, fingers: binding.match.fingers,
                                                direction: binding.match.gesture == .swipe ? binding.match.swipeDirection : nil)
            if !claims.contains(claim) { claims.append(claim) }
        }
        // A claim on every direction makes the direction-bound ones of the same swipe redundant.
        let everyDirection = claims.filter { $0.direction == nil }
        claims.removeAll { claim in
            claim.direction != nil && everyDirection.contains { $0.gesture == claim.gesture && $0.fingers == claim.fingers }
        }
        return (PassThroughFilter.Policy(claims: claims), notes)
    }
}
