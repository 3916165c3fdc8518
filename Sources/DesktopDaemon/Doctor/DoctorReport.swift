import InputChecks

/// One thing the doctor checked.
public struct DoctorCheck: Hashable, Sendable, Encodable {
    /// What was checked.
    public enum Area: String, Hashable, Sendable, Encodable, CaseIterable {
        case devices, uinput, configuration, service
        case otherTools = "other-tools"
        case desktop
        case focus
        case page
    }

    /// How it went.
    public enum Status: String, Hashable, Sendable, Encodable {
        /// All well.
        case ok
        /// Worth knowing; nothing to do.
        case note
        /// Something will not work: ``DoctorCheck/fix`` says what to do.
        case problem
        /// It could not be checked.
        case unknown
    }

    /// What was checked.
    public var area: Area
    /// How it went.
    public var status: Status
    /// What was found, in a sentence or two.
    public var summary: String
    /// What to do about it, in one sentence; nil when nothing is to be done.
    public var fix: String?
    /// More lines: the devices found, the service's last log lines.
    public var details: [String]

    /// A check's outcome.
    public init(area: Area, status: Status, summary: String, fix: String? = nil, details: [String] = []) {
        self.area = area
        self.status = status
        self.summary = summary
        self.fix = fix
        self.details = details
    }
}

/// Everything the doctor found, in the order it checked.
public struct DoctorReport: Hashable, Sendable, Encodable {
    /// The checks, in order.
    public var checks: [DoctorCheck]

    /// A report of `checks`.
    public init(checks: [DoctorCheck]) {
        self.checks = checks
    }

    /// 1 when some check found a problem; else 2 when the devices or
    /// /dev/uinput could not be checked; else 0.
    public var exitStatus: Int32 {
        if checks.contains(where: { $0.status == .problem }) { return 1 }
        if checks.contains(where: { $0.status == .unknown }) { return 2 }
        return 0
    }

    private enum CodingKeys: String, CodingKey { case checks, exitStatus }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(checks, forKey: .checks)
        try container.encode(exitStatus, forKey: .exitStatus)
    }

    /// The report as people read it: one line per check (`ok`, `note`,
    /// `problem`, `unknown`, then what was found), its details indented
    /// below, and `fix:` with what to do.
    public var text: String {
        var lines: [String] = []
        for check in checks {
            lines.append(
                "\(check.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(check.area.rawValue): \(check.summary)")
            for detail in check.details { lines.append("           \(detail)") }
            if let fix = check.fix { lines.append("         fix: \(fix)") }
        }
        // Paths, names and the session's variables come from the system and the user's environment: escaped, line by line.
        return lines.map { Excerpt.printable($0) }.joined(separator: "\n") + "\n"
    }
}
