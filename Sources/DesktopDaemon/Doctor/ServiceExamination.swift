import InputChecks

/// The service: the systemd user unit installed, enabled and running, and
/// its last log lines when it failed; a `gestures run` outside systemd is
/// well too.
struct ServiceExamination: DoctorExamination {
    var area: DoctorCheck.Area { .service }

    static let unit = "gestures.service"

    func examine(_ context: inout DoctorContext) -> DoctorCheck {
        let system = context.system
        let unit = Self.unit
        let installed = unitPaths(system).first { system.status(of: $0) != nil }
        let running = context.daemons.map { "pid \($0.pid)" }
        guard let installed else {
            if !running.isEmpty {
                return DoctorCheck(
                    area: .service, status: .ok,
                    summary: "gestures run is running (\(DoctorWords.list(running))), outside systemd: the user unit is not installed.")
            }
            return DoctorCheck(
                area: .service, status: .problem,
                summary: "The systemd user unit \(unit) is not installed and gestures run is not running.",
                fix: "Install it with Tools/install or the gestures package, then 'systemctl --user enable --now \(unit)'.")
        }
        let enabled = system.run(["systemctl", "--user", "is-enabled", unit]).map(firstWord)
        let active = system.run(["systemctl", "--user", "is-active", unit]).map(firstWord)
        guard let enabled, let active else {
            let how = running.isEmpty ? "gestures run is not running" : "gestures run is running (\(DoctorWords.list(running)))"
            return DoctorCheck(
                area: .service, status: running.isEmpty ? .problem : .ok,
                summary: "\(installed) is installed; systemd cannot be asked (no user session manager), and \(how).",
                fix: running.isEmpty ? "Start it: 'gestures run &', or log in to a session with systemd." : nil)
        }
        switch (enabled, active) {
        case (_, "active"), (_, "reloading"):
            let start = enabled == "enabled" ? "enabled" : "running but not enabled (it will not start at the next login)"
            return DoctorCheck(
                area: .service, status: enabled == "enabled" ? .ok : .problem,
                summary: "\(installed) is installed and \(start == "enabled" ? "enabled, and running" : start).",
                fix: enabled == "enabled" ? nil : "Enable it: 'systemctl --user enable \(unit)'.")
        case (_, "failed"):
            let log = system.run(["journalctl", "--user", "-u", unit, "-n", "5", "--no-pager", "-o", "cat"])?.output ?? ""
            let lines = log.split(separator: "\n").suffix(5).map { Excerpt.escaped($0, limit: 200) }
            return DoctorCheck(
                area: .service, status: .problem,
                summary: "\(unit) failed\(lines.last.map { ": \($0)" } ?? ".")",
                fix: "Read 'journalctl --user -u \(unit)', correct the error, then 'systemctl --user restart \(unit)'.",
                details: lines)
        default:
            if enabled == "enabled" {
                return DoctorCheck(
                    area: .service, status: .problem,
                    summary: "\(unit) is enabled but \(active) (it starts with the graphical session).",
                    fix: "Start it now: 'systemctl --user start \(unit)'.")
            }
            return DoctorCheck(
                area: .service, status: .problem,
                summary: "\(unit) is installed but \(enabled) and \(active).",
                fix: "Enable and start it: 'systemctl --user enable --now \(unit)'.")
        }
    }

    /// Where systemd looks for a user unit, in its order.
    private func unitPaths(_ system: any DoctorSystem) -> [String] {
        let environment = system.environment
        let home = environment["HOME"] ?? "/home/\(system.user.name)"
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        return [
            config + "/systemd/user", data + "/systemd/user", "/etc/systemd/user", "/usr/local/lib/systemd/user",
            "/usr/lib/systemd/user",
        ].map { "\($0)/\(Self.unit)" }
    }

    private func firstWord(_ result: DoctorCommandResult) -> String {
        result.output.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? "unknown"
    }
}
