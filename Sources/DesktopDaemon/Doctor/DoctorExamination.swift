import InputChecks

/// One check of `gestures doctor`: it examines one area of the machine and
/// says how it went in one ``DoctorCheck``. Each check is a type of its own
/// in a file of its own (`DevicesExamination.swift`...); a new check is a
/// new conformance, listed in ``Doctor/examinations``, with a new
/// ``DoctorCheck/Area``.
///
/// A check reads the machine through `context.system` and may leave what
/// it found in `context` for the checks after it (the devices that can be
/// read, the configuration, whether `/dev/uinput` can be written).
protocol DoctorExamination: Sendable {
    /// The area it checks.
    var area: DoctorCheck.Area { get }
    /// Examines the machine, and records in `context` what later checks need.
    func examine(_ context: inout DoctorContext) -> DoctorCheck
}

/// What the checks of `gestures doctor` share: the machine examined, and
/// what the checks that ran before found.
struct DoctorContext {
    /// What is examined.
    let system: any DoctorSystem
    /// Where the event nodes are.
    let devicesDirectory: String
    /// The `gestures run` processes running now (the service, the other
    /// tools and the page checks read them).
    let daemons: [DoctorProcess]
    /// The devices that can be read, once the devices check ran; nil when
    /// none can, so that the configuration's device filters are not judged
    /// against nothing.
    var readableDevices: [InputDevice]?
    /// The configuration, once the configuration check found it valid.
    var configuration: DaemonConfiguration?
    /// Whether `/dev/uinput` can be written, once the uinput check ran.
    var uinputWritable = false

    /// The context of one examination of `system`.
    init(system: any DoctorSystem, devicesDirectory: String) {
        self.system = system
        self.devicesDirectory = devicesDirectory
        self.daemons = system.processes().filter { process in
            guard let program = process.arguments.first else { return false }
            return PathName.lastComponent(of: program) == "gestures" && process.arguments.dropFirst().first == "run"
        }
    }
}
