import Foundation

extension VMSuite {
    /// The trace whose evemu export `Tools/vm-test` puts in the image as
    /// `/recordings/NAME.events` (written on the host by `gestures convert`).
    static let evemuTrace = "x1carbon.4-finger-swipe-up"

    /// Our evemu export replays in the real evemu tools: `evemu-device` makes
    /// the device from the file, `evemu-play` writes its events, and
    /// `gestures watch` gives the gestures `gestures replay` gives for the
    /// original trace.
    func evemuPlay() throws {
        let events = "/recordings/\(VMSuite.evemuTrace).events"
        for tool in ["/usr/bin/evemu-device", "/usr/bin/evemu-play"] {
            try expect(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is not in the image")
        }
        let (status, out, err) = try runGestures(["replay", "--ends", VMSuite.tracePath(VMSuite.evemuTrace)])
        try expect(status == 0, "replay: \(err)")
        let expected = out.split(separator: "\n").map(String.init)
        try expect(!expected.isEmpty, "the replay gave nothing")

        let watch = try VMChild(["watch", "--ends"])
        defer { _ = watch.stop(SIGKILL) }
        try watch.waitUntil("watch starting") { $0.stderr.contains("waiting for one") }
        let seen = watch.readingLines.count
        // evemu-device prints "NAME: /dev/input/eventN" and keeps the device until killed.
        let device = try VMSuite.spawn("/usr/bin/evemu-device", ["evemu-device", events])
        defer { kill(device.pid, SIGTERM); waitpid(device.pid, nil, 0); close(device.stdout); close(device.stderr) }
        let announced = ChildOutput(fd: device.stdout)
        try expect(announced.waitFor("/dev/input/event"), "evemu-device printed no node: \(announced.text)")
        // PatternMatcher is the package's only regex runner; a node is plain text to cut out.
        guard let start = announced.text.range(of: "/dev/input/event") else { throw CheckFailure("no node in \(announced.text)") }
        let node = "/dev/input/event" + announced.text[start.upperBound...].prefix { $0.isNumber }
        try watch.waitUntil("reading \(node)") { $0.isReading(node, after: seen) }
        let play = try VMSuite.spawn("/usr/bin/evemu-play", ["evemu-play", node], stdin: events)
        var playStatus: Int32 = 0
        waitpid(play.pid, &playStatus, 0)
        let playErr = ChildOutput(fd: play.stderr)
        playErr.poll(milliseconds: 0)
        close(play.stdout); close(play.stderr)
        try expect(playStatus == 0, "evemu-play exited with \(playStatus): \(playErr.text)")
        try watch.waitUntil("\(expected.count) gesture lines") { $0.lines.count >= expected.count }
        let got = watch.lines.map(\.line)
        try expect(got.count == expected.count, "watch printed \(got), replay \(expected)")
        for (live, replayed) in zip(got, expected) {
            if let key = try VMSuite.difference(live, replayed, fuzzMillimeters: 0) {
                throw CheckFailure("\(key) differs: watch printed \(live), replay \(replayed)")
            }
        }
        say(
            "VMTEST INFO evemu-play: our evemu export of \(VMSuite.evemuTrace) made by evemu-device and played by evemu-play gave \(got.count) gesture line(s) equal to the replay's"
        )
    }
}
