import DesktopDaemon
import Foundation
import TestSupport
import Testing
import TouchInput

/// A made-up machine for the doctor: files with owners and modes, a user,
/// the session's environment, processes and the answers of systemctl and
/// journalctl. Opening a node is allowed or denied by its mode bits, as the
/// kernel would for this user (tests run as root, so real files could not say).
struct FakeSystem: DoctorSystem {
    var environment: [String: String] = ["HOME": "/home/ada", "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME"]
    var user = DoctorUser(name: "ada", uid: 1000, activeGroupIDs: [1000, 105])
    var files: [String: (status: DoctorFileStatus, text: String)] = [:]
    var devices: [String: DeviceDescription] = [:]
    var processList: [DoctorProcess] = []
    var commands: [[String]: DoctorCommandResult] = [:]
    var systemdAvailable = true

    static let inputGroup: UInt32 = 105

    /// A machine where everything is well: the udev rule applied, ada in
    /// `input` since before this login, a touchpad and a mouse, /dev/uinput,
    /// a valid configuration, the service enabled and running, GNOME.
    static func healthy() throws -> FakeSystem {
        var system = FakeSystem()
        system.file("/etc/group", "root:x:0:\ninput:x:105:ada\nada:x:1000:\n")
        system.file("/etc/passwd", "root:x:0:0::/root:/bin/sh\nada:x:1000:1000::/home/ada:/bin/bash\n")
        system.file("/etc/udev/rules.d/70-gestures.rules", "# rule\n")
        try system.device(5, try RecordedDevices.x1Carbon, udev: "ID_INPUT_TOUCHPAD")
        try system.device(7, try RecordedDevices.mouse, udev: "ID_INPUT_MOUSE")
        system.files["/dev/uinput"] = (DoctorFileStatus(kind: .characterDevice, gid: inputGroup, mode: 0o660), "")
        system.file(
            "/home/ada/.config/gestures/config.yaml",
            """
            version: 1
            bindings:
              - name: next workspace
                gesture: swipe
                fingers: 3
                direction: left
                action: {command: [echo, left]}
            """)
        system.file("/home/ada/.local/share/systemd/user/gestures.service", "[Service]\n")
        // The daemon's socket, for gestures ui, in the session's runtime folder.
        system.environment["XDG_RUNTIME_DIR"] = "/run/user/1000"
        system.files["/run/user/1000/gestures/daemon.socket"] = (DoctorFileStatus(kind: .other, uid: 1000, mode: 0o600), "")
        system.files["/usr/bin/xdg-open"] = (DoctorFileStatus(kind: .regular, mode: 0o755), "")
        system.commands[["systemctl", "--user", "is-enabled", "gestures.service"]] = DoctorCommandResult(status: 0, output: "enabled\n")
        system.commands[["systemctl", "--user", "is-active", "gestures.service"]] = DoctorCommandResult(status: 0, output: "active\n")
        system.processList = [
            DoctorProcess(pid: 1, arguments: ["/sbin/init"]),
            DoctorProcess(pid: 900, arguments: ["/home/ada/.local/bin/gestures", "run"]),
        ]
        return system
    }

    mutating func file(_ path: String, _ text: String, mode: UInt32 = 0o644) {
        files[path] = (DoctorFileStatus(kind: .regular, uid: 1000, gid: 1000, mode: mode), text)
    }

    /// An event node with the rule applied (root:input 0640), its sysfs name and udev entry.
    mutating func device(_ number: Int, _ description: DeviceDescription, udev property: String) throws {
        let node = "/dev/input/event\(number)"
        files[node] = (DoctorFileStatus(kind: .characterDevice, gid: Self.inputGroup, mode: 0o640), "")
        devices[node] = description
        file("/sys/class/input/event\(number)/device/name", description.name + "\n")
        file("/sys/class/input/event\(number)/dev", "13:\(64 + number)\n")
        file("/run/udev/data/c13:\(64 + number)", "E:ID_INPUT=1\nE:\(property)=1\n")
    }

    /// Every event node as it is without the udev rule: root:root 0600.
    mutating func withoutRule() {
        files["/etc/udev/rules.d/70-gestures.rules"] = nil
        for (path, entry) in files where path.hasPrefix("/dev/") {
            files[path] = (DoctorFileStatus(kind: entry.status.kind, uid: 0, gid: 0, mode: 0o600), "")
        }
    }

    private func allows(_ status: DoctorFileStatus, shift: UInt32) -> Bool {
        let bits: UInt32
        if status.uid == user.uid {
            bits = status.mode >> 6
        } else if user.activeGroupIDs.contains(status.gid) {
            bits = status.mode >> 3
        } else {
            bits = status.mode
        }
        return bits & shift != 0
    }

    func status(of path: String) -> DoctorFileStatus? {
        if let entry = files[path] { return entry.status }
        let prefix = path.hasSuffix("/") ? path : path + "/"
        return files.keys.contains { $0.hasPrefix(prefix) } ? DoctorFileStatus(kind: .directory, mode: 0o755) : nil
    }

    func text(of path: String) -> String? {
        guard let entry = files[path], entry.status.kind == .regular, allows(entry.status, shift: 4) else { return nil }
        return entry.text
    }

    func names(in directory: String) -> [String]? {
        let prefix = directory + "/"
        let names = Set(files.keys.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count).split(separator: "/")[0]) })
        return names.isEmpty ? nil : names.sorted()
    }

    func processes() -> [DoctorProcess] { processList }

    func probe(_ path: String) -> DoctorDeviceProbe {
        guard let entry = files[path] else { return .failed("\(path) does not exist.") }
        guard allows(entry.status, shift: 4) else { return .denied }
        return devices[path].map { .opened($0) } ?? .failed("\(path) is not an evdev input device.")
    }

    func canWrite(_ path: String) -> Bool {
        files[path].map { allows($0.status, shift: 2) } ?? false
    }

    func run(_ arguments: [String]) -> DoctorCommandResult? {
        guard systemdAvailable else { return nil }
        return commands[arguments] ?? DoctorCommandResult(status: 1, output: "")
    }
}

@Suite("gestures doctor on made-up machines")
struct DoctorTests {
    func check(_ report: DoctorReport, _ area: DoctorCheck.Area) -> DoctorCheck {
        report.checks.first { $0.area == area }!
    }

    @Test("the page: the daemon's socket is found, its absence explained, and a session without XDG_RUNTIME_DIR is a problem")
    func page() throws {
        var system = try FakeSystem.healthy()
        system.files["/run/user/1000/gestures/daemon.socket"] = nil
        let missing = check(Doctor(system: system).examine(), .page)
        #expect(missing.status == .note && missing.summary.contains("offers no socket at /run/user/1000/gestures/daemon.socket"))
        system.files["/run/user/1000/gestures/daemon.socket"] = (DoctorFileStatus(kind: .other, uid: 1000, mode: 0o600), "")
        let offered = check(Doctor(system: system).examine(), .page)
        #expect(offered.status == .ok && offered.details.isEmpty)
        system.files["/usr/bin/xdg-open"] = nil
        system.processList = [DoctorProcess(pid: 1, arguments: ["/sbin/init"])]
        system.files["/run/user/1000/gestures/daemon.socket"] = nil
        let idle = check(Doctor(system: system).examine(), .page)
        #expect(idle.status == .note && idle.details.first?.hasPrefix("xdg-open is missing") == true)
        system.environment["XDG_RUNTIME_DIR"] = nil
        let noRuntime = check(Doctor(system: system).examine(), .page)
        #expect(noRuntime.status == .note && noRuntime.summary.hasPrefix("XDG_RUNTIME_DIR is not set"))
    }

    @Test("the focus source: sway's socket is reported; GNOME on Wayland with bindings for applications is a problem")
    func focusSource() throws {
        var system = try FakeSystem.healthy()
        // No runtime folder, so no session bus is found: GNOME's extension cannot be reached.
        system.environment["XDG_RUNTIME_DIR"] = nil
        system.file(
            "/home/ada/.config/gestures/config.yaml",
            "version: 1\nbindings:\n  - {gesture: swipe, fingers: 3, apps: firefox, action: {command: [echo]}}\n")
        let gnome = check(Doctor(system: system).examine(), .focus)
        #expect(gnome.status == .problem)
        #expect(gnome.summary == "No focus source, so 1 binding with apps or title never applies.")
        #expect(gnome.fix?.hasPrefix("This is GNOME on Wayland") == true, "\(gnome)")
        system.environment["SWAYSOCK"] = "/run/user/1000/sway-ipc.sock"
        let sway = check(Doctor(system: system).examine(), .focus)
        #expect(sway.status == .ok)
        #expect(
            sway.summary
                == "The daemon reads the focused window from sway (SWAYSOCK is set) at /run/user/1000/sway-ipc.sock; 1 binding names applications."
        )
    }

    @Test("a binding with only notApps applies without a focus source: a note, not 'never applies'")
    func focusSourceAndNotApps() throws {
        var system = try FakeSystem.healthy()
        system.environment["XDG_RUNTIME_DIR"] = nil
        system.file(
            "/home/ada/.config/gestures/config.yaml",
            "version: 1\nbindings:\n  - {gesture: swipe, fingers: 3, notApps: [foot], action: {command: [echo]}}\n")
        let excluding = check(Doctor(system: system).examine(), .focus)
        #expect(excluding.status == .note)
        #expect(excluding.summary == "No focus source, so 1 binding with only notApps applies in every application.")
        system.file(
            "/home/ada/.config/gestures/config.yaml",
            "version: 1\nbindings:\n  - {gesture: swipe, fingers: 3, notApps: [foot], action: {command: [echo]}}\n"
                + "  - {gesture: swipe, fingers: 4, apps: [firefox], title: x, action: {command: [echo]}}\n")
        let both = check(Doctor(system: system).examine(), .focus)
        #expect(both.status == .problem)
        #expect(
            both.summary
                == "No focus source, so 1 binding with apps or title never applies and 1 binding with only notApps applies in every application."
        )
    }

    @Test("a valid configuration with warnings is a problem that lists them, the device filters judged against the devices read")
    func configurationWarnings() throws {
        var system = try FakeSystem.healthy()
        system.file(
            "/home/ada/.config/gestures/config.yaml",
            """
            version: 1
            engine: {touchpadStrokeFingers: 3}
            bindings:
              - {gesture: swipe, fingers: 3, direction: left, action: {command: [echo]}}
              - {gesture: tap, fingers: 2, device: {name: "Wacom.*"}, action: {command: [echo]}}
            """)
        let report = Doctor(system: system).examine()
        let configuration = check(report, .configuration)
        #expect(configuration.status == .problem)
        #expect(
            configuration.summary
                == "/home/ada/.config/gestures/config.yaml is valid (2 bindings), but 2 warnings say what will not work as written.")
        #expect(configuration.details.count == 2)
        #expect(
            configuration.details[0].hasPrefix("bindings[0].fingers: engine.touchpadStrokeFingers: 3 makes"), "\(configuration.details)")
        #expect(configuration.details[0].hasSuffix("so this 3-finger swipe never fires there"))
        #expect(configuration.details[1].hasPrefix("bindings[1].device: matches no device"), "\(configuration.details)")
        #expect(configuration.fix?.contains("gestures check-config /home/ada/.config/gestures/config.yaml") == true)
        #expect(report.exitStatus == 1)
    }

    @Test("a healthy machine: every check is ok, in order, and the exit status is 0")
    func healthyMachine() throws {
        let report = Doctor(system: try FakeSystem.healthy()).examine()
        #expect(report.checks.map(\.area) == [.devices, .uinput, .configuration, .service, .otherTools, .desktop, .focus, .page])
        #expect(report.checks.allSatisfy { $0.status == .ok }, "\(report.text)")
        #expect(report.exitStatus == 0)
        let devices = check(report, .devices)
        #expect(devices.summary == "1 mouse and 1 touchpad can be read.")
        #expect(
            devices.details.contains {
                $0.hasPrefix("touchpad  /dev/input/event5") && $0.contains("98 x 53.9 mm") && $0.hasSuffix("readable")
            })
        #expect(check(report, .desktop).summary.contains("interception keeps them from it for bindings[0] ('next workspace')"))
    }

    @Test("without the udev rule the nodes are root's: the fix installs the rule")
    func noUdevRule() throws {
        var system = try FakeSystem.healthy()
        system.withoutRule()
        let report = Doctor(system: system).examine()
        let devices = check(report, .devices)
        #expect(devices.status == .problem)
        #expect(
            devices.summary.contains(
                "the touchpad /dev/input/event5 cannot, because the udev rule of gestures is not installed (/dev/input/event5 has group root, mode 0600)"
            ))
        #expect(devices.fix?.contains("sudo cp Tools/70-gestures.rules /etc/udev/rules.d/") == true)
        #expect(devices.details.contains { $0.hasPrefix("touchpad  /dev/input/event5") && $0.hasSuffix("not readable") })
        #expect(check(report, .uinput).status == .problem)
        #expect(report.exitStatus == 1)
    }

    @Test("a rule installed but not applied says to trigger udev")
    func ruleNotApplied() throws {
        var system = try FakeSystem.healthy()
        system.withoutRule()
        system.file("/usr/lib/udev/rules.d/70-gestures.rules", "# rule\n")
        let devices = check(Doctor(system: system).examine(), .devices)
        #expect(devices.summary.contains("the udev rule /usr/lib/udev/rules.d/70-gestures.rules is installed but not applied"))
        #expect(devices.fix?.contains("udevadm trigger") == true)
    }

    @Test("not in the input group: the fix adds the user to it")
    func notInGroup() throws {
        var system = try FakeSystem.healthy()
        system.file("/etc/group", "root:x:0:\ninput:x:105:\nada:x:1000:\n")
        system.user.activeGroupIDs = [1000]
        let report = Doctor(system: system).examine()
        let devices = check(report, .devices)
        #expect(devices.status == .problem)
        #expect(devices.summary.contains("it belongs to the input group (group input, mode 0640) and you ('ada') are not in it"))
        #expect(devices.fix == "Add yourself to it with 'sudo usermod -aG input ada', then log out and back in.")
        #expect(check(report, .uinput).fix == devices.fix)
    }

    @Test("in the group since after this login: the fix is a new login")
    func groupNotActive() throws {
        var system = try FakeSystem.healthy()
        system.user.activeGroupIDs = [1000]
        let devices = check(Doctor(system: system).examine(), .devices)
        #expect(devices.status == .problem)
        #expect(devices.summary.contains("you were added to the input group after this login session began"))
        #expect(devices.fix == "Log out and back in (or reboot), then run gestures doctor again.")
    }

    @Test("no /dev/uinput: interception and input actions will not work, and a claimed GNOME swipe is not kept from GNOME")
    func uinputMissing() throws {
        var system = try FakeSystem.healthy()
        system.files["/dev/uinput"] = nil
        let report = Doctor(system: system).examine()
        let uinput = check(report, .uinput)
        #expect(uinput.status == .problem)
        #expect(uinput.summary.hasPrefix("/dev/uinput does not exist (the uinput module is not loaded)"))
        #expect(uinput.fix == "Load it with 'sudo modprobe uinput' (the udev rule of gestures loads it at boot).")
        let desktop = check(report, .desktop)
        #expect(desktop.status == .problem)
        #expect(desktop.summary.contains("bindings[0] ('next workspace') will do both GNOME's action and its own"))
        #expect(desktop.fix?.hasPrefix("Give access to /dev/uinput") == true)
    }

    @Test("the service failed: its last log lines, escaped, and how to restart it")
    func serviceFailed() throws {
        var system = try FakeSystem.healthy()
        system.commands[["systemctl", "--user", "is-active", "gestures.service"]] = DoctorCommandResult(status: 3, output: "failed\n")
        system.commands[["journalctl", "--user", "-u", "gestures.service", "-n", "5", "--no-pager", "-o", "cat"]] =
            DoctorCommandResult(status: 0, output: "gestures: started\ngestures: config.yaml: bindings[0].gesture: \u{1B}[2J unknown\n")
        system.processList.removeAll { $0.arguments.contains("run") }
        let service = check(Doctor(system: system).examine(), .service)
        #expect(service.status == .problem)
        #expect(service.summary.hasPrefix("gestures.service failed: gestures: config.yaml: bindings[0].gesture: "))
        #expect(!service.summary.contains("\u{1B}") && service.details.count == 2)
        #expect(service.fix?.contains("systemctl --user restart gestures.service") == true)
    }

    @Test("the unit enabled but stopped, disabled, or not installed, each with its command")
    func serviceStates() throws {
        var system = try FakeSystem.healthy()
        system.processList.removeAll { $0.arguments.contains("run") }
        system.commands[["systemctl", "--user", "is-active", "gestures.service"]] = DoctorCommandResult(status: 3, output: "inactive\n")
        #expect(check(Doctor(system: system).examine(), .service).fix == "Start it now: 'systemctl --user start gestures.service'.")
        system.commands[["systemctl", "--user", "is-enabled", "gestures.service"]] = DoctorCommandResult(status: 1, output: "disabled\n")
        #expect(
            check(Doctor(system: system).examine(), .service).fix
                == "Enable and start it: 'systemctl --user enable --now gestures.service'.")
        system.files["/home/ada/.local/share/systemd/user/gestures.service"] = nil
        let missing = check(Doctor(system: system).examine(), .service)
        #expect(missing.status == .problem && missing.summary.contains("is not installed and gestures run is not running"))
    }

    @Test("fusuma running beside, and a second gestures run, are problems")
    func otherTools() throws {
        var system = try FakeSystem.healthy()
        system.processList.append(DoctorProcess(pid: 1200, arguments: ["ruby", "/usr/bin/fusuma", "-d"]))
        var other = check(Doctor(system: system).examine(), .otherTools)
        #expect(other.status == .problem)
        #expect(other.summary == "fusuma (pid 1200) is running and reads the same touchpad: a gesture bound in both does both.")
        system.processList.append(DoctorProcess(pid: 1300, arguments: ["gestures", "run", "--no-intercept"]))
        other = check(Doctor(system: system).examine(), .otherTools)
        #expect(other.summary.contains("2 gestures run processes are running (pid 900 and pid 1300)"))
        system.processList.removeAll { $0.pid >= 1200 }
        #expect(check(Doctor(system: system).examine(), .otherTools).status == .ok)
    }

    @Test("GNOME with an unclaimed 3-finger swipe binding: it does both, and the fix names the binding")
    func gnomeUnclaimed() throws {
        var system = try FakeSystem.healthy()
        system.file(
            "/home/ada/.config/gestures/config.yaml",
            """
            version: 1
            bindings:
              - gesture: swipe
                fingers: 4
                claim: false
                action: {command: [echo, four]}
              - gesture: swipe
                fingers: 5
                action: {command: [echo, five]}
            """)
        let desktop = check(Doctor(system: system).examine(), .desktop)
        #expect(desktop.status == .problem)
        #expect(
            desktop.summary
                == "GNOME takes 3- and 4-finger swipes (workspaces and the overview), and bindings[0] will do both GNOME's action and its own."
        )
        #expect(desktop.fix == "Add 'claim: true' to bindings[0] (or bind a finger count GNOME leaves alone, such as 5).")
        // The same binding on X11: GNOME takes no touchpad gestures there.
        system.environment["XDG_SESSION_TYPE"] = "x11"
        #expect(check(Doctor(system: system).examine(), .desktop).status == .ok)
    }

    @Test("both config.json and config.yaml: the JSON is read and the YAML named as ignored")
    func twoConfigurations() throws {
        var system = try FakeSystem.healthy()
        system.file("/home/ada/.config/gestures/config.json", #"{"version": 1, "bindings": []}"#)
        let configuration = check(Doctor(system: system).examine(), .configuration)
        #expect(configuration.status == .problem)
        #expect(
            configuration.summary
                == "/home/ada/.config/gestures/config.json is valid: 0 bindings. /home/ada/.config/gestures/config.yaml is there too and ignored."
        )
        #expect(configuration.fix == "Keep one file: remove or rename /home/ada/.config/gestures/config.yaml.")
    }

    @Test("an invalid configuration names the bad key and the command that lists every error")
    func invalidConfiguration() throws {
        var system = try FakeSystem.healthy()
        system.environment["XDG_CONFIG_HOME"] = "/home/ada/conf"
        system.file(
            "/home/ada/conf/gestures/config.yaml",
            "version: 1\nbindings:\n  - gesture: swipe\n    fingers: 9\n    action: {command: [echo]}\n")
        let configuration = check(Doctor(system: system).examine(), .configuration)
        #expect(configuration.status == .problem)
        #expect(configuration.summary.hasPrefix("/home/ada/conf/gestures/config.yaml has 1 error: bindings[0].fingers:"))
        #expect(
            configuration.fix
                == "Run 'gestures check-config /home/ada/conf/gestures/config.yaml' for every error with its key, and correct them.")
    }

    @Test("no configuration says where to write one")
    func noConfiguration() throws {
        var system = try FakeSystem.healthy()
        system.files["/home/ada/.config/gestures/config.yaml"] = nil
        let report = Doctor(system: system).examine()
        #expect(
            check(report, .configuration).fix
                == "Write /home/ada/.config/gestures/config.yaml (the README's \"A first configuration\" works as pasted).")
        #expect(check(report, .desktop).status == .note)
    }

    @Test("a device name with control characters is printed escaped")
    func escapedNames() throws {
        var system = try FakeSystem.healthy()
        system.withoutRule()
        system.file("/sys/class/input/event5/device/name", "Pad\u{1B}]0;owned\u{07}\n")
        let report = Doctor(system: system).examine()
        #expect(!report.text.contains("\u{1B}") && !report.text.contains("\u{07}"))
        #expect(check(report, .devices).details.contains { $0.contains("Pad\\u{1b}]0;owned\\u{7}") })
    }

    @Test("no /dev/input to list: the devices could not be checked, exit status 2")
    func cannotCheck() throws {
        var system = try FakeSystem.healthy()
        for path in system.files.keys where path.hasPrefix("/dev/input/") { system.files[path] = nil }
        let report = Doctor(system: system).examine()
        #expect(check(report, .devices).status == .unknown)
        #expect(report.exitStatus == 2)
    }

    @Test("without systemd, the running daemon is found in the process list")
    func noSystemd() throws {
        var system = try FakeSystem.healthy()
        system.systemdAvailable = false
        #expect(check(Doctor(system: system).examine(), .service).status == .ok)
        system.processList.removeAll { $0.arguments.contains("run") }
        #expect(check(Doctor(system: system).examine(), .service).status == .problem)
    }
}
