import EvdevInput
import Foundation
import InputInterception
import TestSupport
import TouchInput

/// What the desktop relies on and must keep through a clone (disable-while-
/// typing, libinput's view of the device, tapping, tap-and-drag,
/// clickfinger), and what the clone costs, each beside the same figure
/// without the daemon or through a plain C forwarder (`vm-forwarder`) in the
/// same VM run: ratios, since the VM is emulated.
extension VMSuite {
    /// An internal keyboard (an i8042 AT keyboard, as a laptop's): libinput
    /// pairs it with an internal touchpad for disable-while-typing.
    static let internalKeyboard = DeviceDescription(
        name: "AT Translated Set 2 keyboard (virtual)", id: .init(bus: 0x11, vendor: 1, product: 1, version: 0xab41),
        properties: [], codes: [EV.KEY: Set((1...88).map { UInt16($0) }), EV.MSC: [4]], absInfo: [:])

    /// A finger moving on the pad while the internal keyboard types (a key
    /// every 50 ms from 60 ms before the finger lands until it lifts):
    /// libinput reports no pointer motion, on the clone as on the device.
    func fidelityDisableWhileTyping() throws {
        func motionWhileTyping(_ run: VMChild?) throws -> (motion: Int, added: String) {
            let keyboard = try VirtualDevice(VMSuite.internalKeyboard)
            defer { keyboard.destroy() }
            try VMLibinput.register(keyboard.devnode!, as: ["keyboard", "key"])
            let pad: VirtualDevice, node: String
            if let run {
                (pad, node) = try interceptedDevice(fidelityPad, by: run)
            } else {
                pad = try VirtualDevice(fidelityPad); node = pad.devnode!
            }
            defer { pad.destroy() }
            try VMLibinput.register(node, as: ["touchpad"])
            let libinput = try VMLibinput(node: node, arguments: ["--enable-tap", "--enable-dwt", "--device", keyboard.devnode!])
            var script = TouchScript(device: fidelityPad, fingers: [.moving(30, 20, dx: 0.8, dy: 0.2, down: 0, up: 400)])
            script.pressure = 60
            let frames = script.frames()
            let key = { (value: Int32) in [InputEvent(type: EV.KEY, code: 30, value: value, microseconds: 0)] }
            for _ in 0..<3 { try keyboard.writeFrame(key(1)); usleep(20_000); try keyboard.writeFrame(key(0)); usleep(20_000) }
            for (index, frame) in frames.enumerated() {
                try pad.writeFrame(frame.filter { !$0.isSynReport })
                if index % 5 == 0 { try keyboard.writeFrame(key(index % 10 == 0 ? 1 : 0)) }
                usleep(VMSuite.frameSpacing)
            }
            try keyboard.writeFrame(key(0))
            libinput.waitUntilQuiet()
            _ = libinput.stop()
            let added = libinput.lines.first { $0.contains("DEVICE_ADDED") && $0.contains("dwt") } ?? "?"
            return (
                libinput.events.filter { $0.hasPrefix("POINTER_MOTION") }.count,
                String(added.split(separator: " ").suffix(3).joined(separator: " "))
            )
        }
        let alone = try motionWhileTyping(nil)
        let (run, _) = try startFidelityDaemon("fidelity-dwt", bindings: VMSuite.threeFingerSwipe)
        defer { _ = run.stop(SIGKILL) }
        let through = try motionWhileTyping(run)
        say(
            "VMTEST INFO fidelity-dwt: pointer motion while the internal keyboard types: \(alone.motion) on the device, \(through.motion) on the clone"
        )
        try expect(alone.motion == 0 && through.motion == 0, "motion while typing: device \(alone.motion), clone \(through.motion)")
    }

    /// `libinput list-devices` says of each clone what it says of its device
    /// (size, capabilities, tap, scroll, click and dwt methods...), all but
    /// the node and group, for the 2-slot pad, the RMI4 pad and the 5-slot
    /// touchscreen.
    func fidelityListDevices() throws {
        let infos = [fidelityPad, interceptedPad, fiveSlotTouchscreen]
        let kinds = [["touchpad"], ["touchpad"], ["touchscreen"]]
        func listed() throws -> [String: [String]] {
            let (status, out, err) = try runProgram("/usr/bin/libinput", ["libinput", "list-devices"])
            try expect(status == 0, "libinput list-devices: status \(status): \(err)")
            var blocks: [String: [String]] = [:]
            for block in out.components(separatedBy: "\n\n") {
                let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let kernel = lines.first(where: { $0.hasPrefix("Kernel:") }) else { continue }
                let node = kernel.dropFirst("Kernel:".count).trimmingCharacters(in: .whitespaces)
                blocks[node] = lines.filter { !$0.hasPrefix("Kernel:") && !$0.hasPrefix("Group:") }
            }
            return blocks
        }
        var made: [VirtualDevice] = []
        defer { for device in made { device.destroy() } }
        let (run, _) = try startFidelityDaemon("fidelity-list", bindings: VMSuite.threeFingerSwipe)
        defer { _ = run.stop(SIGKILL) }
        var pairs: [(String, String)] = []
        for (info, kind) in zip(infos, kinds) {
            let (device, clone) = try interceptedDevice(info, by: run)
            made.append(device)
            try VMLibinput.register(device.devnode!, as: kind)
            try VMLibinput.register(clone, as: kind)
            pairs.append((device.devnode!, clone))
        }
        let blocks = try listed()
        var report: [String] = []
        for (device, clone) in pairs {
            guard let mine = blocks[device], let its = blocks[clone] else {
                throw CheckFailure("libinput list-devices lists \(blocks.keys.sorted()), not \(device) and \(clone)")
            }
            try expect(mine == its, "libinput list-devices: device \(mine), clone \(its)")
            report.append(
                mine.filter { $0.hasPrefix("Device:") || $0.hasPrefix("Size:") || $0.hasPrefix("Click methods:") }.joined(separator: ", "))
        }
        say("VMTEST INFO fidelity-list-devices: libinput list-devices says the same of clone and device: " + report.joined(separator: "; "))
    }

    /// Runs a program to its end; its status, stdout and stderr.
    func runProgram(_ path: String, _ argv: [String]) throws -> (Int32, String, String) {
        let child = try VMSuite.spawn(path, argv)
        let out = ChildOutput(fd: child.stdout), err = ChildOutput(fd: child.stderr)
        var status: Int32 = 0
        while waitpid(child.pid, &status, WNOHANG) == 0 { out.poll(); err.poll() }
        for _ in 0..<5 { out.poll(); err.poll() }
        close(child.stdout); close(child.stderr)
        return ((status >> 8) & 0xff, out.text, err.text)
    }

    /// Taps of 1, 2 and 3 fingers, a tap-and-drag and a clickfinger click
    /// (two fingers resting, the pad pressed: a right click) on the 2-slot pad
    /// with 3-finger swipes claimed: libinput reports the same on the clone
    /// as on the device alone; the delay the daemon adds to a tap's button
    /// event is reported.
    func fidelityTaps() throws {
        let pad = fidelityPad
        func still(_ count: Int, apart: Int64, up: Int64) -> [TouchScript.Finger] {
            (0..<count).map { TouchScript.Finger.still(30 + 15 * Double($0), 25, down: apart * Int64($0), up: up) }
        }
        var scripts: [(String, TouchScript, [String])] = []
        for count in 1...3 {
            var script = TouchScript(device: pad, fingers: still(count, apart: 10, up: 90))
            script.pressure = 60
            scripts.append(("\(count)-finger tap", script, ["--enable-tap"]))
        }
        var drag = TouchScript(
            device: pad,
            fingers: [.still(40, 25, down: 0, up: 60), .moving(40, 25, dx: 1, dy: 0, down: 130, up: 500, moveFrom: 150)])
        drag.pressure = 60
        scripts.append(("tap-and-drag", drag, ["--enable-tap", "--enable-drag"]))
        var click = TouchScript(device: pad, fingers: still(2, apart: 20, up: 300), clicks: [100...200])
        click.pressure = 60
        scripts.append(("clickfinger", click, ["--set-click-method=clickfinger"]))
        let alone = try scripts.map { _, script, arguments in
            try playEach([script], on: pad, by: nil, kinds: ["touchpad"], arguments: arguments)[0]
        }
        let (run, _) = try startFidelityDaemon("fidelity-taps", bindings: VMSuite.threeFingerSwipe)
        defer { _ = run.stop(SIGKILL) }
        try warmUp(run)
        var report: [String] = [], failures: [String] = [], added: [Int64] = []
        for (index, (name, script, arguments)) in scripts.enumerated() {
            let alone = alone[index]
            var through = try playEach([script], on: pad, by: run, kinds: ["touchpad"], arguments: arguments)[0]
            if through.summary.difference(from: alone.summary) != nil {
                // libinput's own timers race a loaded emulated CPU: play once more before judging.
                through = try playEach([script], on: pad, by: run, kinds: ["touchpad"], arguments: arguments)[0]
            }
            report.append("\(name): \(alone.summary.buttons.joined(separator: " "))")
            if let difference = through.summary.difference(from: alone.summary) {
                failures.append("\(name): \(difference) differ: clone \(through.summary), device \(alone.summary)")
            }
            if name.hasSuffix("tap"), let first = through.firstDelay("POINTER_BUTTON"), let base = alone.firstDelay("POINTER_BUTTON") {
                added.append(first - base)
            }
        }
        say("VMTEST INFO fidelity-taps: libinput on the clone equals the device alone: " + report.joined(separator: "; "))
        say(
            "VMTEST INFO fidelity-taps: delay the daemon adds to a tap's button event: \(added.map { String(format: "%.1f", Double($0) / 1000) }.joined(separator: ", ")) ms"
        )
        try expect(failures.isEmpty, failures.joined(separator: "; "))
    }

    /// One-finger motion forwarded by `gestures run` (3-finger swipes claimed)
    /// and by `vm-forwarder` (plain C) in the same VM: the time from a frame
    /// written to the device to the same frame read on the clone, median and
    /// p99, and their ratio; the goal is the daemon within 1.2 times the C
    /// forwarder at the median (reported, not judged: a loaded emulated CPU
    /// decides these figures more than either program).
    func fidelityLatency() throws {
        let motion = (0..<3).map { round in
            var script = TouchScript(
                device: fidelityPad, fingers: [.moving(20, 10 + 10 * Double(round), dx: 0.7, dy: 0.1, down: 0, up: 600)])
            script.pressure = 60
            return script
        }
        // The C forwarder.
        let plainPad = try VirtualDevice(fidelityPad)
        let holder = try VMSuite.spawn("/usr/bin/vm-forwarder", ["vm-forwarder", plainPad.devnode!])
        let output = ChildOutput(fd: holder.stdout)
        try expect(output.waitFor("ready"), "vm-forwarder never got ready: \(output.text)")
        let plainClone = String(output.text.split(separator: "\n").first { $0.hasPrefix("clone ") }!.split(separator: " ")[2])
        var plainTimes: [(written: Int64, stamped: Int64, arrived: Int64)] = []
        for script in motion { plainTimes += try forwardingLatency(script, device: plainPad, clone: plainClone) }
        kill(holder.pid, SIGKILL)
        waitpid(holder.pid, nil, 0)
        close(holder.stdout); close(holder.stderr)
        plainPad.destroy()
        // The daemon.
        let (run, _) = try startFidelityDaemon("fidelity-latency", bindings: VMSuite.threeFingerSwipe)
        defer { _ = run.stop(SIGKILL) }
        try warmUp(run)
        let (pad, clone) = try interceptedDevice(fidelityPad, by: run)
        defer { pad.destroy() }
        var daemonTimes: [(written: Int64, stamped: Int64, arrived: Int64)] = []
        for script in motion { daemonTimes += try forwardingLatency(script, device: pad, clone: clone) }
        let daemon = daemonTimes.map { $0.arrived - $0.written }, plain = plainTimes.map { $0.arrived - $0.written }
        let median = { (values: [Int64]) in Double(values.sorted()[values.count / 2]) }
        // Where the time goes: to the forwarder's write on the clone (the kernel's stamp), and from it to the reader.
        let split = { (times: [(written: Int64, stamped: Int64, arrived: Int64)]) in
            "\(Int(median(times.map { $0.stamped - $0.written }))) µs to the clone's write, \(Int(median(times.map { $0.arrived - $0.stamped }))) µs from it to the reader"
        }
        say(
            "VMTEST INFO fidelity-latency: one-finger motion, write on the device -> read on the clone: gestures run \(VMSuite.percentiles(daemon, [50, 99])); vm-forwarder (C) \(VMSuite.percentiles(plain, [50, 99])); ratio of medians \(String(format: "%.2f", median(daemon) / median(plain))), the daemon's median \(Int(median(daemon) - median(plain))) µs later; medians: gestures run \(split(daemonTimes)), vm-forwarder \(split(plainTimes))"
        )
    }

    /// Plays `script` to `device` (from slot 0) while reading `clone`: for each
    /// frame that changes the device's state, its times (`FrameCollector.timings`).
    func forwardingLatency(
        _ script: TouchScript, device: VirtualDevice, clone: String
    ) throws -> [(written: Int64, stamped: Int64, arrived: Int64)] {
        let arrivals = try FrameCollector(clone)
        defer { arrivals.stop() }
        usleep(50_000)
        var frames = script.frames()
        frames[0].insert(InputEvent(type: EV.ABS, code: ABS.MT_SLOT, value: 0, microseconds: 0), at: 0)
        return try arrivals.timings(of: frames, writtenTo: device) { "\($0) frames reached the clone \(clone), \($1) written" }
    }
}
