import InputChecks

/// Other gesture tools reading the same devices (a gesture bound in both
/// does both), and a second `gestures run` (every binding fires once in each).
struct OtherToolsExamination: DoctorExamination {
    var area: DoctorCheck.Area { .otherTools }

    func examine(_ context: inout DoctorContext) -> DoctorCheck {
        let daemons = context.daemons
        var found: [String] = []
        for process in context.system.processes() {
            // Scripts run by an interpreter show it first: `ruby /usr/bin/fusuma`.
            let programs = process.arguments.prefix(2).map { PathName.lastComponent(of: $0) }
            if let tool = Doctor.otherTools.first(where: { tool in programs.contains { $0 == tool || $0.hasPrefix(tool + ".") } }) {
                found.append("\(tool) (pid \(process.pid))")
            }
        }
        var sentences: [String] = []
        if !found.isEmpty {
            sentences.append(
                "\(DoctorWords.list(found)) \(found.count == 1 ? "is" : "are") running and \(found.count == 1 ? "reads" : "read") the same touchpad: a gesture bound in both does both"
            )
        }
        if daemons.count > 1 {
            sentences.append(
                "\(daemons.count) gestures run processes are running (\(DoctorWords.list(daemons.map { "pid \($0.pid)" }))): every binding fires once in each"
            )
        }
        guard !sentences.isEmpty else {
            return DoctorCheck(area: .otherTools, status: .ok, summary: "No other gesture tool is running.")
        }
        var fixes: [String] = []
        if !found.isEmpty {
            fixes.append(
                "stop and disable \(found.count == 1 ? "it" : "them") (for example 'systemctl --user disable --now fusuma', or remove it from the session's autostart)"
            )
        }
        if daemons.count > 1 { fixes.append("keep one gestures run (the service) and stop the others") }
        return DoctorCheck(
            area: .otherTools, status: .problem, summary: sentences.joined(separator: "; ") + ".",
            fix: fixes.joined(separator: "; ").prefix(1).uppercased() + fixes.joined(separator: "; ").dropFirst() + ".")
    }
}

extension Doctor {
    /// The gesture tools that read the same devices, by program name.
    public static let otherTools = ["libinput-gestures", "fusuma", "touchegg", "gebaar"]
}
