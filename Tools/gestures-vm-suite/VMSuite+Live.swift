import EvdevInput
import Foundation
import GestureTraces
import TouchInput

/// Checks of live gestures: `gestures watch` on virtual devices prints what
/// `gestures replay` prints, through dropped events and unplugging, quickly
/// and without using the CPU while idle.
extension VMSuite {
    /// Where Tools/vm-test puts the synthetic traces in the VM.
    static let recordings = "/recordings"

    /// The traces played into each device model for live-equals-replay.
    static let liveTraces: [(name: String, traces: [String])] = [
        ("synaptics-2slot", ["x1carbon.3-finger-swipe-left", "x1carbon.4-finger-pinch-out", "x1carbon.3-finger-tap"]),
        ("apple-16slot", ["magic.4-finger-swipe-left-from-right-edge", "magic.2-finger-rotate-anticlockwise", "magic.2-finger-hold"]),
        ("rmi4-5slot", ["rmi4.5-finger-swipe-down-right", "rmi4.3-finger-hold", "rmi4.2-finger-pinch-out"]),
        ("touchscreen-10slot", ["atmel.1-finger-stroke-circle", "atmel.2-finger-pinch-in", "atmel.1-finger-tap"]),
    ]

    /// Every trace file the live checks use.
    static var liveTraceFiles: [String] { liveTraces.flatMap(\.traces) + ["x1carbon.4-finger-swipe-up"] + mouseTraces }

    /// The path of a synthetic trace in the VM.
    static func tracePath(_ name: String) -> String { "\(recordings)/\(name).jsonl" }

    /// Creates a virtual device for a one-device trace, waits until `child` has it
    /// open, writes the frames with their recorded spacing, and returns the device
    /// (destroying it discards unread events, so the caller waits for the output first).
    func play(_ trace: Trace, into child: VMChild) throws -> VirtualDevice {
        let seen = child.readingLines.count
        let device = try VirtualDevice(trace.devices[0])
        let node = device.devnode!
        try child.waitUntil("reading \(node)") { $0.isReading(node, after: seen) }
        try write(trace, to: device)
        return device
    }

    /// Writes the frames of a one-device trace to `device` with their recorded spacing.
    func write(_ trace: Trace, to device: VirtualDevice) throws {
        let first = trace.frames.first?.events.first?.microseconds ?? 0
        let start = VMSuite.nowMicroseconds()
        for frame in trace.frames {
            let due = start + (frame.events.first?.microseconds ?? first) - first
            let wait = due - VMSuite.nowMicroseconds()
            if wait > 0 { usleep(UInt32(wait)) }
            try device.writeFrame(frame.events)
        }
    }

    /// The traces for the started-late checks: a touchpad whose slots the swipe changes
    /// and one with more slots than fingers.
    static let usedBeforeTraces = ["x1carbon.3-finger-swipe-left", "rmi4.5-finger-swipe-down-right", "rmi4.2-finger-pinch-out"]

    /// A reader that starts after the device was used (issue 16, class 8). The kernel
    /// drops an absolute event whose value equals the one it last reported, so after a
    /// trace has been played into a device with nobody reading, a reader that took no
    /// slot and axis state at open would decode the next play without them. Here the
    /// trace is played twice before `watch` starts, then again: watch must print what
    /// `gestures replay` prints for it.
    func watchStartedAfterUse() throws {
        for traceName in VMSuite.usedBeforeTraces {
            let (trace, expected) = try replayedEnds(traceName)
            let device = try VirtualDevice(trace.devices[0])
            defer { device.destroy() }
            let node = device.devnode!
            try write(trace, to: device)
            try write(trace, to: device)
            let watch = try VMChild(["watch", "--ends", "--device", node])
            defer { _ = watch.stop(SIGKILL) }
            try watch.waitUntil("reading \(node)") { $0.isReading(node, after: 0) }
            try write(trace, to: device)
            try watch.waitUntil("\(expected.count) gesture lines for \(traceName)") { $0.lines.count >= expected.count }
            let got = watch.lines.map(\.line)
            try expect(got.count == expected.count, "\(traceName): watch printed \(got), replay \(expected)")
            for (live, replayed) in zip(got, expected) {
                if let key = try VMSuite.difference(live, replayed, fuzzMillimeters: VMSuite.fuzzMillimeters(trace.devices[0])) {
                    throw CheckFailure("\(traceName) played after use: \(key) differs: watch printed \(live), replay \(replayed)")
                }
            }
        }
        say(
            "VMTEST INFO watch-started-after-use: \(VMSuite.usedBeforeTraces.count) traces played twice with no reader, then once to a new watch: same gestures as replay"
        )
    }

    /// A replay-contract line, for the checks that look inside it.
    struct GestureLine: Decodable {
        var type: String
        var phase: String?
        var time_ms: Double
        var fingers: Int?
        var cancelled: Bool?
        var direction: String?
        var dy_mm: Double?
        var scale: Double?
    }

    static func parse(_ line: String) throws -> GestureLine {
        do { return try JSONDecoder().decode(GestureLine.self, from: Data(line.utf8)) } catch {
            throw CheckFailure("not a gesture line: \(line)")
        }
    }

    static func time(_ line: String) -> Double { (try? parse(line).time_ms) ?? .nan }

    /// The numeric fields that may differ by the kernel's fuzz filter, and how much per mm of fuzz.
    static let measured: Set<String> = ["dx_mm", "dy_mm", "scale", "angle_degrees", "score"]

    /// Whether a live line equals a replayed one: every field but time_ms exactly, except
    /// that on a device with fuzz the measured numbers may differ within `fuzzMillimeters`
    /// (mm), 1 % (scale, score) or 1 degree: the kernel's input_defuzz_abs_event rewrites
    /// positions that move less than twice the fuzz, so the live positions are not the
    /// written ones. Returns nil when equal, else the first differing key.
    static func difference(_ live: String, _ replayed: String, fuzzMillimeters: Double) throws -> String? {
        guard let a = try JSONSerialization.jsonObject(with: Data(live.utf8)) as? [String: Any],
            let b = try JSONSerialization.jsonObject(with: Data(replayed.utf8)) as? [String: Any]
        else { return "not JSON objects" }
        guard Set(a.keys) == Set(b.keys) else { return "keys \(a.keys.sorted()) vs \(b.keys.sorted())" }
        for key in a.keys.sorted() where key != "time_ms" {
            if measured.contains(key), fuzzMillimeters > 0, let x = (a[key] as? NSNumber)?.doubleValue,
                let y = (b[key] as? NSNumber)?.doubleValue
            {
                let tolerance = key.hasSuffix("_mm") ? fuzzMillimeters : key == "angle_degrees" ? 1 : 0.01 * max(1, abs(y))
                if abs(x - y) > tolerance { return key }
            } else if "\(a[key]!)" != "\(b[key]!)" {
                return key
            }
        }
        return nil
    }

    /// Twice the largest fuzz of the position axes, in mm: how far defuzzing can move a position.
    static func fuzzMillimeters(_ device: DeviceDescription) -> Double {
        [ABS.X, ABS.Y, ABS.MT_POSITION_X, ABS.MT_POSITION_Y].compactMap { code -> Double? in
            guard let axis = device.absInfo[code], axis.fuzz > 0 else { return nil }
            return 2 * Double(axis.fuzz) / Double(max(axis.resolution, 1))
        }.max() ?? 0
    }

    /// The bundled trace `traceName`, and what `gestures replay --ends` prints
    /// for it (some lines: a check's trace always gives a gesture).
    func replayedEnds(_ traceName: String) throws -> (trace: Trace, lines: [String]) {
        let path = VMSuite.tracePath(traceName)
        return (try Trace.load(contentsOf: URL(fileURLWithPath: path)), try replayedEnds(path: path))
    }

    /// What `gestures replay --ends` prints for the recording at `path` (some lines).
    func replayedEnds(path: String) throws -> [String] {
        let (status, out, err) = try runGestures(["replay", "--ends", path])
        try expect(status == 0, "replay \(path): \(err)")
        let lines = out.split(separator: "\n").map(String.init)
        try expect(!lines.isEmpty, "replay of \(path) gave nothing")
        return lines
    }

    /// `gestures watch` on live uinput devices prints what `gestures replay`
    /// prints for a recording of the same play: `gestures record` reads each
    /// device beside watch, so the replay takes the frames watch read, with
    /// the kernel's times and values, and they must give the same lines, every
    /// field but time exactly. The player's timing on a loaded emulated CPU
    /// is not the trace's, so the trace's own replay must give the same
    /// gestures (type, fingers, direction, cancelled), its measures only
    /// reported where they differ.
    func liveEqualsReplay(_ name: String, traces: [String]) throws {
        let directory = "/tmp/live-equals-replay-\(name)"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let watch = try VMChild(["watch", "--ends"])
        defer { _ = watch.stop(SIGKILL) }
        try watch.waitUntil("watch starting") { $0.stderr.contains("waiting for one") }
        var expectedCount = 0
        var worstTimeDifference = 0.0
        var playedOtherwise: [String] = []
        for traceName in traces {
            let (trace, fromTrace) = try replayedEnds(traceName)
            let seen = watch.readingLines.count
            let device = try VirtualDevice(trace.devices[0])
            let node = device.devnode!
            try watch.waitUntil("reading \(node)") { $0.isReading(node, after: seen) }
            let recorded = "\(directory)/\(traceName).recorded.jsonl"
            let (status, _, err) = try runGestures(["record", "--device", node, "-o", recorded]) { pid, stderr in
                try self.expect(stderr.waitFor("recording \(node)"), "record never said it records \(node)")
                try self.write(trace, to: device)
                kill(pid, SIGINT)  // what was written is queued; record drains it
            }
            try expect(status == 0, "record \(traceName): status \(status): \(err)")
            let expected = try replayedEnds(path: recorded)
            let before = expectedCount
            expectedCount += expected.count
            try watch.waitUntil("\(expected.count) gesture lines for \(traceName)") { $0.lines.count >= expectedCount }
            device.destroy()
            let got = watch.lines[before..<expectedCount].map(\.line)
            for (live, replayed) in zip(got, expected) {
                if let key = try VMSuite.difference(live, replayed, fuzzMillimeters: 0) {
                    throw CheckFailure("\(traceName): \(key) differs: watch printed \(live), the recording's replay \(replayed)")
                }
            }
            // The recording against the trace: the same gestures; measures may follow the player's timing.
            let gestures = { (lines: [String]) in
                try lines.map(VMSuite.parse).map {
                    "\($0.type) \($0.phase ?? "") \($0.fingers ?? 0) \($0.direction ?? "") \($0.cancelled ?? false)"
                }
            }
            try expect(
                try gestures(expected) == gestures(fromTrace),
                "\(traceName): the recording replays to \(expected), the trace to \(fromTrace)")
            for (recordedLine, traceLine) in zip(expected, fromTrace) {
                if let key = try VMSuite.difference(recordedLine, traceLine, fuzzMillimeters: VMSuite.fuzzMillimeters(trace.devices[0])) {
                    playedOtherwise.append("\(traceName) \(key): \(recordedLine) against the trace's \(traceLine)")
                }
            }
            // Times: live counts from watch's start, replay from the recording's first event; compare gaps.
            if got.count > 1 {
                for index in 1..<got.count {
                    let live = VMSuite.time(got[index]) - VMSuite.time(got[0])
                    let replayed = VMSuite.time(expected[index]) - VMSuite.time(expected[0])
                    worstTimeDifference = max(worstTimeDifference, abs(live - replayed))
                }
            }
        }
        try watch.waitUntil("all devices gone") { $0.stderr.components(separatedBy: "is gone").count - 1 == traces.count }
        try expect(watch.lines.count == expectedCount, "extra lines: \(watch.lines.map(\.line).suffix(watch.lines.count - expectedCount))")
        let times =
            expectedCount > traces.count
            ? "; gaps between times within \(String(format: "%.1f", worstTimeDifference)) ms of the replay's"
            : " (time_ms counts from watch's start, so it is not compared)"
        let played =
            playedOtherwise.isEmpty
            ? "; the recordings replay as the traces do"
            : "; as played (the player's timing), measures differ from the traces' replay: " + playedOtherwise.joined(separator: "; ")
        say(
            "VMTEST INFO live-equals-replay \(name): \(expectedCount) gesture lines from \(traces.count) traces equal the replay of a recording made beside watch, all fields but time exactly\(times)\(played)"
        )
    }

    /// Frames of a slow 3-finger swipe right on the RMI4 pad, then a separate 2-finger pinch.
    static func stallFrames(writer: VMGestureWriter, stallSteps: Int) -> (swipe: [[InputEvent]], pinch: [[InputEvent]]) {
        (writer.swipe(count: 3, steps: stallSteps + 200, firstID: 3000), writer.pinch(steps: 15, firstID: 3100))
    }

    /// `gestures watch` started with no device to read, then a virtual RMI4
    /// pad made, once watch says it reads the pad (its clock is set).
    func watchReadingNewPad() throws -> (watch: VMChild, pad: VirtualDevice) {
        let watch = try VMChild(["watch"])
        do {
            try watch.waitUntil("watch starting") { $0.stderr.contains("waiting for one") }
            let pad = try VirtualDevice(devices.rmi4)
            let node = pad.devnode!
            try watch.waitUntil("reading \(node)") { $0.isReading(node, after: 0) }
            return (watch, pad)
        } catch {
            _ = watch.stop(SIGKILL)
            throw error
        }
    }

    /// `watch` stopped (SIGSTOP) mid-swipe gets SYN_DROPPED: the swipe ends cancelled, a
    /// warning is printed, the later pinch is right, and watch keeps running.
    func watchSynDropped() throws {
        let (watch, pad) = try watchReadingNewPad()
        defer { _ = watch.stop(SIGKILL) }
        let node = pad.devnode!
        let writer = VMGestureWriter(info: devices.rmi4)
        let (swipe, pinch) = VMSuite.stallFrames(writer: writer, stallSteps: 400)
        var index = 0
        // Every 5th frame (0.4 mm apart, so no hold begins) until the swipe has begun.
        while !watch.lines.contains(where: { $0.line.contains(#""type":"swipe","phase":"begin""#) }) && index < 100 {
            try pad.writeFrame(swipe[index]); index += 5
            usleep(VMSuite.frameSpacing)
        }
        try watch.waitUntil("swipe begin") { $0.lines.contains { $0.line.contains(#""type":"swipe","phase":"begin""#) } }
        kill(watch.pid, SIGSTOP)
        for frame in swipe[index..<(index + 400)] { try pad.writeFrame(frame); usleep(1_000) }
        kill(watch.pid, SIGCONT)
        for frame in swipe[(index + 400)...] { try pad.writeFrame(frame); usleep(VMSuite.frameSpacing) }
        for frame in pinch { try pad.writeFrame(frame); usleep(VMSuite.frameSpacing) }
        try watch.waitUntil("pinch end") { $0.lines.contains { $0.line.contains(#""type":"pinch","phase":"end""#) } }
        let ends = try watch.lines.map(\.line).filter { $0.contains(#""phase":"end""#) }.map(VMSuite.parse)
        try expect(
            ends.count == 2 && ends[0].type == "swipe" && ends[0].cancelled == true
                && ends[1].type == "pinch" && ends[1].cancelled == false && (ends[1].scale ?? 0) > 1,
            "ends: \(watch.lines.map(\.line).filter { $0.contains(#""phase":"end""#) })")
        try expect(watch.stderr.components(separatedBy: "dropped events").count - 1 == 1, "warnings: \(watch.stderr)")
        try expect(kill(watch.pid, 0) == 0, "watch exited")
        say("VMTEST INFO watch-syn-dropped: swipe cancelled after the stall, pinch out recognised after it, one warning")
    }

    /// A device destroyed mid-swipe: watch prints the cancelled end, keeps running,
    /// picks up a touchscreen created afterwards and reports its swipe.
    func watchDeviceGone() throws {
        let watch = try VMChild(["watch"])
        defer { _ = watch.stop(SIGKILL) }
        try watch.waitUntil("watch starting") { $0.stderr.contains("waiting for one") }
        var pad: VirtualDevice? = try VirtualDevice(devices.synaptics)
        let node = pad!.devnode!
        try watch.waitUntil("reading \(node)") { $0.isReading(node, after: 0) }
        let swipe = VMGestureWriter(info: devices.synaptics).swipe(count: 3, steps: 30, firstID: 4000)
        for frame in swipe.prefix(20) { try pad!.writeFrame(frame); usleep(VMSuite.frameSpacing) }
        try watch.waitUntil("swipe begin") { $0.lines.contains { $0.line.contains(#""type":"swipe","phase":"begin""#) } }
        pad = nil
        try watch.waitUntil("cancelled end") { $0.lines.contains { $0.line.contains(#""phase":"end""#) } }
        try watch.waitUntil("gone message") { $0.stderr.contains("is gone") }
        let firstEnd = try VMSuite.parse(watch.lines.map(\.line).first { $0.contains(#""phase":"end""#) }!)
        try expect(firstEnd.type == "swipe" && firstEnd.cancelled == true, "end after unplug: \(firstEnd)")
        let seen = watch.readingLines.count
        let screen = try VirtualDevice(devices.touchscreen)
        let screenNode = screen.devnode!
        try watch.waitUntil("reading the new \(screenNode)") { $0.isReading(screenNode, after: seen) }
        for frame in VMGestureWriter(info: devices.touchscreen).swipe(count: 2, steps: 20, firstID: 4100) {
            try screen.writeFrame(frame); usleep(VMSuite.frameSpacing)
        }
        try watch.waitUntil("the touchscreen's swipe end") { $0.lines.filter { $0.line.contains(#""phase":"end""#) }.count == 2 }
        let second = try VMSuite.parse(watch.lines.map(\.line).filter { $0.contains(#""phase":"end""#) }[1])
        try expect(
            second.type == "swipe" && second.cancelled == false && second.fingers == 2 && second.direction == "right",
            "touchscreen swipe: \(second)")
    }

    /// Time from a frame's write to the line watch prints for it (median, p95),
    /// and watch's resident memory and CPU use over 2 idle seconds. Reported;
    /// only a busy idle loop (more than 1 tick) fails.
    func watchLatencyAndIdle() throws {
        let (watch, pad) = try watchReadingNewPad()
        defer { _ = watch.stop(SIGKILL) }
        let node = pad.devnode!
        let frames = VMGestureWriter(info: devices.rmi4).swipe(count: 3, steps: 80, firstID: 5000)
        // Which frames print a line: the same pipeline, in process, over the same frames.
        var pipeline = GesturePipeline(device: devices.rmi4, originMicroseconds: 0)!
        var latencies: [Int64] = []
        for (index, frame) in frames.enumerated() {
            let time = Int64(index) * 10_000
            let stamped = (frame + [InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: 0)]).map {
                InputEvent(type: $0.type, code: $0.code, value: $0.value, microseconds: time)
            }
            let printed = stamped.flatMap { pipeline.process($0) }.count
            let before = watch.lines.count
            let written = VMSuite.nowMicroseconds()
            try pad.writeFrame(frame)
            if printed > 0 {
                try watch.waitUntil("the line of frame \(index)") { $0.lines.count >= before + printed }
                latencies.append(watch.lines[before].arrived - written)
            }
            usleep(VMSuite.frameSpacing)
        }
        try expect(latencies.count > 50, "only \(latencies.count) frames printed a line")
        latencies.sort()
        let median = latencies[latencies.count / 2], p95 = latencies[latencies.count * 95 / 100]
        say(
            "VMTEST INFO watch latency (frame write -> gesture line read from watch's stdout, µs, TCG VM, \(latencies.count) frames): median \(median), p95 \(p95), max \(latencies.last!)"
        )
        let idle = try VMSuite.idle(watch.pid, "watch")
        say("VMTEST INFO \(idle.report)")
        try expect(idle.ticks <= 1, "watch used \(idle.ticks) ticks while idle")
        let exit = watch.stop(SIGTERM)
        try expect(exit == 0, "watch exit status \(exit) after SIGTERM: \(watch.stderr)")
    }

}
