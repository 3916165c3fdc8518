import EvdevInput
import Foundation
import GestureTraces

/// Checks of the daemon, `gestures run`, on live virtual devices.
extension VMSuite {
    /// `gestures run` on live devices: bound commands fire in order, a continuous
    /// binding fires in proportion to the distance, and a broken reload keeps the old bindings.
    func daemon() throws {
        let directory = "/tmp/daemon"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let actions = directory + "/actions", config = directory + "/config.json"
        func append(_ word: String) -> String { #"{"command": ["sh", "-c", "echo \#(word) >> \#(actions)"]}"# }
        let configuration = """
            {"version": 1, "actions": {"maximumConcurrent": 1},
             "bindings": [
               {"gesture": "swipe", "fingers": 3, "direction": "left", "action": \(append("left"))},
               {"gesture": "pinch", "direction": "out", "action": \(append("pinch-out"))},
               {"gesture": "swipe", "fingers": 4, "direction": "up",
                "action": {"phase": "continuous", "every": 5, "command": ["sh", "-c", "echo up >> \(actions)"]}}
             ]}
            """
        try configuration.write(toFile: config, atomically: true, encoding: .utf8)
        let run = try VMChild(["run", "--config", config])
        defer { _ = run.stop(SIGKILL) }
        try run.waitUntil("the daemon starting") { $0.stderr.contains("waiting for one") }
        func fired() -> [String] {
            ((try? String(contentsOfFile: actions, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        func play(_ name: String, expecting count: Int) throws {
            let device = try self.play(try Trace.load(contentsOf: URL(fileURLWithPath: VMSuite.tracePath(name))), into: run)
            for _ in 0..<2000 where fired().count < count { usleep(10_000) }
            try expect(fired().count == count, "after \(name): fired \(fired())")
            device.destroy()
        }
        // The continuous binding: one step per 5 mm of the swipe's upward travel.
        let (_, upOut, _) = try runGestures(["replay", "--ends", VMSuite.tracePath("x1carbon.4-finger-swipe-up")])
        let upTravel = -(try VMSuite.parse(String(upOut.split(separator: "\n")[0])).dy_mm ?? 0)
        let steps = Int(upTravel / 5)
        try play("x1carbon.3-finger-swipe-left", expecting: 1)
        try play("x1carbon.4-finger-pinch-out", expecting: 2)
        try play("x1carbon.4-finger-swipe-up", expecting: 2 + steps)
        try "{\"version\": 1, \"bindings\": [{\"gesture\": \"swipe\"".write(toFile: config, atomically: true, encoding: .utf8)
        kill(run.pid, SIGHUP)
        try run.waitUntil("the broken reload kept") { $0.stderr.contains("kept the old configuration") }
        try play("x1carbon.3-finger-swipe-left", expecting: 3 + steps)
        let status = run.stop(SIGTERM)
        let expected = ["left", "pinch-out"] + Array(repeating: "up", count: steps) + ["left"]
        try expect(status == 0, "daemon status \(status): \(run.stderr)")
        try expect(fired() == expected, "fired \(fired()), expected \(expected)")
        say(
            "VMTEST INFO daemon: \(fired().count) actions in order; continuous: \(steps) steps for \(String(format: "%.1f", upTravel)) mm at 5 mm; broken reload kept the bindings"
        )
    }

    /// `gestures run` started after a 2-finger pinch was played into the RMI4 pad,
    /// with nobody reading, fires the pinch's binding when the same pinch is played
    /// again (issue 16, class 8: the decoder starts from the device's state; without
    /// that, the kernel's dropped repeats make this pinch a hold).
    func daemonStartedAfterUse() throws {
        let directory = "/tmp/daemon-late"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let actions = directory + "/actions", config = directory + "/config.json"
        try
            #"{"version": 1, "bindings": [{"gesture": "pinch", "direction": "out", "action": {"command": ["sh", "-c", "echo out >> \#(actions)"]}}]}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        let trace = try Trace.load(contentsOf: URL(fileURLWithPath: VMSuite.tracePath("rmi4.2-finger-pinch-out")))
        let device = try VirtualDevice(trace.devices[0])
        defer { device.destroy() }
        let node = device.devnode!
        try write(trace, to: device)
        let run = try VMChild(["run", "--config", config, "--device", node])
        defer { _ = run.stop(SIGKILL) }
        try run.waitUntil("reading \(node)") { $0.isReading(node, after: 0) }
        func fired() -> [String] {
            ((try? String(contentsOfFile: actions, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        try write(trace, to: device)
        for _ in 0..<500 where fired().isEmpty { usleep(10_000) }
        try expect(fired() == ["out"], "after the pinch played again: fired \(fired()); log: \(run.stderr)")
        let status = run.stop(SIGTERM)
        try expect(status == 0, "daemon status \(status): \(run.stderr)")
        say("VMTEST INFO daemon-started-after-use: the pinch played before run started, then again: its binding fired once")
    }

    /// `gestures run` with a `mouse` section: a circle drawn with a virtual mouse fires its
    /// binding exactly once; a triangle drawn first, bound to nothing, fires nothing.
    func daemonMouse() throws {
        let directory = "/tmp/daemon-mouse"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let marker = directory + "/marker", config = directory + "/config.json"
        let configuration = """
            {"version": 1, "mouse": {}, "actions": {"maximumConcurrent": 1},
             "bindings": [{"gesture": "stroke", "template": "circle",
                           "action": {"command": ["sh", "-c", "echo circle-$GESTURE_TEMPLATE >> \(marker)"]}}]}
            """
        try configuration.write(toFile: config, atomically: true, encoding: .utf8)
        let run = try VMChild(["run", "--config", config])
        defer { _ = run.stop(SIGKILL) }
        try run.waitUntil("the daemon starting") { $0.stderr.contains("waiting for one") }
        // Node numbers are reused: only a 'reading' line after this many counts.
        let seen = run.readingLines.count
        let mouse = try VirtualDevice(devices.mouse)
        let node = mouse.devnode!
        try run.waitUntil("reading \(node)") { $0.isReading(node, after: seen) }
        func fired() -> [String] {
            ((try? String(contentsOfFile: marker, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        try draw("triangle", on: mouse)
        try draw("circle", on: mouse)
        // Strokes are matched in order on one thread, so once the circle fired the triangle was matched too.
        try run.waitUntil("the circle binding firing") { _ in !fired().isEmpty }
        let status = run.stop(SIGTERM)
        mouse.destroy()
        let firedLines = run.stderr.split(separator: "\n").filter { $0.contains("fired ") }
        try expect(status == 0, "daemon status \(status): \(run.stderr)")
        try expect(fired() == ["circle-circle"], "marker \(fired()); stderr \(run.stderr)")
        try expect(firedLines.count == 1, "fired lines \(firedLines)")
        say("VMTEST INFO daemon-mouse: a mouse circle fired its binding once; a triangle fired nothing")
    }
}
