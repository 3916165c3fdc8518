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
        #expect(run.stdout == "No input devices found in \(dir.path).\n")
        run = try ToolRunner.run(["devices", "--dir", dir.path, "--format", "json"])
        #expect(run.stdout == "[]\n")
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

    @Test("record without a touch device says how to choose one")
    func recordWithoutDeviceExplains() throws {
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try ToolRunner.run(["record", "--dir", dir.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("No touchpad or touchscreen found") && run.stderr.contains("--device"))
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
