import Foundation
import Testing

// The host has no input devices; reading real and virtual devices is checked
// against a real kernel by Tools/vm-test. These cover what needs no device.
@Suite("gestures devices and record without devices (end to end)")
struct DevicesCommandTests {
    @Test("an empty directory of event nodes says there are no devices")
    func noDevicesSaysSo() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var run = try ToolRunner.run(["devices", "--dir", dir.path])
        #expect(run.status == 0)
        #expect(run.stdout == Self.noDevices(dir.path, exists: true) + "\n")
        run = try ToolRunner.run(["devices", "--dir", dir.path, "--format", "json"])
        #expect(run.stdout == "[]\n")
    }

    /// The one sentence for a folder without input devices.
    static func noDevices(_ directory: String, exists: Bool) -> String {
        "There are no input devices to read: \(directory) \(exists ? "holds no event node" : "does not exist") "
            + "(in a container or VM, the machine's devices are not passed in); run gestures on the machine with the touchpad, or give --dir DIR."
    }

    @Test("no input devices is said one way by devices, record, watch and run")
    func noDevicesIsOneSentence() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("config.json")
        try #"{"version": 1}"#.write(to: config, atomically: true, encoding: .utf8)
        let missing = dir.appendingPathComponent("input").path
        let sentence = Self.noDevices(missing, exists: false)
        #expect(try ToolRunner.run(["devices", "--dir", missing]).stdout == sentence + "\n")
        for command in [["record"], ["watch"], ["run", "--config", config.path]] {
            let run = try ToolRunner.run(command + ["--dir", missing])
            #expect(run.status == 1, "\(command): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").last.map(String.init) == "gestures \(command[0]): \(sentence)", "\(run.stderr)")
        }
        // An empty folder: record says it at once (watch and run wait for a device to be plugged in).
        let empty = try ToolRunner.run(["record", "--dir", dir.path])
        #expect(empty.stderr == "gestures record: \(Self.noDevices(dir.path, exists: true))\n", "\(empty.stderr)")
    }

    @Test("an unknown format is a usage error")
    func unknownFormatIsUsageError() throws {
        let run = try ToolRunner.run(["devices", "--format", "yaml"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("expects text or json"))
    }

    @Test("a node that is not an evdev device gives one sentence and status 1")
    func notAnInputDeviceIsOneSentence() throws {
        let run = try ToolRunner.run(["record", "--device", "/dev/null"])
        #expect(run.status == 1)
        #expect(run.stderr == "gestures record: /dev/null is not an evdev input device.\n")
    }

    @Test("the real-kernel suite is not part of gestures", arguments: ["vm-suite", "as-user"])
    func vmSuiteIsNotASubcommand(name: String) throws {
        let help = try ToolRunner.run(["--help"])
        #expect(help.stdout.contains("devices") && help.stdout.contains("record"))
        #expect(!help.stdout.contains(name))
        let run = try ToolRunner.run([name])
        #expect(run.status == 64 && run.stderr.contains("unknown subcommand '\(name)'"))
    }
}
