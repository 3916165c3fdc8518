import CommandLineKit
import Foundation
import GestureTraces
import TouchInput

/// The real devices described as data in the repository's
/// `Recordings/devices/`, one file per device (a trace header with no frames),
/// for the benchmarks to generate input on.
struct DeviceFiles {
    /// The folder read when none is given: `Recordings/devices` under the current directory.
    static let defaultDirectory = "Recordings/devices"

    /// The folder the descriptions are read from.
    let directory: String

    /// The folder `directory` (``defaultDirectory`` when nil), which must exist.
    init(directory: String?) throws {
        let directory = directory ?? Self.defaultDirectory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(
                "No folder of device descriptions at \(directory); run from the repository's top folder or give one with --devices DIR")
        }
        self.directory = directory
    }

    /// The device described in `NAME.jsonl`.
    func device(_ name: String) throws -> DeviceDescription {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name + ".jsonl")
        let devices = try Trace.load(contentsOf: path).devices
        guard devices.count == 1 else {
            throw CommandFailure("\(path.path) describes \(devices.count) devices; a device file describes one")
        }
        return devices[0]
    }
}

extension DeviceFiles {
    /// `--devices DIR`: where the benchmarks read their device descriptions.
    static let option = Option(
        "--devices", valueName: "DIR", .text,
        help: "Where the device descriptions are (default Recordings/devices).")
}
