import EvdevInput
import Foundation
import TouchInput

/// The real-kernel checks `Tools/vm-test` runs inside a VM, as root, with
/// evdev and uinput loaded and the release `gestures` beside this program.
/// Each check prints `VMTEST PASS name` or `VMTEST FAIL name: why`; the last
/// line is `VMTEST DONE N passed, N failed`.
///
/// The checks are grouped by what they exercise: the evdev reader against
/// the kernel (`VMSuite+Reader.swift`), one-shot `gestures` subcommands
/// (`+Commands`), mouse strokes (`+Mouse`), live gestures from `watch`
/// (`+Live`), the daemon (`+Daemon`), interception (`+Interception`; what
/// libinput sees on a clone beside the device alone: `+Fidelity`) and the
/// evemu tools (`+Evemu`).
final class VMSuite {
    let filter: String?
    let devices: VMDevices
    var passed = 0
    var failed = 0

    init(filter: String?, devices: VMDevices) {
        self.filter = filter
        self.devices = devices
    }

    /// Runs every check whose name contains `filter` (all without one), in
    /// order; returns the exit status: 0 when all passed.
    static func runAll(filter: String?) -> Int32 {
        let devices: VMDevices
        do {
            devices = try VMDevices()
        } catch {
            printError("gestures-vm-suite: \(error)")
            return 1
        }
        guard FileManager.default.isExecutableFile(atPath: gestures) else {
            printError("gestures-vm-suite: no gestures program at \(gestures); Tools/vm-test copies it beside this one.")
            return 1
        }
        say("VMTEST BEGIN")
        let suite = VMSuite(filter: filter, devices: devices)
        for (name, info, kind) in devices.touchDevices {
            suite.check("describe-\(name)") { try suite.describe(info, kind: kind) }
            suite.check("roundtrip-\(name)") { try suite.roundTrip(info) }
            suite.check("syn-dropped-\(name)") { try suite.synDropped(info) }
        }
        suite.check("roundtrip-mouse") { try suite.mouseRoundTrip() }
        suite.check("describe-mouse") { try suite.describe(devices.mouse, kind: .mouse) }
        suite.check("device-gone") { try suite.deviceGone() }
        suite.check("hotplug") { try suite.hotplug() }
        suite.check("grab") { try suite.grab() }
        suite.check("mouse-strokes") { try suite.mouseStrokes() }
        suite.check("train-device") { try suite.trainOnDevice() }
        suite.check("train-device-touchscreen") { try suite.trainOnTouchscreen() }
        for (name, info, _) in devices.touchDevices {
            suite.check("replay-\(name)") { try suite.replay(info) }
        }
        suite.check("reader-latency") { try suite.readerLatency() }
        suite.check("record-idle-no-cpu") { try suite.recordIdle() }
        suite.check("devices-json") { try suite.devicesJSON() }
        suite.check("record-sigterm") { try suite.record(signal: SIGTERM) }
        suite.check("record-sigint") { try suite.record(signal: SIGINT) }
        suite.check("record-evemu") { try suite.record(signal: SIGINT, format: .evemu) }
        suite.check("record-libinput") { try suite.record(signal: SIGTERM, format: .libinput) }
        for (name, traces) in VMSuite.liveTraces {
            suite.check("live-equals-replay-\(name)") { try suite.liveEqualsReplay(name, traces: traces) }
        }
        suite.check("live-equals-replay-mouse") { try suite.mouseLiveEqualsReplay() }
        suite.check("watch-syn-dropped") { try suite.watchSynDropped() }
        suite.check("watch-device-gone") { try suite.watchDeviceGone() }
        suite.check("watch-latency-idle") { try suite.watchLatencyAndIdle() }
        suite.check("daemon-live") { try suite.daemon() }
        suite.check("watch-started-after-use") { try suite.watchStartedAfterUse() }
        suite.check("daemon-started-after-use") { try suite.daemonStartedAfterUse() }
        suite.check("daemon-mouse") { try suite.daemonMouse() }
        suite.check("intercept-unclaimed") { try suite.interceptUnclaimed() }
        suite.check("intercept-claimed") { try suite.interceptClaimed() }
        suite.check("intercept-killed") { try suite.interceptKilled() }
        suite.check("intercept-latency-idle") { try suite.interceptLatencyAndIdle() }
        suite.check("fidelity-scroll") { try suite.fidelityScroll() }
        suite.check("fidelity-touchscreen-claims") { try suite.fidelityTouchscreenClaims() }
        suite.check("fidelity-stray-hold") { try suite.fidelityStrayHold() }
        suite.check("fidelity-killed") { try suite.fidelityKilled() }
        suite.check("fidelity-dwt") { try suite.fidelityDisableWhileTyping() }
        suite.check("fidelity-list-devices") { try suite.fidelityListDevices() }
        suite.check("fidelity-taps") { try suite.fidelityTaps() }
        suite.check("fidelity-latency") { try suite.fidelityLatency() }
        suite.check("intercept-mouse") { try suite.interceptMouse() }
        suite.check("intercept-input-actions") { try suite.inputActions() }
        suite.check("evemu-play") { try suite.evemuPlay() }
        suite.check("permission-denied") { try suite.permissionDenied() }
        suite.check("doctor") { try suite.doctor() }
        say("VMTEST DONE \(suite.passed) passed, \(suite.failed) failed")
        return suite.failed == 0 ? 0 : 1
    }

    /// Runs one check if its name matches the filter, and prints its verdict.
    func check(_ name: String, _ body: () throws -> Void) {
        if let filter, !name.contains(filter) { return }
        do {
            try body()
            passed += 1
            say("VMTEST PASS \(name)")
        } catch {
            failed += 1
            say("VMTEST FAIL \(name): \(String(describing: error).replacingOccurrences(of: "\n", with: " "))")
        }
    }

    /// Fails the running check with `message` unless `condition` holds.
    func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw CheckFailure(message()) }
    }

    /// The time between the frames the checks write.
    static let frameSpacing: UInt32 = 10_000 /* µs */

    /// Creates the virtual device and opens its node for reading.
    func open(_ info: DeviceDescription) throws -> (VirtualDevice, EvdevDevice) {
        let virtual = try VirtualDevice(info)
        guard let node = virtual.devnode else { throw CheckFailure("uinput gave no devnode") }
        return (virtual, try EvdevDevice(path: node))
    }

    /// Reads until `quiet` passes without events; returns every output.
    func drain(_ reader: EvdevReader, quiet: Duration = .milliseconds(100)) throws -> [EvdevReader.Output] {
        var outputs: [EvdevReader.Output] = []
        while true {
            let batch = try reader.wait(timeout: quiet)
            if batch.outputs.isEmpty { return outputs }
            outputs += batch.outputs.map(\.output)
        }
    }

    /// Polls `condition` every 20 ms for up to 10 s.
    static func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            usleep(20_000)
        }
        return false
    }

    /// CLOCK_MONOTONIC in microseconds.
    static func nowMicroseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }

    /// The paths a process has open, from /proc/PID/fd.
    static func openFiles(_ pid: pid_t) -> [String] {
        let directory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + $0) }
    }

    /// utime + stime of a process, in clock ticks, from /proc/PID/stat.
    static func cpuTicks(_ pid: pid_t) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
        guard let close = stat.lastIndex(of: ")") else { throw CheckFailure("bad /proc stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { throw CheckFailure("bad /proc stat") }
        return user + system
    }

    /// A process left idle: the CPU ticks it used in 2 s (after 200 ms to
    /// settle) and its resident memory then, with the INFO line's words
    /// (`WHAT idle for 2 s: 0 CPU ticks (1 tick = 10 ms), resident memory 14036 kB`).
    static func idle(_ pid: pid_t, _ what: String) throws -> (ticks: Int, report: String) {
        usleep(200_000)
        let before = try cpuTicks(pid)
        sleep(2)
        let ticks = try cpuTicks(pid) - before
        return (ticks, "\(what) idle for 2 s: \(ticks) CPU ticks (1 tick = 10 ms), resident memory \(residentMemory(pid))")
    }

    /// A process's resident memory as /proc/PID/status says it (`14036 kB`), or `?`.
    static func residentMemory(_ pid: pid_t) -> String {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        return status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .map { $0.dropFirst(6).trimmingCharacters(in: .whitespaces) } ?? "?"
    }
}

/// Writes a line to standard output at once (unbuffered), so the console log
/// keeps every marker even if the VM stops right after.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// A failed expectation inside a check.
struct CheckFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
