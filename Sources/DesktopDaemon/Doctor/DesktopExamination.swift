import InputChecks

/// The desktop's own gestures that the bindings overlap, and whether
/// interception keeps them from it.
struct DesktopExamination: DoctorExamination {
    var area: DoctorCheck.Area { .desktop }

    func examine(_ context: inout DoctorContext) -> DoctorCheck {
        let configuration = context.configuration
        let uinputWritable = context.uinputWritable
        let environment = context.system.environment
        guard let desktop = Doctor.desktopGestures(environment: environment) else {
            guard let name = environment["XDG_CURRENT_DESKTOP"], !name.isEmpty else {
                return DoctorCheck(
                    area: .desktop, status: .note,
                    summary:
                        "The desktop is not known (XDG_CURRENT_DESKTOP is not set), so its own gestures could not be compared with the bindings."
                )
            }
            let session = environment["XDG_SESSION_TYPE"].map { Excerpt.quoted($0, limit: 20) } ?? "an unknown type"
            return DoctorCheck(
                area: .desktop, status: .ok,
                summary: "\(Excerpt.quoted(name, limit: 40)) (session \(session)) has no gestures of its own that gestures knows of.")
        }
        guard let configuration else {
            return DoctorCheck(
                area: .desktop, status: .note,
                summary:
                    "\(desktop.name) on Wayland takes \(DoctorWords.fingerList(desktop.swipeFingers))-finger swipes (\(desktop.swipePurpose)); there are no bindings to compare yet."
            )
        }
        var uncovered: [DaemonConfiguration.Binding] = []
        var covered: [DaemonConfiguration.Binding] = []
        for binding in configuration.bindings where binding.match.gesture == .swipe {
            let overlaps =
                binding.match.fingers.map(desktop.swipeFingers.contains) ?? true
                || (desktop.takesEdgeSwipes && binding.match.edge != nil)
            guard overlaps else { continue }
            if configuration.intercept && binding.claim && uinputWritable { covered.append(binding) } else { uncovered.append(binding) }
        }
        let takes =
            "\(desktop.name) takes \(DoctorWords.fingerList(desktop.swipeFingers))-finger swipes (\(desktop.swipePurpose))\(desktop.takesEdgeSwipes ? " and touchscreen edge swipes" : "")"
        guard let first = uncovered.first else {
            let summary =
                covered.isEmpty
                ? "\(takes); no binding overlaps them."
                : "\(takes); interception keeps them from it for \(DoctorWords.list(covered.map(\.reference)))."
            return DoctorCheck(area: .desktop, status: .ok, summary: summary)
        }
        let fix: String
        if !configuration.intercept {
            fix = "Set 'intercept: true' in the configuration so that claimed gestures never reach \(desktop.name)."
        } else if !uinputWritable {
            fix =
                "Give access to /dev/uinput (see the uinput check above), so that the daemon can keep claimed gestures from \(desktop.name)."
        } else {
            fix = "Add 'claim: true' to \(first.path) (or bind a finger count \(desktop.name) leaves alone, such as 5)."
        }
        return DoctorCheck(
            area: .desktop, status: .problem,
            summary:
                "\(takes), and \(DoctorWords.list(uncovered.map(\.reference))) will do both \(desktop.name)'s action and its own.",
            fix: fix)
    }
}

extension Doctor {
    /// A desktop's own gestures that `gestures` bindings can overlap.
    public struct DesktopGestures: Hashable, Sendable {
        /// Its name as people say it.
        public var name: String
        /// The finger counts of the touchpad and touchscreen swipes it takes.
        public var swipeFingers: Set<Int>
        /// What those swipes do there.
        public var swipePurpose: String
        /// Whether it takes swipes from the touchscreen's edges.
        public var takesEdgeSwipes: Bool
    }

    /// The desktop of the session, from `XDG_CURRENT_DESKTOP` and
    /// `XDG_SESSION_TYPE`, and the gestures it takes: GNOME Shell on Wayland
    /// 3- and 4-finger swipes (workspaces, the overview), KDE Plasma on
    /// Wayland 3- and 4-finger swipes (virtual desktops, Overview) and
    /// touchscreen edge swipes; X11 sessions none.
    public static func desktopGestures(environment: [String: String]) -> DesktopGestures? {
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").uppercased().split(separator: ":").map(String.init)
        guard (environment["XDG_SESSION_TYPE"] ?? "").lowercased() == "wayland" else { return nil }
        if desktops.contains("GNOME") {
            return DesktopGestures(
                name: "GNOME", swipeFingers: [3, 4], swipePurpose: "workspaces and the overview", takesEdgeSwipes: false)
        }
        if desktops.contains("KDE") {
            return DesktopGestures(
                name: "KDE Plasma", swipeFingers: [3, 4], swipePurpose: "virtual desktops and Overview", takesEdgeSwipes: true)
        }
        return nil
    }
}
