/// The focus source the session offers (``FocusSession``), as the daemon
/// chooses it; a problem only when bindings with apps or title need one
/// and there is none (a binding with only notApps applies everywhere then).
struct FocusExamination: DoctorExamination {
    var area: DoctorCheck.Area { .focus }

    func examine(_ context: inout DoctorContext) -> DoctorCheck {
        let session = FocusSession.choose(context.system.environment)
        let filtered = context.configuration?.bindings.filter { $0.match.application != nil } ?? []
        // A filter with apps or title needs the focused window; one with only notApps applies without one.
        let naming = filtered.filter { $0.match.application?.namesApplications == true }
        let excluding = filtered.filter { $0.match.application?.namesApplications == false }
        guard let kind = session.kind else {
            let reason = session.reason.prefix(1).uppercased() + session.reason.dropFirst() + "."
            let everywhere =
                excluding.isEmpty
                ? nil
                : "\(DoctorWords.counted(excluding.count, "binding")) with only notApps \(excluding.count == 1 ? "applies" : "apply") in every application"
            guard !naming.isEmpty else {
                guard let everywhere else {
                    return DoctorCheck(
                        area: .focus, status: .ok,
                        summary:
                            "No binding names an application, so no focus source is needed (the session offers none: \(session.reason)).")
                }
                return DoctorCheck(area: .focus, status: .note, summary: "No focus source, so \(everywhere).", fix: reason)
            }
            let never =
                "\(DoctorWords.counted(naming.count, "binding")) with apps or title \(naming.count == 1 ? "never applies" : "never apply")"
            return DoctorCheck(
                area: .focus, status: .problem,
                summary: "No focus source, so \(never)\(everywhere.map { " and \($0)" } ?? "").", fix: reason)
        }
        let uses =
            filtered.isEmpty
            ? "no binding names an application"
            : filtered.count == 1 ? "1 binding names applications" : "\(filtered.count) bindings name applications"
        return DoctorCheck(
            area: .focus, status: .ok,
            summary: "The daemon reads the focused window from \(kind.rawValue) (\(session.reason)) at \(session.address ?? "?"); \(uses).")
    }
}
