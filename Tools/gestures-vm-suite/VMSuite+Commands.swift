import EvdevInput
import Foundation
import GestureTraces
import InputInterception
import TouchInput

/// Checks of one-shot `gestures` subcommands on virtual devices: `replay
/// --uinput`, `record`, `devices`, and what an unprivileged user sees.
extension VMSuite {
    /// `gestures replay --uinput` of a recording, read back through a reader that
    /// picks the new device up by hotplug: equal state after every frame.
    func replay(_ info: DeviceDescription) throws {
        let writer = VMGestureWriter(info: info)
        let frames = writer.swipe(count: 3, steps: 15, firstID: 1000) + writer.pinch(steps: 15, firstID: 1100)
        let start: Int64 = 1_700_000_000_000_000
        let path = "/tmp/replay.jsonl"
        try VMSuite.trace(of: frames, on: info, start: start).write(to: URL(fileURLWithPath: path))
        let reader = try EvdevReader()
        try reader.watchForNewDevices(in: "/dev/input")
        var initial = EvdevState()
        var read: [EvdevState] = []
        var readState = EvdevState()
        var added = false
        var seen: [String] = []
        let (status, _, err) = try runGestures(["replay", "--uinput", path, "--wait", "300", "--linger", "300"]) { _ in
            // The child may take seconds to start under TCG. A wake-up can bring no output
            // (a node that could not be opened yet), so only the deadline ends the wait.
            let deadline = VMSuite.nowMicroseconds() + 30_000_000
            while VMSuite.nowMicroseconds() < deadline {
                let batch = try reader.wait(timeout: .milliseconds(200))
                for (device, output) in batch.outputs {
                    if seen.count < 5 { seen.append("\(device.path) \(device.description.name): \(output)") }
                    switch output {
                    case .added:
                        guard device.description.name == info.name else { reader.remove(device); continue }
                        added = true
                        readState = device.state
                        initial = readState
                    case .frame(let frame), .forwarded(let frame):
                        readState.apply(frame)
                        if read.last != readState { read.append(readState) }
                    case .removed: break
                    case .resynced: throw CheckFailure("SYN_DROPPED while reading the replay")
                    }
                }
                if added && reader.devices.isEmpty { break }
            }
        }
        try expect(status == 0, "replay status \(status): \(err)")
        try expect(added, "the replayed device was not picked up; saw \(seen); replay said: \(err)")
        var expected: [EvdevState] = []
        var state = initial
        for frame in frames {
            state.apply(frame)
            if expected.last != state { expected.append(state) }
        }
        let firstDifference = read.indices.first { $0 >= expected.count || read[$0] != expected[$0] }
        try expect(
            read == expected,
            "read \(read.count) distinct states, expected \(expected.count); first differing at \(firstDifference.map(String.init) ?? "the end")"
        )
    }

    /// A one-device trace of `frames` written 10 ms apart from `start` (µs), each ending in SYN_REPORT.
    static func trace(of frames: [[InputEvent]], on info: DeviceDescription, start: Int64) -> Trace {
        Trace(
            devices: [info],
            frames: frames.enumerated().map { index, events in
                let time = start + Int64(index) * 10_000
                let stamped = (events + [InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: 0)]).map {
                    InputEvent(type: $0.type, code: $0.code, value: $0.value, microseconds: time)
                }
                return Trace.Frame(device: 0, events: stamped)
            })
    }

    /// `gestures record` waiting on an idle device uses no CPU; its resident memory is reported.
    func recordIdle() throws {
        let (virtual, _) = try open(devices.synaptics)
        let path = "/tmp/record-idle.jsonl"
        unlink(path)
        var report = ""
        var idleTicks: Int?
        let (status, _, err) = try runGestures(["record", "--device", virtual.devnode!, "-o", path]) { pid in
            for _ in 0..<300 where ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").isEmpty { usleep(10_000) }
            (idleTicks, report) = try VMSuite.idle(pid, "record")
            kill(pid, SIGTERM)
        }
        try expect(status == 0, "status \(status): \(err)")
        say("VMTEST INFO \(report)")
        try expect((idleTicks ?? 99) <= 1, report)
    }

    /// `gestures devices --format json` lists the virtual pad with its kind, size and slots, and the mouse as a mouse.
    func devicesJSON() throws {
        let (pad, _) = try open(devices.synaptics)
        let (mouse, _) = try open(devices.mouse)
        let (status, out, err) = try runGestures(["devices", "--format", "json"])
        try expect(status == 0, "status \(status): \(err)")
        struct Entry: Decodable { var node: String; var kind: String; var widthMillimeters: Double?; var slots: Int? }
        let entries = try JSONDecoder().decode([Entry].self, from: Data(out.utf8))
        let padEntry = entries.first { $0.node == pad.devnode }
        try expect(
            padEntry?.kind == "touchpad" && padEntry?.slots == 2 && padEntry?.widthMillimeters == 98, "pad: \(String(describing: padEntry))"
        )
        try expect(entries.first { $0.node == mouse.devnode }?.kind == "mouse", "mouse not listed as a mouse")
        let (_, text, _) = try runGestures(["devices"])
        say("VMTEST INFO devices:\n" + text.split(separator: "\n").map { "VMTEST INFO   " + $0 }.joined(separator: "\n"))
    }

    /// `gestures record` in a child process, stopped by `signal`: a complete, valid
    /// trace in `format` with every frame, read back by `Trace.load`.
    func record(signal number: Int32, format: TraceFormat = .json) throws {
        let (virtual, _) = try open(devices.rmi4)
        let node = virtual.devnode!
        let path = "/tmp/record-\(number).\(format.pathExtension)"
        unlink(path)
        let frames = VMGestureWriter(info: devices.rmi4).swipe(count: 3, steps: 15, firstID: 700)
        var written = EvdevState()
        let (status, _, err) = try runGestures(["record", "--device", node, "-o", path, "--format", format.rawValue]) { process, stderr in
            // Once it says so: an open descriptor alone is too early (setting its clock flushes the queue).
            try self.expect(stderr.waitFor("recording \(node)"), "record never said it records \(node)")
            for frame in frames {
                try virtual.writeFrame(frame)
                written.apply(frame)
                usleep(VMSuite.frameSpacing)
            }
            // No grace period: frames written before the signal are queued in
            // the kernel, and record drains them before it finishes.
            kill(process, number)
        }
        try expect(status == 0, "status \(status): \(err)")
        let trace = try Trace.load(contentsOf: URL(fileURLWithPath: path))
        try expect(
            trace.devices.count == 1 && trace.devices[0].name == devices.rmi4.name && trace.devices[0].kind == .touchpad,
            "devices \(trace.devices.map(\.name))")
        var read = EvdevState()
        for frame in trace.frames { read.apply(frame.events) }
        try expect(trace.frames.count == frames.count, "\(trace.frames.count) frames recorded, \(frames.count) written")
        try expect(read == written, "recorded state differs")
    }

    /// An unprivileged user gets the one-sentence permission error and status 1.
    func permissionDenied() throws {
        let (pad, _) = try open(devices.synaptics)
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/input"))?.filter { $0.hasPrefix("event") } ?? []
        for node in nodes { chmod("/dev/input/" + node, 0o600); chown("/dev/input/" + node, 0, 0) }
        let (status, out, err) = try runGesturesAsNobody(["devices"])
        try expect(status == 1, "status \(status), stdout \(out)")
        let lines = err.split(separator: "\n")
        try expect(
            lines.count == 1 && err.contains("Permission denied") && err.contains("`input` group")
                && err.contains("Tools/70-gestures.rules"), "stderr: \(err)")
        let (recordStatus, _, recordErr) = try runGesturesAsNobody(["record", "--device", pad.devnode!])
        try expect(recordStatus == 1 && recordErr.contains("Permission denied"), "record: status \(recordStatus), \(recordErr)")
        say("VMTEST INFO unprivileged: \(err.trimmingCharacters(in: .whitespacesAndNewlines))")
    }
}
