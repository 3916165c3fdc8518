import Foundation
import GestureRecognition
import InputChecks
import TouchInput

/// `gestures doctor`: checks, in order, everything the daemon needs, and
/// says what to do about each problem in one sentence.
///
/// 1. the touch devices and mice, their kind and size and whether they can
///    be read, and if none can, why (the udev rule, the `input` group, a
///    group added since this login);
/// 2. `/dev/uinput`, for interception and the keys, button and drag actions;
/// 3. the configuration: where, valid, and what is wrong with it;
/// 4. the service: the systemd user unit installed, enabled, running, and
///    its last log lines when it failed;
/// 5. other gesture tools reading the same devices, and a second daemon;
/// 6. the desktop's own gestures that the bindings overlap, and whether
///    interception keeps them from it;
/// 7. the focus source, for bindings that name applications;
/// 8. the page (`gestures ui`): the daemon's socket it watches, and a browser to open it in.
///
/// Everything is read through a ``DoctorSystem``, so a test gives it a
/// made-up machine for each case.
///
///     let report = Doctor(system: HostSystem()).examine()
///     for check in report.checks { print(check.status, check.summary) }
///     exit(report.exitStatus)
public struct Doctor {
    /// What is examined.
    public var system: any DoctorSystem
    /// Where the event nodes are.
    public var devicesDirectory: String

    /// A doctor for `system`.
    public init(system: any DoctorSystem, devicesDirectory: String = "/dev/input") {
        self.system = system
        self.devicesDirectory = devicesDirectory
    }

    /// Runs every check, in order.
    public func examine() -> DoctorReport {
        let devices = examineDevices()
        let configuration = examineConfiguration(devices: devices.readable)
        let uinput = examineUinput(needed: configuration.loaded.map { $0.intercept || $0.usesInputActions } ?? true)
        let daemons = runningDaemons()
        var checks = [devices.check, uinput.check, configuration.check]
        checks.append(examineService(daemons: daemons))
        checks.append(examineOtherTools(daemons: daemons))
        checks.append(examineDesktop(configuration.loaded, uinputWritable: uinput.writable))
        checks.append(examineFocus(configuration.loaded))
        checks.append(examinePage(daemons: daemons))
        return DoctorReport(checks: checks)
    }

    // MARK: Devices

    /// One event node and what is known of it.
    struct Node {
        var path: String
        var name: String?
        var kind: DeviceDescription.Kind?
        var description: DeviceDescription?
        var probe: DoctorDeviceProbe

        var isWanted: Bool { kind == .touchpad || kind == .touchscreen || kind == .mouse }
    }

    /// The devices check, and the devices that can be read (nil when none
    /// can, so that the configuration's device filters are not judged against nothing).
    private func examineDevices() -> (check: DoctorCheck, readable: [InputDevice]?) {
        guard let names = system.names(in: devicesDirectory) else {
            let check = DoctorCheck(
                area: .devices, status: .unknown,
                summary: "\(devicesDirectory) cannot be listed, so no device could be checked.",
                fix: "Run gestures doctor on the machine with the touchpad, outside a container without /dev/input.")
            return (check, nil)
        }
        let nodes = names.compactMap { name -> Int? in name.hasPrefix("event") ? Int(name.dropFirst(5)) : nil }
            .sorted().map { node(number: $0) }
        let check = devicesCheck(nodes)
        let readable = nodes.enumerated().compactMap { index, node -> InputDevice? in
            guard node.isWanted, case .opened(let description) = node.probe else { return nil }
            return InputDevice(id: index, description: description)
        }
        return (check, readable.isEmpty ? nil : readable)
    }

    private func devicesCheck(_ nodes: [Node]) -> DoctorCheck {
        let wanted = nodes.filter(\.isWanted)
        let details = wanted.map(line)
        let readable = wanted.filter { if case .opened = $0.probe { true } else { false } }
        if !readable.isEmpty {
            let counts = Dictionary(grouping: readable, by: { $0.kind! }).sorted { $0.key.rawValue < $1.key.rawValue }
                .map { counted($0.value.count, $0.key.rawValue) }
            var summary = "\(Self.list(counts)) can be read."
            var fix: String?
            if let denied = wanted.first(where: { $0.probe == .denied }) {
                let reason = accessReason(denied.path, reading: true)
                summary += " \(denied.path) cannot: \(reason.why)."
                fix = reason.fix
            }
            return DoctorCheck(area: .devices, status: .ok, summary: summary, fix: fix, details: details)
        }
        // Nothing wanted can be read: a node whose kind is unknown because it cannot be read may still be the touchpad.
        let denied = wanted.first { $0.probe == .denied } ?? nodes.first { $0.probe == .denied && $0.kind == nil }
        if let denied {
            let reason = accessReason(denied.path, reading: true)
            let what = denied.kind.map { "the \($0.rawValue) \(denied.path)" } ?? denied.path
            return DoctorCheck(
                area: .devices, status: .problem,
                summary: "No touchpad, touchscreen or mouse can be read: \(what) cannot, because \(reason.why).",
                fix: reason.fix, details: details)
        }
        if let failed = wanted.first, case .failed(let sentence) = failed.probe {
            return DoctorCheck(
                area: .devices, status: .problem,
                summary: "No touchpad, touchscreen or mouse can be read: \(sentence)",
                fix: "Check that the device is still plugged in, then run gestures doctor again.", details: details)
        }
        return DoctorCheck(
            area: .devices, status: .problem,
            summary: "No touchpad, touchscreen or mouse was found in \(devicesDirectory).",
            fix: "Connect one (gestures replay and gestures run --replay work on recordings without one).", details: details)
    }

    private func node(number: Int) -> Node {
        let path = "\(devicesDirectory)/event\(number)"
        let sys = "/sys/class/input/event\(number)"
        let name = system.text(of: "\(sys)/device/name").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let probe = system.probe(path)
        if case .opened(let description) = probe {
            return Node(path: path, name: description.name, kind: description.kind, description: description, probe: probe)
        }
        return Node(path: path, name: name, kind: udevKind(sys), probe: probe)
    }

    /// The kind udev gave the node (`ID_INPUT_TOUCHPAD=1` in its database
    /// entry), for nodes that cannot be opened.
    private func udevKind(_ sys: String) -> DeviceDescription.Kind? {
        guard let number = system.text(of: "\(sys)/dev")?.trimmingCharacters(in: .whitespacesAndNewlines),
            let entry = system.text(of: "/run/udev/data/c\(number)")
        else { return nil }
        let properties = Set(entry.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        if properties.contains("E:ID_INPUT_TOUCHPAD=1") { return .touchpad }
        if properties.contains("E:ID_INPUT_TOUCHSCREEN=1") { return .touchscreen }
        if properties.contains("E:ID_INPUT_TABLET=1") { return .tablet }
        if properties.contains("E:ID_INPUT_MOUSE=1") { return .mouse }
        return .other
    }

    private func line(_ node: Node) -> String {
        var words = [node.kind?.rawValue ?? "unknown", node.path]
        if let name = node.name { words.append(Excerpt.quoted(name, limit: 60)) }
        if let size = node.description?.sizeMillimeters {
            words.append("\(Self.number(size.width)) x \(Self.number(size.height)) mm")
        }
        switch node.probe {
        case .opened: words.append("readable")
        case .denied: words.append("not readable")
        case .failed(let sentence): words.append("failed: \(sentence)")
        }
        return words.joined(separator: "  ")
    }

    // MARK: Access

    /// Why the user may not read (or write) `path`, and the one thing to do.
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

    // MARK: uinput

    private func examineUinput(needed: Bool) -> (check: DoctorCheck, writable: Bool) {
        let path = "/dev/uinput"
        let usedFor = "interception (keeping claimed gestures from the desktop) and the keys, button and drag actions"
        guard system.status(of: path) != nil else {
            let check = DoctorCheck(
                area: .uinput, status: needed ? .problem : .note,
                summary: "\(path) does not exist (the uinput module is not loaded), so \(usedFor) will not work.",
                fix: "Load it with 'sudo modprobe uinput' (the udev rule of gestures loads it at boot).")
            return (check, false)
        }
        if system.canWrite(path) {
            return (DoctorCheck(area: .uinput, status: .ok, summary: "\(path) can be written: \(usedFor) will work."), true)
        }
        let reason = accessReason(path, reading: false)
        let check = DoctorCheck(
            area: .uinput, status: needed ? .problem : .note,
            summary: "\(path) cannot be opened for writing, because \(reason.why), so \(usedFor) will not work.",
            fix: reason.fix)
        return (check, false)
    }

    // MARK: Configuration

    /// The configuration check: where, valid, its errors or its warnings
    /// (``DaemonConfiguration/warnings()``, and the device filters that
    /// match none of `devices` when some could be read).
    private func examineConfiguration(devices: [InputDevice]?) -> (check: DoctorCheck, loaded: DaemonConfiguration?) {
        let location = ConfigurationLocation(environment: system.environment)
        let present = location.candidates.filter { system.status(of: $0) != nil }
        guard let path = present.first else {
            let check = DoctorCheck(
                area: .configuration, status: .problem,
                summary: "There is no configuration in \(location.directory), so gestures run has nothing to do.",
                fix: "Write \(location.directory)/config.yaml (the README's \"A first configuration\" works as pasted).")
            return (check, nil)
        }
        guard let text = system.text(of: path) else {
            let check: DoctorCheck
            if let problem = system.problem(reading: path), problem.contains("not a regular file") {
                check = DoctorCheck(
                    area: .configuration, status: .problem, summary: "\(path) \(problem), so it is not read.",
                    fix: "Put the configuration in a regular file at \(path) (remove what is there first).")
            } else {
                check = DoctorCheck(
                    area: .configuration, status: .problem, summary: "\(path) cannot be read.",
                    fix: "Make it readable by you: 'chmod u+r \(path)'.")
            }
            return (check, nil)
        }
        let data = Data(text.utf8)
        let configuration: DaemonConfiguration
        do {
            configuration = try DaemonConfiguration.decode(
                data, format: .detect(path: path, data: data),
                baseDirectory: PathName.folder(of: path))
        } catch {
            let errors = ConfigurationErrors(file: path, error.errors)
            let check = DoctorCheck(
                area: .configuration, status: .problem, summary: "\(errors.description).",
                fix: "Run 'gestures check-config \(path)' for every error with its key, and correct them.",
                details: errors.lines)
            return (check, nil)
        }
        var check = DoctorCheck(
            area: .configuration, status: .ok,
            summary: "\(path) is valid: \(counted(configuration.bindings.count, "binding")).")
        let warnings = configuration.warnings() + (devices.map { configuration.warnings(devices: $0) } ?? [])
        if !warnings.isEmpty {
            // A binding that never fires, or fires with another, is why a gesture seems to do nothing.
            check.status = .problem
            check.summary =
                "\(path) is valid (\(counted(configuration.bindings.count, "binding"))), "
                + "but \(warnings.count == 1 ? "a warning says" : "\(warnings.count) warnings say") what will not work as written."
            check.fix = "Correct the bindings the warnings name ('gestures check-config \(path)' lists each with its key)."
            check.details = warnings.map(\.description)
        }
        if present.count > 1 {
            check.status = .problem
            check.summary += " \(Self.list(present.dropFirst().map { $0 })) \(present.count > 2 ? "are" : "is") there too and ignored."
            check.fix = "Keep one file: remove or rename \(Self.list(present.dropFirst().map { $0 }))."
        }
        return (check, configuration)
    }

    // MARK: Service

    private static let unit = "gestures.service"

    private func unitPaths() -> [String] {
        let environment = system.environment
        let home = environment["HOME"] ?? "/home/\(system.user.name)"
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        return [
            config + "/systemd/user", data + "/systemd/user", "/etc/systemd/user", "/usr/local/lib/systemd/user",
            "/usr/lib/systemd/user",
        ].map { "\($0)/\(Self.unit)" }
    }

    private func runningDaemons() -> [DoctorProcess] {
        system.processes().filter { process in
            guard let program = process.arguments.first else { return false }
            return PathName.lastComponent(of: program) == "gestures" && process.arguments.dropFirst().first == "run"
        }
    }

    private func examineService(daemons: [DoctorProcess]) -> DoctorCheck {
        let installed = unitPaths().first { system.status(of: $0) != nil }
        let running = daemons.map { "pid \($0.pid)" }
        guard let installed else {
            if !running.isEmpty {
                return DoctorCheck(
                    area: .service, status: .ok,
                    summary: "gestures run is running (\(Self.list(running))), outside systemd: the user unit is not installed.")
            }
            return DoctorCheck(
                area: .service, status: .problem,
                summary: "The systemd user unit \(Self.unit) is not installed and gestures run is not running.",
                fix: "Install it with Tools/install or the gestures package, then 'systemctl --user enable --now \(Self.unit)'.")
        }
        let enabled = system.run(["systemctl", "--user", "is-enabled", Self.unit]).map(firstWord)
        let active = system.run(["systemctl", "--user", "is-active", Self.unit]).map(firstWord)
        guard let enabled, let active else {
            let how = running.isEmpty ? "gestures run is not running" : "gestures run is running (\(Self.list(running)))"
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
                fix: enabled == "enabled" ? nil : "Enable it: 'systemctl --user enable \(Self.unit)'.")
        case (_, "failed"):
            let log = system.run(["journalctl", "--user", "-u", Self.unit, "-n", "5", "--no-pager", "-o", "cat"])?.output ?? ""
            let lines = log.split(separator: "\n").suffix(5).map { Excerpt.escaped($0, limit: 200) }
            return DoctorCheck(
                area: .service, status: .problem,
                summary: "\(Self.unit) failed\(lines.last.map { ": \($0)" } ?? ".")",
                fix: "Read 'journalctl --user -u \(Self.unit)', correct the error, then 'systemctl --user restart \(Self.unit)'.",
                details: lines)
        default:
            if enabled == "enabled" {
                return DoctorCheck(
                    area: .service, status: .problem,
                    summary: "\(Self.unit) is enabled but \(active) (it starts with the graphical session).",
                    fix: "Start it now: 'systemctl --user start \(Self.unit)'.")
            }
            return DoctorCheck(
                area: .service, status: .problem,
                summary: "\(Self.unit) is installed but \(enabled) and \(active).",
                fix: "Enable and start it: 'systemctl --user enable --now \(Self.unit)'.")
        }
    }

    private func firstWord(_ result: DoctorCommandResult) -> String {
        result.output.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? "unknown"
    }

    // MARK: Other tools

    /// The gesture tools that read the same devices, by program name.
    public static let otherTools = ["libinput-gestures", "fusuma", "touchegg", "gebaar"]

    private func examineOtherTools(daemons: [DoctorProcess]) -> DoctorCheck {
        var found: [String] = []
        for process in system.processes() {
            // Scripts run by an interpreter show it first: `ruby /usr/bin/fusuma`.
            let programs = process.arguments.prefix(2).map { PathName.lastComponent(of: $0) }
            if let tool = Self.otherTools.first(where: { tool in programs.contains { $0 == tool || $0.hasPrefix(tool + ".") } }) {
                found.append("\(tool) (pid \(process.pid))")
            }
        }
        var sentences: [String] = []
        if !found.isEmpty {
            sentences.append(
                "\(Self.list(found)) \(found.count == 1 ? "is" : "are") running and \(found.count == 1 ? "reads" : "read") the same touchpad: a gesture bound in both does both"
            )
        }
        if daemons.count > 1 {
            sentences.append(
                "\(daemons.count) gestures run processes are running (\(Self.list(daemons.map { "pid \($0.pid)" }))): every binding fires once in each"
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

    // MARK: Desktop

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

    private func examineDesktop(_ configuration: DaemonConfiguration?, uinputWritable: Bool) -> DoctorCheck {
        let environment = system.environment
        guard let desktop = Self.desktopGestures(environment: environment) else {
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
                    "\(desktop.name) on Wayland takes \(Self.fingerList(desktop.swipeFingers))-finger swipes (\(desktop.swipePurpose)); there are no bindings to compare yet."
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
            "\(desktop.name) takes \(Self.fingerList(desktop.swipeFingers))-finger swipes (\(desktop.swipePurpose))\(desktop.takesEdgeSwipes ? " and touchscreen edge swipes" : "")"
        guard let first = uncovered.first else {
            let summary =
                covered.isEmpty
                ? "\(takes); no binding overlaps them."
                : "\(takes); interception keeps them from it for \(Self.list(covered.map(\.reference)))."
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
                "\(takes), and \(Self.list(uncovered.map(\.reference))) will do both \(desktop.name)'s action and its own.",
            fix: fix)
    }

    // MARK: Words

    // MARK: The page

    /// What `gestures ui` needs: the daemon's socket (in `XDG_RUNTIME_DIR`) for
    /// the live view, and `xdg-open` to open the page. Never a problem: the
    /// gestures work without the page; a note says what the page lacks.
    private func examinePage(daemons: [DoctorProcess]) -> DoctorCheck {
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
        switch (offered, daemons.isEmpty) {
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

    // MARK: Focus

    /// The focus source the session offers (``FocusSession``), as the daemon
    /// chooses it; a problem only when bindings with apps or title need one
    /// and there is none (a binding with only notApps applies everywhere then).
    private func examineFocus(_ configuration: DaemonConfiguration?) -> DoctorCheck {
        let session = FocusSession.choose(system.environment)
        let filtered = configuration?.bindings.filter { $0.match.application != nil } ?? []
        // A filter with apps or title needs the focused window; one with only notApps applies without one.
        let naming = filtered.filter { $0.match.application?.namesApplications == true }
        let excluding = filtered.filter { $0.match.application?.namesApplications == false }
        guard let kind = session.kind else {
            let reason = session.reason.prefix(1).uppercased() + session.reason.dropFirst() + "."
            let everywhere =
                excluding.isEmpty
                ? nil
                : "\(counted(excluding.count, "binding")) with only notApps \(excluding.count == 1 ? "applies" : "apply") in every application"
            guard !naming.isEmpty else {
                guard let everywhere else {
                    return DoctorCheck(
                        area: .focus, status: .ok,
                        summary:
                            "No binding names an application, so no focus source is needed (the session offers none: \(session.reason)).")
                }
                return DoctorCheck(area: .focus, status: .note, summary: "No focus source, so \(everywhere).", fix: reason)
            }
            let never = "\(counted(naming.count, "binding")) with apps or title \(naming.count == 1 ? "never applies" : "never apply")"
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

    static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: ""
        case 1: items[0]
        default: items.dropLast().joined(separator: ", ") + " and " + items.last!
        }
    }

    private static func fingerList(_ fingers: Set<Int>) -> String {
        list(fingers.sorted().map(String.init)).replacingOccurrences(of: " and ", with: "- and ")
    }

    private static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

private func counted(_ count: Int, _ word: String) -> String {
    "\(count) \(word)\(count == 1 ? "" : "s")"
}

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
