/// What `gestures ui` needs: the daemon's socket (in `XDG_RUNTIME_DIR`) for
/// the live view, and `xdg-open` to open the page. Never a problem: the
/// gestures work without the page; a note says what the page lacks.
struct PageExamination: DoctorExamination {
    var area: DoctorCheck.Area { .page }

    func examine(_ context: inout DoctorContext) -> DoctorCheck {
        let system = context.system
        let opener = ["/usr/bin/xdg-open", "/usr/local/bin/xdg-open"].contains { system.status(of: $0) != nil }
        let browser = opener ? [] : ["xdg-open is missing (Debian's xdg-utils): gestures ui prints its address for you to open"]
        guard let socket = DaemonChannel.defaultPath(system.environment) else {
            return DoctorCheck(
                area: .page, status: .note,
                summary: "XDG_RUNTIME_DIR is not set, so the daemon offers no socket and gestures ui cannot show its live view.",
                fix:
                    "Log in through the desktop's login screen (pam_systemd sets XDG_RUNTIME_DIR), or run gestures ui with --socket PATH and gestures run with the same --socket PATH.",
                details: browser)
        }
        let offered = system.status(of: socket)?.kind == .other
        switch (offered, context.daemons.isEmpty) {
        case (true, _):
            return DoctorCheck(
                area: .page, status: .ok, summary: "The daemon offers its socket at \(socket): gestures ui shows what it sees.",
                details: browser)
        case (false, true):
            return DoctorCheck(
                area: .page, status: .note,
                summary: "No daemon runs, so gestures ui can edit bindings and train shapes but shows no live view.",
                fix: "Start the daemon (systemctl --user start gestures) for the live view.", details: browser)
        case (false, false):
            return DoctorCheck(
                area: .page, status: .note,
                summary: "The daemon runs but offers no socket at \(socket), so gestures ui shows no live view.",
                fix: "Restart it (systemctl --user restart gestures); its log says why it could not listen.", details: browser)
        }
    }
}
