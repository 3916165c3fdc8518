import Foundation
import GestureTraces
import TouchInput

/// The devices the checks create with uinput: the real devices described in
/// `Recordings/devices/` (one trace header per device, copied into the VM by
/// Tools/vm-test), named "... (virtual)".
///
/// Their axes have no fuzz here, so that the state read back equals the state
/// written: the kernel's fuzz filter (`input_defuzz_abs_event`) would average
/// moves smaller than twice the fuzz, which the Apple trackpad's 4 units are.
/// live-equals-replay plays the synthetic traces with their own devices,
/// fuzz included, and allows for it.
struct VMDevices {
    /// Where Tools/vm-test puts the device descriptions in the VM.
    static let directory = "/recordings/devices"
    /// BTN_TOOL_FINGER ... BTN_TOOL_QUINTTAP: the finger-count keys of a touchpad.
    static let fingerTools: [UInt16] = [
        BTN.TOOL_FINGER, BTN.TOOL_DOUBLETAP, BTN.TOOL_TRIPLETAP,
        BTN.TOOL_QUADTAP, BTN.TOOL_QUINTTAP,
    ]

    /// Lenovo X1 Carbon 3rd, Synaptics PS/2: 2 slots, BTN_TOOL up to QUINTTAP, 98 x 54 mm.
    let synaptics: DeviceDescription
    /// Apple Magic Trackpad v1: 16 slots, touch size, 132 x 112 mm.
    let appleTrackpad: DeviceDescription
    /// Synaptics RMI4 TM3053 with per-contact pressure: 5 slots, 97 x 53 mm.
    let rmi4: DeviceDescription
    /// Atmel maXTouch touchscreen: 10 slots, no resolution.
    let touchscreen: DeviceDescription
    /// A USB mouse: relative x/y, wheel, three buttons.
    let mouse: DeviceDescription

    /// Reads the descriptions from `directory`.
    init(directory: String = VMDevices.directory) throws {
        func load(_ name: String) throws -> DeviceDescription {
            let path = directory + "/" + name + ".jsonl"
            let trace = try Trace.load(contentsOf: URL(fileURLWithPath: path))
            guard trace.devices.count == 1 else {
                throw CheckFailure("\(path) describes \(trace.devices.count) devices; a device file describes one.")
            }
            var device = trace.devices[0]
            device.name += " (virtual)"
            for code in device.absInfo.keys { device.absInfo[code]?.fuzz = 0 }
            return device
        }
        synaptics = try load("x1carbon")
        appleTrackpad = try load("magic")
        rmi4 = try load("rmi4-pressure")
        touchscreen = try load("atmel")
        mouse = try load("mouse")
    }

    /// The touch devices with their short names and expected kinds.
    var touchDevices: [(name: String, info: DeviceDescription, kind: DeviceDescription.Kind)] {
        [
            ("synaptics-2slot", synaptics, .touchpad),
            ("apple-16slot", appleTrackpad, .touchpad),
            ("rmi4-5slot", rmi4, .touchpad),
            ("touchscreen-10slot", touchscreen, .touchscreen),
        ]
    }
}
