import EvdevInput
import Foundation
import GestureTraces
import TouchInput

/// live-equals-replay for a mouse: a recording of a mouse, made by `gestures
/// record` in the VM, replays to what the live daemon printed and did.
extension VMSuite {
    /// The synthetic mouse traces (Recordings/synthetic, from Recordings/devices/mouse.jsonl).
    static let mouseTraces = ["mouse.stroke-circle", "mouse.click", "mouse.press-held-then-dragged", "mouse.nothing-unmatched-stroke"]

    /// Each synthetic mouse trace is played into a virtual mouse that
    /// `gestures record` reads (the recording must hold its motion and its
    /// buttons, and replay as the trace does); then each recording is played
    /// into a virtual mouse the daemon intercepts. The daemon's mouse lines
    /// (decisions and fired actions, times aside) equal those of
    /// `gestures run --replay` of the recording, and the button events that
    /// reached the mouse's clone equal the clone frames its pipeline gives
    /// in a replay (clicks at their release, a press held still, no stroke's).
    func mouseLiveEqualsReplay() throws {
        let directory = "/tmp/live-equals-replay-mouse"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let marker = directory + "/marker", config = directory + "/config.json"
        try """
        {"version": 1, "mouse": {}, "actions": {"maximumConcurrent": 1},
         "bindings": [{"gesture": "stroke", "template": "circle", "action": {"command": ["sh", "-c", "echo $GESTURE_TEMPLATE $GESTURE_SCORE $GESTURE_SOURCE >> \(marker)"]}}]}
        """.write(toFile: config, atomically: true, encoding: .utf8)

        // 1. Record each trace as played into a virtual mouse.
        var recordings: [String] = []
        for name in VMSuite.mouseTraces {
            let trace = try Trace.load(contentsOf: URL(fileURLWithPath: VMSuite.tracePath(name)))
            let (virtual, _) = try open(trace.devices[0])
            let node = virtual.devnode!
            let recorded = "\(directory)/\(name).recorded.jsonl"
            let (status, _, err) = try runGestures(["record", "--device", node, "-o", recorded]) { pid, stderr in
                try self.expect(stderr.waitFor("recording \(node)"), "record never said it records \(node)")
                try self.write(trace, to: virtual)
                kill(pid, SIGINT)  // what was written is queued; record drains it
            }
            virtual.destroy()
            try expect(status == 0, "record \(name): status \(status): \(err)")
            let recording = try Trace.load(contentsOf: URL(fileURLWithPath: recorded))
            try expect(
                recording.devices.count == 1 && recording.devices[0].kind == .mouse,
                "\(name): recorded devices \(recording.devices.map(\.name))")
            func counts(_ trace: Trace) -> (rel: Int32, keys: [Int32]) {
                let events = trace.frames.flatMap(\.events)
                let rel = events.filter { $0.type == EV.REL }.map { abs($0.value) }.reduce(0, +)
                return (rel, events.filter { $0.type == EV.KEY && $0.code == BTN.RIGHT }.map(\.value))
            }
            let (writtenMotion, writtenKeys) = counts(trace), (recordedMotion, recordedKeys) = counts(recording)
            try expect(
                recordedMotion == writtenMotion && recordedKeys == writtenKeys,
                "\(name): recorded \(recordedMotion) counts of motion and BTN_RIGHT \(recordedKeys), written \(writtenMotion) and \(writtenKeys)"
            )
            let (_, original, _) = try runGestures(["replay", "--no-config", VMSuite.tracePath(name)])
            let (_, replayed, _) = try runGestures(["replay", "--no-config", recorded])
            let want = original.split(separator: "\n").map(String.init), got = replayed.split(separator: "\n").map(String.init)
            try expect(!want.isEmpty && got.count == want.count, "\(name): the recording replays to \(got), the trace to \(want)")
            for (a, b) in zip(got, want) {
                if let key = try VMSuite.difference(a, b, fuzzMillimeters: 0) {
                    throw CheckFailure("\(name): \(key) differs: the recording replays to \(a), the trace to \(b)")
                }
            }
            recordings.append(recorded)
        }

        // 2. The daemon on each recording played into a virtual mouse, beside its replay.
        let run = try VMChild(["run", "--config", config])
        defer { _ = run.stop(SIGKILL) }
        try run.waitUntil("the daemon starting") { $0.stderr.contains("waiting for one") }
        var summary: [String] = []
        for (name, recorded) in zip(VMSuite.mouseTraces, recordings) {
            let trace = try Trace.load(contentsOf: URL(fileURLWithPath: recorded))
            let (status, _, replayLog) = try runGestures(["run", "--config", config, "--replay", recorded])
            try expect(status == 0, "run --replay \(name): status \(status): \(replayLog)")
            let expected = VMSuite.mouseLines(replayLog)
            try expect(!expected.isEmpty, "run --replay \(name) logged nothing of the mouse: \(replayLog)")
            let before = VMSuite.mouseLines(run.stderr).count
            let (mouse, clone) = try interceptedDevice(trace.devices[0], by: run)
            let cloneReader = try EvdevReader(devices: [try EvdevDevice(path: clone)])
            try write(trace, to: mouse)
            try run.waitUntil("\(expected.count) mouse lines for \(name)") {
                VMSuite.mouseLines($0.stderr).count >= before + expected.count
            }
            let cloneFrames = try drain(cloneReader, quiet: .milliseconds(400)).flatMap { output -> [InputEvent] in
                if case .frame(let events) = output { return events }
                return []
            }
            mouse.destroy()
            let live = Array(VMSuite.mouseLines(run.stderr).dropFirst(before))
            try expect(live.prefix(expected.count) == expected[...], "\(name): the daemon logged \(live), its replay \(expected)")
            // What reached the desktop: the clone's button events, as the pipeline gives them in a replay.
            var pipeline = try requireVM(GesturePipeline(device: trace.devices[0], originMicroseconds: 0), "a mouse's pipeline")
            for frame in trace.frames { for event in frame.events { _ = pipeline.process(event) } }
            _ = pipeline.finish()
            let replayKeys = pipeline.takeCloneFrames().flatMap { $0 }.filter { $0.type == EV.KEY }.map { "\($0.code):\($0.value)" }
            let liveKeys = cloneFrames.filter { $0.type == EV.KEY }.map { "\($0.code):\($0.value)" }
            try expect(liveKeys == replayKeys, "\(name): the clone got the buttons \(liveKeys), the replay's pipeline gives \(replayKeys)")
            summary.append(
                "\(name): \(expected.count) line\(expected.count == 1 ? "" : "s"), clone buttons [\(liveKeys.joined(separator: " "))]")
        }
        // The circle fired once live and once in its replay, nothing else did.
        let fired = VMSuite.fired(marker)
        try expect(
            fired.count == 2 && fired.allSatisfy { $0.hasPrefix("circle ") && $0.hasSuffix(" mouse") } && fired[0] == fired[1],
            "marker \(fired)")
        let status = run.stop(SIGTERM)
        try expect(status == 0, "daemon status \(status): \(run.stderr)")
        say(
            "VMTEST INFO live-equals-replay-mouse: \(VMSuite.mouseTraces.count) traces recorded with their motion and buttons, each recording replays as its trace; the daemon on the recordings logged what run --replay logs (times aside): "
                + summary.joined(separator: "; "))
    }

    /// The daemon's lines about mice, from its log, times and device left
    /// out: its decisions (`mouse click, ...: ... [device, at T ms]`) and the
    /// actions mouse strokes fired (`fired NAME (T ms  stroke  mouse ...)`).
    static func mouseLines(_ log: String) -> [String] {
        log.split(separator: "\n").compactMap { line -> String? in
            if let range = line.range(of: "gestures: mouse ") {
                let text = line[range.upperBound...]
                return "mouse " + String(text[..<(text.range(of: " [")?.lowerBound ?? text.endIndex)])
            }
            guard let fired = line.range(of: "gestures: fired "), line.contains("  stroke  mouse  ") else { return nil }
            let text = String(line[fired.upperBound...])
            // The time is the one part that differs: `(708 ms  stroke ...` -> `(stroke ...`.
            guard let open = text.range(of: " ("), let ms = text.range(of: " ms  ", range: open.upperBound..<text.endIndex) else {
                return text
            }
            return String(text[..<open.upperBound]) + String(text[ms.upperBound...])
        }
    }
}

/// `value`, or a check failure saying it was nil.
func requireVM<T>(_ value: T?, _ what: String = "a value") throws -> T {
    guard let value else { throw CheckFailure("\(what) was nil") }
    return value
}
