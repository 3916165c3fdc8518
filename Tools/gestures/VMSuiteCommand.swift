import EvdevInput
import Foundation
import GestureRecognition
import GestureTraces
import TouchInput

/// `gestures vm-suite` (hidden): the real-kernel checks `Tools/vm-test` runs
/// inside a VM, as root, with evdev and uinput loaded. Each check prints
/// `VMTEST PASS name` or `VMTEST FAIL name: why`; the last line is `VMTEST DONE`.
enum VMSuiteCommand: Subcommand {
    static let name = "vm-suite"
    static let abstract = "Run the real-kernel uinput/evdev checks (inside Tools/vm-test's VM; needs root)."
    static let usage = "[--only NAME]"
    static let options: [OptionSpec] = [
        .option("--only", "TEXT", "Run only the checks whose name contains TEXT."),
        .flag("--list-traces", "Print the names of the synthetic traces the live checks need, and exit."),
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        if arguments.flag("--list-traces") {
            print(VMSuite.liveTraceFiles.joined(separator: "\n"))
            return 0
        }
        say("VMTEST BEGIN")
        let suite = VMSuite(filter: arguments.value("--only"))
        for (name, info, kind) in VMDevices.touchDevices {
            suite.check("describe-\(name)") { try suite.describe(info, kind: kind) }
            suite.check("roundtrip-\(name)") { try suite.roundTrip(info) }
            suite.check("syn-dropped-\(name)") { try suite.synDropped(info) }
        }
        suite.check("roundtrip-mouse") { try suite.mouseRoundTrip() }
        suite.check("describe-mouse") { try suite.describe(VMDevices.mouse, kind: .mouse) }
        suite.check("device-gone") { try suite.deviceGone() }
        suite.check("hotplug") { try suite.hotplug() }
        suite.check("grab") { try suite.grab() }
        suite.check("mouse-strokes") { try suite.mouseStrokes() }
        suite.check("train-device") { try suite.trainOnDevice() }
        for (name, info, _) in VMDevices.touchDevices {
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
        suite.check("watch-syn-dropped") { try suite.watchSynDropped() }
        suite.check("watch-device-gone") { try suite.watchDeviceGone() }
        suite.check("watch-latency-idle") { try suite.watchLatencyAndIdle() }
        suite.check("daemon-live") { try suite.daemon() }
        suite.check("daemon-mouse") { try suite.daemonMouse() }
        suite.check("evemu-play") { try suite.evemuPlay() }
        suite.check("permission-denied") { try suite.permissionDenied() }
        say("VMTEST DONE \(suite.passed) passed, \(suite.failed) failed")
        return suite.failed == 0 ? 0 : 1
    }
}

/// Writes a line to standard output at once (unbuffered), so the console log
/// keeps every marker even if the VM stops right after.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// A failed expectation inside a check.
struct CheckFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

final class VMSuite {
    let filter: String?
    var passed = 0
    var failed = 0

    init(filter: String?) { self.filter = filter }

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

    func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw CheckFailure(message()) }
    }

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

    func describe(_ info: DeviceDescription, kind: DeviceDescription.Kind) throws {
        let (_, device) = try open(info)
        let read = device.description
        try expect(read.name == info.name, "name '\(read.name)'")
        try expect(read.kind == kind, "kind \(read.kind), expected \(kind)")
        try expect(read.id.bus == info.id.bus && read.id.vendor == info.id.vendor && read.id.product == info.id.product, "ids differ")
        try expect(read.properties == info.properties, "properties \(read.properties.sorted())")
        for type in [EV.KEY, EV.ABS, EV.REL] {
            try expect((read.codes[type] ?? []) == (info.codes[type] ?? []), "codes of type \(type) differ: \((read.codes[type] ?? []).sorted())")
        }
        for (code, axis) in info.absInfo {
            let got = read.absInfo[code]
            try expect(got?.minimum == axis.minimum && got?.maximum == axis.maximum && got?.resolution == axis.resolution,
                       "axis \(code): \(String(describing: got))")
        }
        try expect(read.slotCount == info.slotCount, "slots \(read.slotCount)")
    }

    /// Writes a 3-finger swipe and a 2-finger pinch at 10 ms spacing and checks
    /// that the state read back equals the state written after every frame.
    func roundTrip(_ info: DeviceDescription) throws {
        let (virtual, device) = try open(info)
        let reader = try EvdevReader(devices: [device])
        let writer = VMGestureWriter(info: info)
        let frames = writer.swipe(count: 3, steps: 20, firstID: 100) + writer.pinch(steps: 20, firstID: 200)
        var written = device.state, read = device.state
        var mismatches = 0, readFrames = 0, firstMismatch = ""
        for (index, frame) in frames.enumerated() {
            try virtual.writeFrame(frame)
            let before = written
            written.apply(frame)
            usleep(VMSuite.frameSpacing)
            let outputs = try drain(reader, quiet: .zero)
            for output in outputs {
                guard case .frame(let got) = output else { throw CheckFailure("frame \(index): unexpected \(output)") }
                read.apply(got)
                readFrames += 1
            }
            // The kernel drops a frame that changes nothing; otherwise exactly one frame arrives.
            let expectedFrames = before == written ? 0...1 : 1...1
            if read != written || !expectedFrames.contains(outputs.count) {
                mismatches += 1
                if firstMismatch.isEmpty { firstMismatch = "frame \(index) (\(outputs.count) read): wrote \(written), read \(read)" }
            }
        }
        try expect(mismatches == 0, "\(mismatches) of \(frames.count) frames differ; first: \(firstMismatch)")
        try expect(read.activeSlots.isEmpty, "contacts left: \(read.activeSlots)")
        say("VMTEST INFO roundtrip \(info.name): \(frames.count) frames written, \(readFrames) read, state equal after each")
    }

    /// Stalls the reader mid-swipe (no reads for the stall's frames, ~300 ms or more) so
    /// the kernel drops events; the reader must deliver one resync frame after which
    /// its state equals the written state, and later frames must again match.
    func synDropped(_ info: DeviceDescription) throws {
        let (virtual, device) = try open(info)
        let reader = try EvdevReader(devices: [device])
        let writer = VMGestureWriter(info: info)
        // The kernel sizes each client's buffer at 8 frames of every axis and slot, rounded
        // up to a power of two (2048 events for 16 slots): 400 unread frames of 3 moving
        // fingers overflow it on every device here. Written 1 ms apart, the stall lasts >= 400 ms.
        let stallFrames = 400
        var resyncEvents = 0
        let frames = writer.swipe(count: 3, steps: stallFrames + 20, firstID: 300) + writer.pinch(steps: 10, firstID: 400)
        var written = device.state, read = device.state
        var resyncs = 0
        for (index, frame) in frames.enumerated() {
            try virtual.writeFrame(frame)
            written.apply(frame)
            let stalled = index >= 5 && index < 5 + stallFrames
            usleep(stalled ? 1_000 : VMSuite.frameSpacing)
            if stalled { continue }
            for output in try drain(reader, quiet: .zero) {
                switch output {
                case .frame(let got): read.apply(got)
                case .resynced(let got):
                    resyncs += 1
                    resyncEvents += got.count - 1
                    read.apply(got)
                    try expect(read == written, "after resync at frame \(index): wrote \(written), read \(read)")
                case .removed(let error): throw CheckFailure("device removed: \(error)")
                case .added: throw CheckFailure("a device was added without a watch")
                }
            }
            if index >= 5 + stallFrames { try expect(read == written, "frame \(index) after the resync differs: wrote \(written), read \(read)") }
        }
        try expect(resyncs == 1, "\(resyncs) resyncs, expected 1 (no SYN_DROPPED after a \(stallFrames)-frame stall?)")
        try expect(read == written && read.activeSlots.isEmpty, "final state differs: \(read)")
        say("VMTEST INFO syn-dropped \(info.name): resynced once with \(resyncEvents) events after a \(stallFrames)-frame stall")
    }

    /// Relative motion with the right button held: every frame arrives unchanged.
    func mouseRoundTrip() throws {
        let (virtual, device) = try open(VMDevices.mouse)
        let reader = try EvdevReader(devices: [device])
        var frames: [[InputEvent]] = [[InputEvent(type: EV.KEY, code: BTN.RIGHT, value: 1, microseconds: 0)]]
        for step in 0..<30 {
            let angle = Double(step) / 30 * 2 * Double.pi
            frames.append([InputEvent(type: EV.REL, code: REL.X, value: Int32(12 * cos(angle)) | 1, microseconds: 0),
                           InputEvent(type: EV.REL, code: REL.Y, value: Int32(12 * sin(angle)) | 1, microseconds: 0)])
        }
        frames.append([InputEvent(type: EV.KEY, code: BTN.RIGHT, value: 0, microseconds: 0)])
        var got: [[InputEvent]] = []
        for frame in frames {
            try virtual.writeFrame(frame)
            usleep(VMSuite.frameSpacing)
            for output in try drain(reader, quiet: .zero) {
                guard case .frame(let f) = output else { throw CheckFailure("unexpected \(output)") }
                got.append(f.filter { $0.type != EV.MSC && !$0.isSynReport })
            }
        }
        try expect(got.map { $0.map { [Int($0.type), Int($0.code), Int($0.value)] } } == frames.map { $0.map { [Int($0.type), Int($0.code), Int($0.value)] } }, "read \(got.count) frames, wrote \(frames.count); first differing: \(zip(got, frames).first { $0 != $1 }.map { "\($0)" } ?? "-")")
    }

    /// A device destroyed mid-gesture is reported once as gone; the reader keeps reading the others.
    func deviceGone() throws {
        let (pad, padDevice) = try open(VMDevices.synaptics)
        let (screen, screenDevice) = try open(VMDevices.touchscreen)
        let reader = try EvdevReader(devices: [padDevice, screenDevice])
        let frames = VMGestureWriter(info: VMDevices.synaptics).swipe(count: 3, steps: 10, firstID: 500)
        for frame in frames.prefix(5) { try pad.writeFrame(frame); usleep(VMSuite.frameSpacing) }
        _ = try drain(reader, quiet: .zero)
        for frame in frames.dropFirst(5).prefix(3) { try pad.writeFrame(frame) }
        pad.destroy()
        let outputs = try drain(reader)
        let gone = outputs.filter { if case .removed(.deviceGone) = $0 { true } else { false } }
        try expect(gone.count == 1, "outputs after destroy: \(outputs)")
        try expect(reader.devices.count == 1 && reader.devices[0] === screenDevice, "the gone device is still read")
        let touch = VMGestureWriter(info: VMDevices.touchscreen).swipe(count: 1, steps: 3, firstID: 600)
        for frame in touch { try screen.writeFrame(frame); usleep(VMSuite.frameSpacing) }
        let later = try drain(reader)
        try expect(later.count == touch.count, "the remaining device gave \(later.count) frames, expected \(touch.count)")
    }

    /// A reader watching /dev/input picks up a device created after it started,
    /// reads it, reports it gone when destroyed, and picks up the next one.
    func hotplug() throws {
        let reader = try EvdevReader()
        try reader.watchForNewDevices(in: "/dev/input")
        for round in 1...2 {
            let virtual = try VirtualDevice(VMDevices.touchscreen)
            var added: EvdevDevice?
            for _ in 0..<20 where added == nil {
                for (device, output) in try reader.wait(timeout: .milliseconds(100)).outputs {
                    if case .added = output, device.path == virtual.devnode { added = device }
                }
            }
            try expect(added != nil, "round \(round): \(virtual.devnode ?? "?") was not picked up")
            let frames = VMGestureWriter(info: VMDevices.touchscreen).swipe(count: 2, steps: 5, firstID: 800)
            for frame in frames { try virtual.writeFrame(frame); usleep(VMSuite.frameSpacing) }
            let outputs = try drain(reader)
            try expect(outputs.count == frames.count, "round \(round): \(outputs.count) frames read, \(frames.count) written")
            virtual.destroy()
            let gone = try drain(reader)
            try expect(gone == [.removed(.deviceGone(path: added!.path))] && reader.devices.isEmpty, "round \(round): after destroy \(gone)")
        }
    }

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
        let (status, _, err) = try runSelf(["replay", "--uinput", path, "--wait", "300", "--linger", "300"]) { _ in
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
                    case .frame(let frame):
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
        try expect(read == expected, "read \(read.count) distinct states, expected \(expected.count); first differing at \(firstDifference.map(String.init) ?? "the end")")
    }

    /// A one-device trace of `frames` written 10 ms apart from `start` (µs), each ending in SYN_REPORT.
    static func trace(of frames: [[InputEvent]], on info: DeviceDescription, start: Int64) -> Trace {
        Trace(devices: [info], frames: frames.enumerated().map { index, events in
            let time = start + Int64(index) * 10_000
            let stamped = (events + [InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: 0)]).map {
                InputEvent(type: $0.type, code: $0.code, value: $0.value, microseconds: time)
            }
            return Trace.Frame(device: 0, events: stamped)
        })
    }

    /// `gestures strokes` on live mice: a circle drawn with the right button held is
    /// recognised; a stroke cut short by unplugging prints `cancelled` and the program
    /// keeps running; a mouse plugged in afterwards is picked up and its triangle recognised.
    func mouseStrokes() throws {
        var mouse: VirtualDevice? = try VirtualDevice(VMDevices.mouse)
        let firstNode = mouse!.devnode!
        // The second circle is never released: the mouse is unplugged mid-stroke.
        func drawUnreleased(_ name: String, on device: VirtualDevice) throws {
            let template = TemplateLibrary.dollarShapes.samples(named: name)[0]
            try device.writeFrame([InputEvent(type: EV.KEY, code: BTN.RIGHT, value: 1, microseconds: 0)])
            for (last, point) in zip(template, template.dropFirst()) {
                try device.writeFrame([InputEvent(type: EV.REL, code: REL.X, value: Int32((point.x - last.x).rounded()), microseconds: 0),
                                       InputEvent(type: EV.REL, code: REL.Y, value: Int32((point.y - last.y).rounded()), microseconds: 0)])
                usleep(2_000) // a mouse's client buffer holds only 64 events
            }
        }
        let (status, out, err) = try runSelf(["strokes", "--count", "2"]) { pid, stderr in
            try self.expect(stderr.waitFor("reading \(firstNode) ("), "strokes never said it reads \(firstNode)")
            try self.draw("circle", on: mouse!)
            try drawUnreleased("circle", on: mouse!)
            usleep(100_000)
            mouse = nil // destroyed mid-stroke
            try self.expect(VMSuite.waitUntil { !VMSuite.openFiles(pid).contains(firstNode) }, "strokes kept the gone device open")
            // Node numbers are reused: only a new 'reading' line counts.
            let announced = stderr.count("reading /")
            let second = try VirtualDevice(VMDevices.mouse)
            let secondNode = second.devnode!
            try self.expect(VMSuite.waitUntil {
                _ = stderr.contains("")  // reads what has arrived
                return stderr.text.split(separator: "\n").filter { $0.contains("reading /") }
                    .dropFirst(announced).contains { $0.contains("reading \(secondNode) (") }
            }, "the new mouse was not picked up")
            try self.draw("triangle", on: second)
            _ = VMSuite.waitUntil { kill(pid, 0) != 0 }
        }
        let lines = out.split(separator: "\n").map(String.init)
        try expect(status == 0, "status \(status): \(err)")
        try expect(lines.count == 3 && lines[0].hasPrefix("circle (score") && lines[1] == "cancelled (the device is gone)"
                   && lines[2].hasPrefix("triangle (score"), "output: \(lines)")
    }

    /// Draws `name` (a bundled $1 shape) with the right button held on a virtual mouse.
    func draw(_ name: String, on device: VirtualDevice) throws {
        let template = TemplateLibrary.dollarShapes.samples(named: name)[0]
        try device.writeFrame([InputEvent(type: EV.KEY, code: BTN.RIGHT, value: 1, microseconds: 0)])
        var last = template[0]
        for point in template.dropFirst() {
            let dx = (point.x - last.x).rounded(), dy = (point.y - last.y).rounded()
            last = Point(x: last.x + dx, y: last.y + dy)
            try device.writeFrame([InputEvent(type: EV.REL, code: REL.X, value: Int32(dx), microseconds: 0),
                                   InputEvent(type: EV.REL, code: REL.Y, value: Int32(dy), microseconds: 0)])
            usleep(2_000)
        }
        try device.writeFrame([InputEvent(type: EV.KEY, code: BTN.RIGHT, value: 0, microseconds: 0)])
        usleep(200_000) // longer than the unplug grace, so the stroke counts
    }

    /// `gestures train --device` records the drawn strokes (not clicks) into a library.
    ///
    /// Each stroke is drawn after the prompt for it appears, and the next
    /// one only after the tool says what became of it: a stroke the kernel
    /// dropped events of (the VM is slow) is cancelled by the tool and drawn
    /// again, up to three times.
    func trainOnDevice() throws {
        let mouse = try VirtualDevice(VMDevices.mouse)
        let node = mouse.devnode!
        let library = "/tmp/trained.json"
        unlink(library)
        let (status, out, err) = try runSelf(["train", "--library", library, "--name", "vee", "--device", node, "--samples", "2"]) { pid, stderr in
            try self.expect(stderr.waitFor("(1 of 2)"), "train never prompted")
            try mouse.writeFrame([InputEvent(type: EV.KEY, code: BTN.RIGHT, value: 1, microseconds: 0)])
            try mouse.writeFrame([InputEvent(type: EV.KEY, code: BTN.RIGHT, value: 0, microseconds: 0)]) // a click
            for sample in 1...2 {
                var added = false
                for _ in 0..<3 where !added {
                    try self.expect(stderr.waitFor("(\(sample) of 2)"), "no prompt for sample \(sample)")
                    let cancelledBefore = stderr.count("cancelled")
                    try self.draw("v", on: mouse)
                    try self.expect(VMSuite.waitUntil {
                        stderr.contains("sample \(sample) of 2 added") || stderr.count("cancelled") > cancelledBefore
                    }, "sample \(sample) was neither added nor cancelled")
                    added = stderr.contains("sample \(sample) of 2 added")
                }
            }
            _ = VMSuite.waitUntil { kill(pid, 0) != 0 }
        }
        try expect(status == 0, "status \(status): \(err)")
        try expect(out.contains("added 2 samples of 'vee'") && err.contains("(1 of 2)") && err.contains("sample 2 of 2 added"), "stdout \(out), stderr \(err)")
        let trained = try TemplateLibrary(jsonData: Data(contentsOf: URL(fileURLWithPath: library)))
        try expect(trained.samples(named: "vee").count == 2, "library: \(trained.names)")
    }

    /// Polls `condition` every 20 ms for up to 10 s.
    static func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            usleep(20_000)
        }
        return false
    }

    /// The paths a process has open, from /proc/PID/fd.
    static func openFiles(_ pid: pid_t) -> [String] {
        let directory = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + $0) }
    }

    /// While one client grabs the device, another reads nothing; after release both read.
    func grab() throws {
        let (virtual, grabber) = try open(VMDevices.mouse)
        let other = try EvdevDevice(path: virtual.devnode!)
        let grabbing = try EvdevReader(devices: [grabber]), watching = try EvdevReader(devices: [other])
        let motion = [InputEvent(type: EV.REL, code: REL.X, value: 5, microseconds: 0)]
        try grabber.setGrabbed(true)
        for _ in 0..<3 { try virtual.writeFrame(motion); usleep(VMSuite.frameSpacing) }
        let (grabbed, missed) = (try drain(grabbing).count, try drain(watching).count)
        try expect(grabbed == 3 && missed == 0, "while grabbed: grabber read \(grabbed), other read \(missed)")
        try grabber.setGrabbed(false)
        try virtual.writeFrame(motion)
        let (after, afterOther) = (try drain(grabbing).count, try drain(watching).count)
        try expect(after == 1 && afterOther == 1, "after release: \(after) and \(afterOther) frames")
    }

    /// Time from a frame's write to a reader thread (blocked in poll) returning it;
    /// reported, not asserted: every frame must arrive.
    func readerLatency() throws {
        let (virtual, device) = try open(VMDevices.synaptics)
        final class Box: @unchecked Sendable {
            let reader: EvdevReader
            var received: [Int64] = []
            init(_ reader: EvdevReader) { self.reader = reader }
        }
        let box = Box(try EvdevReader(devices: [device]))
        let done = DispatchSemaphore(value: 0)
        let count = 100
        let thread = Thread {
            while box.received.count < count {
                guard let batch = try? box.reader.wait(timeout: .seconds(2)), !batch.outputs.isEmpty else { break }
                let now = VMSuite.nowMicroseconds()
                box.received += batch.outputs.map { _ in now }
            }
            done.signal()
        }
        thread.start()
        usleep(50_000)
        var sent: [Int64] = []
        let frames = VMGestureWriter(info: VMDevices.synaptics).swipe(count: 2, steps: count - 2, firstID: 900)
        for frame in frames {
            sent.append(VMSuite.nowMicroseconds())
            try virtual.writeFrame(frame)
            usleep(VMSuite.frameSpacing)
        }
        done.wait()
        try expect(box.received.count == frames.count, "\(box.received.count) of \(frames.count) frames arrived")
        let latencies = zip(sent, box.received).map { $1 - $0 }.sorted()
        say("VMTEST INFO reader latency (write -> reader thread, µs, TCG VM): median \(latencies[latencies.count / 2]), p95 \(latencies[latencies.count * 95 / 100]), max \(latencies.last!)")
    }

    static func nowMicroseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }

    /// `gestures record` waiting on an idle device uses no CPU; its resident memory is reported.
    func recordIdle() throws {
        let (virtual, _) = try open(VMDevices.synaptics)
        let path = "/tmp/record-idle.jsonl"
        unlink(path)
        var report = ""
        var idleTicks: Int?
        let (status, _, err) = try runSelf(["record", "--device", virtual.devnode!, "-o", path]) { pid in
            for _ in 0..<300 where ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").isEmpty { usleep(10_000) }
            usleep(200_000)
            let before = try VMSuite.cpuTicks(pid)
            sleep(2)
            let after = try VMSuite.cpuTicks(pid)
            idleTicks = after - before
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }.map { $0.dropFirst(6).trimmingCharacters(in: .whitespaces) } ?? "?"
            report = "record idle for 2 s: \(after - before) CPU ticks (1 tick = 10 ms), resident memory \(rss)"
            kill(pid, SIGTERM)
        }
        try expect(status == 0, "status \(status): \(err)")
        say("VMTEST INFO \(report)")
        try expect((idleTicks ?? 99) <= 1, report)
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

    /// Path of this executable, for running subcommands in child processes.
    static let executable: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return length > 0 ? String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    }()

    /// Runs this executable with `arguments` (posix_spawn, empty environment); calls
    /// `whileRunning` with its pid, then returns its exit status, stdout and stderr.
    /// (Foundation's Process needs a CFSocket wake-up pair, which failed in the VM.)
    func runSelf(_ arguments: [String], whileRunning: ((pid_t) throws -> Void)? = nil) throws -> (Int32, String, String) {
        try runSelf(arguments, whileRunning: whileRunning.map { callback in { pid, _ in try callback(pid) } })
    }

    /// Runs this executable with `arguments`; `whileRunning` gets its pid and
    /// its standard error as it is written.
    func runSelf(_ arguments: [String], whileRunning: ((pid_t, ChildOutput) throws -> Void)?) throws -> (Int32, String, String) {
        let (pid, outFD, errFD) = try VMSuite.spawnSelf(arguments)
        var callbackError: (any Error)?
        let childStderr = ChildOutput(fd: errFD)
        do { try whileRunning?(pid, childStderr) } catch { callbackError = error; kill(pid, SIGKILL) }
        // A child that never exits must not hang the suite: after 60 s it is killed
        // and the check fails with its output.
        var status: Int32 = 0
        var exited = false
        for _ in 0..<6000 where !exited {
            exited = waitpid(pid, &status, WNOHANG) == pid
            if !exited { usleep(10_000) }
        }
        if !exited {
            kill(pid, SIGKILL)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            if callbackError == nil { callbackError = CheckFailure("the child did not exit within 60 s") }
        }
        let out = readAll(outFD), err = childStderr.text + readAll(errFD)
        if let callbackError { throw CheckFailure("\(callbackError) [child stdout: \(out.debugDescription), stderr: \(err.debugDescription)]") }
        let exitStatus = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, out, err)
    }

    private func readAll(_ fd: Int32) -> String {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            data += buffer[..<count]
        }
        close(fd)
        return String(decoding: data, as: UTF8.self)
    }

    func devicesJSON() throws {
        let (pad, _) = try open(VMDevices.synaptics)
        let (mouse, _) = try open(VMDevices.mouse)
        let (status, out, err) = try runSelf(["devices", "--format", "json"])
        try expect(status == 0, "status \(status): \(err)")
        struct Entry: Decodable { var node: String; var kind: String; var widthMillimeters: Double?; var slots: Int? }
        let entries = try JSONDecoder().decode([Entry].self, from: Data(out.utf8))
        let padEntry = entries.first { $0.node == pad.devnode }
        try expect(padEntry?.kind == "touchpad" && padEntry?.slots == 2 && padEntry?.widthMillimeters == 98, "pad: \(String(describing: padEntry))")
        try expect(entries.first { $0.node == mouse.devnode }?.kind == "mouse", "mouse not listed as a mouse")
        let (_, text, _) = try runSelf(["devices"])
        say("VMTEST INFO devices:\n" + text.split(separator: "\n").map { "VMTEST INFO   " + $0 }.joined(separator: "\n"))
    }

    /// `gestures record` in a child process, stopped by `signal`: a complete, valid
    /// trace in `format` with every frame, read back by `Trace.load`.
    func record(signal number: Int32, format: TraceFormat = .json) throws {
        let (virtual, _) = try open(VMDevices.rmi4)
        let node = virtual.devnode!
        let path = "/tmp/record-\(number).\(format.pathExtension)"
        unlink(path)
        let frames = VMGestureWriter(info: VMDevices.rmi4).swipe(count: 3, steps: 15, firstID: 700)
        var written = EvdevState()
        let (status, _, err) = try runSelf(["record", "--device", node, "-o", path, "--format", format.rawValue]) { process, stderr in
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
        try expect(trace.devices.count == 1 && trace.devices[0].name == VMDevices.rmi4.name && trace.devices[0].kind == .touchpad,
                   "devices \(trace.devices.map(\.name))")
        var read = EvdevState()
        for frame in trace.frames { read.apply(frame.events) }
        try expect(trace.frames.count == frames.count, "\(trace.frames.count) frames recorded, \(frames.count) written")
        try expect(read == written, "recorded state differs")
    }

    /// An unprivileged user gets the one-sentence permission error and status 1.
    func permissionDenied() throws {
        let (pad, _) = try open(VMDevices.synaptics)
        for node in InputDevices.eventNodes(in: "/dev/input") { chmod(node, 0o600); chown(node, 0, 0) }
        let (status, out, err) = try runSelf(["as-user", "65534", "--", "devices"])
        try expect(status == 1, "status \(status), stdout \(out)")
        let lines = err.split(separator: "\n")
        try expect(lines.count == 1 && err.contains("Permission denied") && err.contains("`input` group")
                   && err.contains("Tools/70-gestures.rules"), "stderr: \(err)")
        let (recordStatus, _, recordErr) = try runSelf(["as-user", "65534", "--", "record", "--device", pad.devnode!])
        try expect(recordStatus == 1 && recordErr.contains("Permission denied"), "record: status \(recordStatus), \(recordErr)")
        say("VMTEST INFO unprivileged: \(err.trimmingCharacters(in: .whitespacesAndNewlines))")
    }
}

extension VMSuite {
    /// Starts this executable with `arguments`, its stdout and stderr on
    /// pipes; returns the pid and the reading ends. (posix_spawn: Foundation's
    /// Process hangs in the VM.)
    static func spawnSelf(_ arguments: [String]) throws -> (pid: pid_t, stdout: Int32, stderr: Int32) {
        try spawn(executable, ["gestures"] + arguments)
    }

    /// Starts `path` with `argv` (argv[0] included), its stdout and stderr on
    /// pipes and its stdin from the file `stdin` if given; returns the pid
    /// and the reading ends.
    static func spawn(_ path: String, _ arguments: [String], stdin: String? = nil) throws -> (pid: pid_t, stdout: Int32, stderr: Int32) {
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw CheckFailure("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin { posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0) }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, outPipe[0])
        posix_spawn_file_actions_addclose(&actions, errPipe[0])
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let environment: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/bin:/usr/bin"), nil]
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, nil, argv, environment)
        close(outPipe[1])
        close(errPipe[1])
        guard rc == 0 else { close(outPipe[0]); close(errPipe[0]); throw CheckFailure("posix_spawn \(path) failed: \(rc)") }
        return (pid, outPipe[0], errPipe[0])
    }
}

/// A child's output read as it is written, so a check can wait for a line.
final class ChildOutput {
    let fd: Int32
    private(set) var text = ""

    init(fd: Int32) { self.fd = fd }

    /// Reads what is available within `milliseconds`.
    func poll(milliseconds: Int32 = 20) {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&entry, 1, milliseconds) > 0, entry.revents & Int16(POLLIN) != 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(fd, &buffer, buffer.count)
        if count > 0 { text += String(decoding: buffer[..<count], as: UTF8.self) }
    }

    func contains(_ needle: String) -> Bool { poll(milliseconds: 0); return text.contains(needle) }

    func count(_ needle: String) -> Int { poll(milliseconds: 0); return text.components(separatedBy: needle).count - 1 }

    /// Waits up to 10 s for `needle` to appear.
    func waitFor(_ needle: String) -> Bool {
        for _ in 0..<500 {
            if text.contains(needle) { return true }
            poll()
        }
        return text.contains(needle)
    }
}
