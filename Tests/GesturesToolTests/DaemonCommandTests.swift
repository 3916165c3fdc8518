import Foundation
import Testing

/// A running `gestures run`, with its stderr collected line by line so a
/// test can wait for a line instead of sleeping.
private final class DaemonProcess: @unchecked Sendable {
    // `lines` and `ended` are guarded by `condition`.
    private let condition = NSCondition()
    private var lines: [String] = []
    private var ended = false
    let process = Process()
    private let input = Pipe()

    init(_ arguments: [String], in directory: URL) throws {
        process.executableURL = ToolRunner.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let reader = errors.fileHandleForReading
        Thread { [self] in
            var pending = Data()
            while true {
                let chunk = reader.availableData
                condition.lock()
                if chunk.isEmpty {
                    if !pending.isEmpty { lines.append(String(decoding: pending, as: UTF8.self)) }
                    ended = true
                    condition.broadcast()
                    condition.unlock()
                    return
                }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0a) {
                    lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[pending.index(after: newline)...])
                }
                condition.broadcast()
                condition.unlock()
            }
        }.start()
    }

    /// Waits for a line containing `text` after the first `after` lines; returns its index.
    /// The deadline only keeps a broken build from hanging the suite.
    @discardableResult
    func waitForLine(containing text: String, after: Int = 0) -> Int? {
        let deadline = Date().addingTimeInterval(120)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let index = lines.indices.dropFirst(after).first(where: { lines[$0].contains(text) }) { return index }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }

    var log: [String] {
        condition.lock()
        defer { condition.unlock() }
        return lines
    }

    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    func closeInput() { try? input.fileHandleForWriting.close() }
}

/// The lines of `file` once it has at least `count` of them, checked every
/// 50 ms (the commands run in the background and log nothing on success).
private func waitForLines(_ file: URL, count: Int) -> [String] {
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline {
        let lines = ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        if lines.count >= count { return lines }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return []
}

@Suite("gestures run and check-config (end to end)")
struct DaemonCommandTests {
    /// A configuration whose every action appends `label` and some variables to `marker`.
    static func configuration(marker: String, labels: [String: String] = [:]) -> String {
        func append(_ label: String, _ variables: String = "") -> String {
            #"["sh", "-c", "echo \"\#(labels[label] ?? label)\#(variables)\" >> \#(marker)"]"#
        }
        return """
            {"version": 1, "actions": {"maximumConcurrent": 1},
             "bindings": [
              {"gesture": "swipe", "fingers": 3, "direction": "left", "action": {"command": \(append("left", " $GESTURE_DX_MM"))}},
              {"gesture": "swipe", "direction": "left", "action": {"phase": "continuous", "every": 5, "command": \(append("step", " $GESTURE_STEP"))}},
              {"gesture": "swipe", "fingers": 4, "direction": "up", "action": {"phase": "begin", "command": \(append("up-begin"))}},
              {"gesture": "swipe", "fingers": 5, "direction": "down_right", "action": {"command": \(append("down-right", " $GESTURE_DISTANCE_MM"))}},
              {"gesture": "pinch", "direction": "out", "action": {"command": \(append("out", " $GESTURE_SCALE"))}},
              {"gesture": "pinch", "direction": "clockwise", "minimumAngleDegrees": 45, "action": {"command": \(append("clockwise", " $GESTURE_ANGLE_DEGREES"))}},
              {"gesture": "tap", "action": {"command": \(append("tap"))}}
             ]}
            """
    }

    static let traces = [
        "rmi4.2-finger-pinch-out", "rmi4.3-finger-rotate-clockwise", "rmi4.5-finger-swipe-down-right",
        "x1carbon.3-finger-swipe-left", "x1carbon.4-finger-swipe-up",
    ].map { ToolRunner.repository.appendingPathComponent("Recordings/synthetic/\($0).jsonl").path }

    /// What the traces above fire, in order: 36.6 mm left is 7 steps of 5 mm.
    static let expected =
        ["out 2.75", "clockwise 59.999", "down-right 32.385"]
        + (1...7).map { "step \($0)" } + ["left -36.6", "up-begin"]

    @Test("replayed traces fire exactly the expected actions, in order")
    func replayFiresExpectedActions() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("marker")
        let config = directory.appendingPathComponent("config.json")
        try Self.configuration(marker: marker.path).write(to: config, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["run", "--config", config.path] + Self.traces.flatMap { ["--replay", $0] })
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOf: marker, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines == Self.expected)
        #expect(run.stderr.contains("gestures: done: 12 commands run, 0 failed, 0 dropped"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").filter { $0.hasPrefix("gestures: fired ") }.count == 12)
    }

    @Test(
        "run --replay of mouse recordings fires the mouse circle's binding and logs each other decision; without a mouse section mice are not read"
    )
    func replayedMiceFireAndLogTheirDecisions() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("marker")
        let config = directory.appendingPathComponent("config.json")
        func configuration(mouse: Bool) -> String {
            """
            {"version": 1, \(mouse ? #""mouse": {},"# : "")
             "bindings": [{"gesture": "stroke", "template": "circle",
                           "action": {"command": ["sh", "-c", "echo $GESTURE_TEMPLATE $GESTURE_SOURCE ${GESTURE_FINGERS:-none} >> \(marker.path)"]}}]}
            """
        }
        let traces = ["mouse.stroke-circle", "mouse.click", "mouse.press-held-then-dragged", "mouse.nothing-unmatched-stroke"]
            .map { ToolRunner.repository.appendingPathComponent("Recordings/synthetic/\($0).jsonl").path }
        try configuration(mouse: true).write(to: config, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["run", "--config", config.path, "--replay"] + traces)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOf: marker, encoding: .utf8) == "circle mouse none\n")
        let mouseLines = run.stderr.split(separator: "\n").filter { $0.hasPrefix("gestures: mouse ") }
        #expect(mouseLines.count == 3, "\(run.stderr)")
        #expect(
            mouseLines.first?.hasPrefix(
                "gestures: mouse click, 2.414 counts: moved 2.414 of the 20 counts a stroke needs: passed to the desktop at the release [Logitech USB Optical Mouse, "
            ) == true, "\(mouseLines)")
        #expect(mouseLines.dropFirst().first?.hasPrefix("gestures: mouse press: held still for 300 ms") == true, "\(mouseLines)")
        #expect(
            mouseLines.last?.contains("rejected, 994.271 counts: below the threshold: pigtail scores 0.3209 of 0.75") == true,
            "\(mouseLines)")
        try FileManager.default.removeItem(at: marker)
        try configuration(mouse: false).write(to: config, atomically: true, encoding: .utf8)
        let without = try ToolRunner.run(["run", "--config", config.path, "--replay"] + traces)
        #expect(without.status == 0 && !FileManager.default.fileExists(atPath: marker.path), "\(without.stderr)")
        #expect(!without.stderr.contains("gestures: mouse "), "\(without.stderr)")
    }

    @Test("--replay takes several recordings after it, as replay does")
    func replayTakesSeveralFiles() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("marker")
        let config = directory.appendingPathComponent("config.json")
        try Self.configuration(marker: marker.path).write(to: config, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["run", "--config", config.path, "--replay"] + Self.traces)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOf: marker, encoding: .utf8).split(separator: "\n").map(String.init) == Self.expected)
        let stray = try ToolRunner.run(["run", "--config", config.path, Self.traces[0]])
        #expect(stray.status == 64)
        #expect(stray.stderr.contains("recordings to replay go after --replay"))
    }

    @Test("a file that is not a recording is reported, the others replayed, and the status is 1")
    func badRecordingIsReportedAndSkipped() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("marker")
        let config = directory.appendingPathComponent("config.json")
        try Self.configuration(marker: marker.path).write(to: config, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["run", "--config", config.path, "--replay", "Recordings/strokes/check.json", Self.traces[0]])
        #expect(run.status == 1)
        // Checked as every replayed path is (arguments and standard input alike), and logged.
        #expect(
            run.stderr.contains(
                "gestures: Recordings/strokes/check.json is a JSON stroke file, not a recording: use 'gestures recognize', or 'gestures train' to add it to a library."
            ))
        #expect(try String(contentsOf: marker, encoding: .utf8) == "out 2.75\n")
        #expect(run.stderr.contains("done: 1 command run, 0 failed, 0 dropped"), "\(run.stderr)")
    }

    @Test("run --replay exits 1 when a command it ran failed")
    func failedCommandFailsTheRun() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.json")
        try #"{"version": 1, "bindings": [{"gesture": "tap", "action": {"command": ["sh", "-c", "exit 3"]}}]}"#
            .write(to: config, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["run", "--config", config.path, "--replay", "Recordings/synthetic/rmi4.2-finger-tap.jsonl"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("done: 1 command run, 1 failed, 0 dropped"), "\(run.stderr)")
    }

    @Test("a pinch binding without a direction gets the direction the engine saw")
    func undirectedPinchDirection() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("marker")
        let config = directory.appendingPathComponent("config.json")
        try
            #"{"version": 1, "actions": {"maximumConcurrent": 1}, "bindings": [{"gesture": "pinch", "action": {"command": ["sh", "-c", "echo $GESTURE_DIRECTION >> \#(marker.path)"]}}]}"#
            .write(to: config, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run([
            "run", "--config", config.path, "--replay", Self.traces[0], Self.traces[1],
            "Recordings/synthetic/magic.3-finger-pinch-in.jsonl",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOf: marker, encoding: .utf8) == "out\nclockwise\nin\n")
    }

    @Test("the same configuration in YAML fires the same actions")
    func yamlConfiguration() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("marker")
        let config = directory.appendingPathComponent("config.yaml")
        try """
        version: 1
        bindings:
          - gesture: swipe
            fingers: 3
            direction: left
            action:
              command: [sh, -c, 'echo "left $GESTURE_FINGERS" >> \(marker.path)']
        """.write(to: config, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["run", "--config", config.path] + Self.traces.flatMap { ["--replay", $0] })
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOf: marker, encoding: .utf8) == "left 3\n")
    }

    @Test("SIGHUP and file changes reload; a broken file keeps the old bindings")
    func reloadEndToEnd() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let marker = directory.appendingPathComponent("marker")
        let config = directory.appendingPathComponent("config.json")
        let write = { (labels: [String: String]) in
            try Self.configuration(marker: marker.path, labels: labels).write(to: config, atomically: true, encoding: .utf8)
        }
        try write([:])
        let left = Self.traces[3]
        let daemon = try DaemonProcess(["run", "--config", config.path, "--replay", "-"], in: directory)
        defer { if daemon.process.isRunning { daemon.process.terminate() } }
        #expect(daemon.waitForLine(containing: "running with") != nil)

        daemon.send(left)
        #expect(waitForLines(marker, count: 8).last == "left -36.6")

        try write(["left": "LEFT"])
        var mark = daemon.log.count
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(daemon.waitForLine(containing: "reloaded \(config.path) (SIGHUP): 7 bindings", after: mark) != nil, "\(daemon.log)")
        daemon.send(left)
        #expect(waitForLines(marker, count: 16).last == "LEFT -36.6")

        try "{\"version\": 1, \"bindings\": [{\"gesture\": \"swipe\"}]}".write(to: config, atomically: true, encoding: .utf8)
        mark = daemon.log.count
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(
            daemon.waitForLine(
                containing: "kept the old configuration (SIGHUP): \(config.path) has 1 error: bindings[0].action: is required", after: mark)
                != nil, "\(daemon.log)")
        daemon.send(left)
        #expect(waitForLines(marker, count: 24).last == "LEFT -36.6")

        // No signal: the poll sees the new file.
        mark = daemon.log.count
        try write(["left": "polled"])
        #expect(daemon.waitForLine(containing: "reloaded \(config.path) (the file changed)", after: mark) != nil, "\(daemon.log)")
        daemon.send(left)
        #expect(waitForLines(marker, count: 32).last == "polled -36.6")

        daemon.closeInput()
        daemon.process.waitUntilExit()
        #expect(daemon.process.terminationStatus == 0)
        #expect(daemon.waitForLine(containing: "done: 32 commands run, 0 failed, 0 dropped") != nil, "\(daemon.log)")
    }

    @Test("check-config prints a summary of a valid file")
    func checkConfigSummary() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.json")
        try Self.configuration(marker: "/dev/null").write(to: config, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["check-config", config.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("valid, version 1: 7 bindings, every touch device, 0 sequences"))
        #expect(run.stdout.contains("bindings[1]: swipe left, every 5 mm: sh -c"))
        #expect(run.stdout.contains("bindings[2]: 4-finger swipe up, on begin:"))
    }

    @Test("check-config prints every error with its path and exits 1")
    func checkConfigErrors() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.yaml")
        try """
        version: 1
        bindings:
          - {gesture: swipe, fingers: 7, action: {command: [x]}}
          - {gesture: swipe, action: {command: [x], phase: continuous, every: -1}}
        """.write(to: config, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["check-config", config.path])
        #expect(run.status == 1)
        #expect(
            run.stderr == """
                \(config.path): bindings[0].fingers: must be an integer between 1 and 5
                \(config.path): bindings[1].action.every: must be a number between 0.5 and 1000 (mm)

                """)
    }

    @Test("the default path is $XDG_CONFIG_HOME/gestures/config.json or .yaml")
    func defaultPath() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = ToolRunner.executable
        process.arguments = ["check-config"]
        process.environment = ["XDG_CONFIG_HOME": directory.path, "HOME": directory.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        // The hint is check-config's own way to name a file: it has no --config.
        #expect(
            text
                == "gestures check-config: no configuration file: write \(directory.path)/gestures/config.yaml (see 'man gestures' or the README, \"A first configuration\"), or give its path: 'gestures check-config PATH'.\n"
        )
    }

    @Test("without --replay, run reads live devices: a missing node is one sentence and status 1")
    func liveInputMissingNodeIsOneSentence() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.json")
        try #"{"version": 1}"#.write(to: config, atomically: true, encoding: .utf8)
        let node = directory.appendingPathComponent("event99").path
        let run = try ToolRunner.run(["run", "--config", config.path, "--device", node])
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").last == "gestures run: There is no device node \(node).")
        let both = try ToolRunner.run(["run", "--config", config.path, "--device", node, "--replay", "x.jsonl"])
        #expect(both.status == 64)
    }

    @Test("watch on a file that is not an input device says so in one sentence")
    func watchOnANonDeviceIsOneSentence() throws {
        let directory = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("event3")
        try "not a device".write(to: file, atomically: true, encoding: .utf8)
        let run = try ToolRunner.run(["watch", "--device", file.path])
        #expect(run.status == 1)
        #expect(run.stderr == "gestures watch: \(file.path) is not an evdev input device.\n")
    }
}
