import CommandLineKit
import DesktopDaemon
import Foundation

/// `gestures doctor`: checks everything the daemon needs and says what to do
/// about each problem (the checks are `Doctor`'s, in DesktopDaemon).
enum DoctorCommand: Command {
    static let name = "doctor"
    static let abstract = "Check devices, permissions, /dev/uinput, the configuration, the service and the desktop."
    static let discussion = """
        Checks, in order: the touch devices and mice and whether they can be read (and if
        not, why: the udev rule, the input group, or a group added since this login);
        /dev/uinput, for interception and input actions; the configuration; the systemd user
        service and its last log lines; other gesture tools running (libinput-gestures,
        fusuma, touchegg, gebaar) and a second `gestures run`; the desktop's own gestures that
        the bindings overlap; the focus source the session offers for bindings with apps or title. Each problem comes with one sentence saying what to do.
        Exit status: 0 all well, 1 a problem, 2 something could not be checked.
        """
    static let format = OutputFormat.option(default: .text)
    static let root = Option(
        "--root", valueName: "DIR", .directory,
        help: "Examine the system tree under DIR (its /dev, /sys, /etc and home folders) instead of this machine.")
    static let options = [format.spec, root.spec]

    /// The output format and the tree examined.
    struct Options {
        var format: OutputFormat
        var root: String?
    }

    static func parse(_ arguments: ParsedArguments) -> Options {
        Options(format: arguments[format], root: arguments[root])
    }

    static func run(_ options: Options) throws -> Int32 {
        if let root = options.root {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandFailure("--root \(root) is not a folder")
            }
        }
        let report = Doctor(system: HostSystem(root: options.root ?? "/")).examine()
        switch options.format {
        case .text:
            print(report.text, terminator: "")
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        }
        return report.exitStatus
    }
}
