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
/// Each check is one ``DoctorExamination``, in a file of its own. Everything
/// is read through a ``DoctorSystem``, so a test gives it a made-up machine
/// for each case.
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

    /// The checks, in the order they run: a check that needs what another
    /// found runs after it (the configuration's device filters need the
    /// devices; whether uinput is needed, the configuration; the desktop's
    /// check, both).
    static let examinations: [any DoctorExamination] = [
        DevicesExamination(), ConfigurationExamination(), UinputExamination(), ServiceExamination(),
        OtherToolsExamination(), DesktopExamination(), FocusExamination(), PageExamination(),
    ]

    /// Runs every check; the report lists them in the order of
    /// ``DoctorCheck/Area``.
    public func examine() -> DoctorReport {
        var context = DoctorContext(system: system, devicesDirectory: devicesDirectory)
        let checks = Self.examinations.map { $0.examine(&context) }
        let order = DoctorCheck.Area.allCases
        return DoctorReport(checks: checks.sorted { order.firstIndex(of: $0.area)! < order.firstIndex(of: $1.area)! })
    }
}
