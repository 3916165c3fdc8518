import GestureRecognition
import InputChecks
import InputInterception

extension DaemonConfiguration {
    /// What is claimed on `device` while `focus` has the focus (nil: none
    /// known): the claiming bindings (for a mouse, those that claim mouse
    /// strokes, `Binding.claimsMouseStrokes`) whose `device` matches it and that apply
    /// to the focused window (``applicability(for:)``, the matcher's own
    /// rule: a gesture bound only for another application reaches the
    /// desktop as if unbound); a name pattern that cannot decide claims
    /// nothing, and says so in `notes`.
    public func interceptionPolicy(
        for device: InputDevice, focus: FocusedWindow? = nil
    ) -> (policy: PassThroughFilter.Policy, notes: [String]) {
        interceptionPolicy(for: device, applicability: applicability(for: focus))
    }

    /// What is claimed on `device` when the bindings apply as `applicability` says.
    func interceptionPolicy(
        for device: InputDevice, applicability: [Applicability]
    ) -> (policy: PassThroughFilter.Policy, notes: [String]) {
        var claims: [PassThroughFilter.Claim] = []
        var notes: [String] = []
        // A mouse's one claim is its stroke button's (`PassThroughFilter.Policy.claimsMouseStrokes`).
        for (index, binding) in bindings.enumerated()
        where binding.claims(onMouse: device.isMouse) && applicability[index] == .applies {
            if let matcher = binding.match.device {
                switch matcher.match(device) {
                case .matched: break
                case .notMatched: continue
                case .patternFailed(let outcome):
                    notes.append(
                        "\(binding.label).device.name: the pattern \(outcome) against the device \(Excerpt.quoted(device.name, limit: 80)), so the binding claims nothing on it"
                    )
                    continue
                }
            }
            let claim = PassThroughFilter.Claim(
                gesture: binding.match.gesture, fingers: binding.match.fingers,
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

extension DaemonConfiguration.DeviceMatcher {
    /// Whether `device` matches (see ``match(name:vendor:product:)``).
    public func match(_ device: InputDevice) -> Outcome {
        match(name: device.name, vendor: device.vendor, product: device.product)
    }
}
