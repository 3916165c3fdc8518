import Foundation
import GestureTraces
import TouchInput

/// The real devices described as data in the repository's `Recordings/devices/`
/// (one file per device: a trace header with no frames), for tests. The same
/// files feed `Tools/make-synthetic-traces.py`, the benchmarks and the
/// real-kernel suite.
///
/// ```swift
/// let pad = try RecordedDevices.x1Carbon
/// print(pad.slotCount)   // 2
/// ```
public enum RecordedDevices {
    /// `Recordings/devices` in the repository, found from this file's path.
    public static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Recordings").appendingPathComponent("devices")

    /// The device described in `Recordings/devices/NAME.jsonl`.
    public static func named(_ name: String) throws -> DeviceDescription {
        let url = directory.appendingPathComponent(name + ".jsonl")
        let devices = try Trace.load(contentsOf: url).devices
        guard devices.count == 1 else { throw DeviceFileError(file: url.path, deviceCount: devices.count) }
        return devices[0]
    }

    /// The names of every device file (`x1carbon` for `x1carbon.jsonl`), sorted.
    public static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(".jsonl".count)) }.sorted()
    }

    /// Lenovo X1 Carbon 3rd gen, Synaptics PS/2: 98 x 54 mm, 2 slots, BTN_TOOL up to QUINTTAP, ABS_PRESSURE.
    public static var x1Carbon: DeviceDescription { get throws { try named("x1carbon") } }
    /// Apple Magic Trackpad v1: 132 x 112 mm, 16 slots, touch size, fuzz 4.
    public static var magicTrackpad: DeviceDescription { get throws { try named("magic") } }
    /// Synaptics RMI4 TM3053: 97 x 53 mm, 5 slots.
    public static var rmi4: DeviceDescription { get throws { try named("rmi4") } }
    /// The RMI4 with per-contact pressure (ABS_MT_PRESSURE 0-255).
    public static var rmi4WithPressure: DeviceDescription { get throws { try named("rmi4-pressure") } }
    /// Atmel maXTouch touchscreen: 800 x 480 units, 10 slots, no resolution, BTN_TOUCH only.
    public static var maXTouch: DeviceDescription { get throws { try named("atmel") } }
    /// Logitech USB optical mouse: relative x/y, wheel, three buttons.
    public static var mouse: DeviceDescription { get throws { try named("mouse") } }
}

/// A device file that does not describe exactly one device.
public struct DeviceFileError: Error, CustomStringConvertible {
    /// The file's path.
    public var file: String
    /// How many devices it describes.
    public var deviceCount: Int

    /// One sentence saying what is wrong.
    public var description: String { "\(file) describes \(deviceCount) devices; a device file describes one." }
}
