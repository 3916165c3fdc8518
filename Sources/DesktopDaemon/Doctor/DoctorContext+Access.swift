import InputChecks

extension DoctorContext {
    /// Why the user may not read (or write) `path`, and the one thing to
    /// do: the devices and the uinput checks both say it.
    func accessReason(_ path: String, reading: Bool) -> (why: String, fix: String) {
        let input = group(named: "input")
        let status = system.status(of: path)
        let owner = status.map { "group \(groupName($0.gid)), mode \($0.modeText)" } ?? "unknown owner"
        let groupMayUse = status.map { input != nil && $0.gid == input!.gid && $0.mode & (reading ? 0o040 : 0o020) != 0 } ?? false
        let user = system.user.name
        if groupMayUse, let input {
            let listed = input.members.contains(user) || primaryGroupID(of: user) == input.gid
            if !listed {
                return (
                    "it belongs to the input group (\(owner)) and you (\(Excerpt.quoted(user, limit: 40))) are not in it",
                    "Add yourself to it with 'sudo usermod -aG input \(user)', then log out and back in."
                )
            }
            if !system.user.activeGroupIDs.contains(input.gid) {
                return (
                    "you were added to the input group after this login session began, so it does not have the group yet",
                    "Log out and back in (or reboot), then run gestures doctor again."
                )
            }
            return (
                "it belongs to the input group (\(owner)) and you are in it, yet it cannot be opened",
                "Look at 'ls -l \(path)' and 'getfacl \(path)'; something else changed its permissions."
            )
        }
        let rules = [
            "/etc/udev/rules.d/70-gestures.rules", "/usr/lib/udev/rules.d/70-gestures.rules",
            "/lib/udev/rules.d/70-gestures.rules",
        ]
        let trigger = "sudo udevadm control --reload && sudo udevadm trigger --subsystem-match=input --subsystem-match=misc"
        guard let rule = rules.first(where: { system.status(of: $0) != nil }) else {
            return (
                "the udev rule of gestures is not installed (\(path) has \(owner))",
                "Install it with the gestures package, or 'sudo cp Tools/70-gestures.rules /etc/udev/rules.d/ && \(trigger)'."
            )
        }
        return (
            "the udev rule \(rule) is installed but not applied to it yet (\(owner))",
            "Apply it with '\(trigger)', or reboot."
        )
    }

    /// A line of `/etc/group`.
    struct Group {
        var name: String
        var gid: UInt32
        var members: [String]
    }

    private var groups: [Group] {
        (system.text(of: "/etc/group") ?? "").split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count >= 4, let gid = UInt32(fields[2]) else { return nil }
            return Group(name: String(fields[0]), gid: gid, members: fields[3].split(separator: ",").map(String.init))
        }
    }

    private func group(named name: String) -> Group? { groups.first { $0.name == name } }

    private func groupName(_ gid: UInt32) -> String { groups.first { $0.gid == gid }?.name ?? String(gid) }

    private func primaryGroupID(of user: String) -> UInt32? {
        for line in (system.text(of: "/etc/passwd") ?? "").split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            if fields.count >= 4, fields[0] == user { return UInt32(fields[3]) }
        }
        return nil
    }
}
