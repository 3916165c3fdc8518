import EvdevInput
import Foundation
import TouchInput

/// Checks of the evdev reader and uinput devices against the kernel: what is
/// written is read back, through resyncs, unplugging, hotplug and grabs.
extension VMSuite {
    /// The description read back from the kernel equals the one the device was made from.
    func describe(_ info: DeviceDescription, kind: DeviceDescription.Kind) throws {
        let (_, device) = try open(info)
        let read = device.description
        try expect(read.name == info.name, "name '\(read.name)'")
        try expect(read.kind == kind, "kind \(read.kind), expected \(kind)")
        try expect(read.id.bus == info.id.bus && read.id.vendor == info.id.vendor && read.id.product == info.id.product, "ids differ")
        try expect(read.properties == info.properties, "properties \(read.properties.sorted())")
        for type in [EV.KEY, EV.ABS, EV.REL] {
            try expect(
                (read.codes[type] ?? []) == (info.codes[type] ?? []), "codes of type \(type) differ: \((read.codes[type] ?? []).sorted())")
        }
        for (code, axis) in info.absInfo {
            let got = read.absInfo[code]
            try expect(
                got?.minimum == axis.minimum && got?.maximum == axis.maximum && got?.resolution == axis.resolution,
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
                case .frame(let got), .forwarded(let got): read.apply(got)
                case .resynced(let got):
                    resyncs += 1
                    resyncEvents += got.count - 1
                    read.apply(got)
                    try expect(read == written, "after resync at frame \(index): wrote \(written), read \(read)")
                case .removed(let error): throw CheckFailure("device removed: \(error)")
                case .added: throw CheckFailure("a device was added without a watch")
                }
            }
            if index >= 5 + stallFrames {
                try expect(read == written, "frame \(index) after the resync differs: wrote \(written), read \(read)")
            }
        }
        try expect(resyncs == 1, "\(resyncs) resyncs, expected 1 (no SYN_DROPPED after a \(stallFrames)-frame stall?)")
        try expect(read == written && read.activeSlots.isEmpty, "final state differs: \(read)")
        say("VMTEST INFO syn-dropped \(info.name): resynced once with \(resyncEvents) events after a \(stallFrames)-frame stall")
    }

    /// Relative motion with the right button held: every frame arrives unchanged.
    func mouseRoundTrip() throws {
        let (virtual, device) = try open(devices.mouse)
        let reader = try EvdevReader(devices: [device])
        var frames: [[InputEvent]] = [[InputEvent(type: EV.KEY, code: BTN.RIGHT, value: 1, microseconds: 0)]]
        for step in 0..<30 {
            let angle = Double(step) / 30 * 2 * Double.pi
            frames.append([
                InputEvent(type: EV.REL, code: REL.X, value: Int32(12 * cos(angle)) | 1, microseconds: 0),
                InputEvent(type: EV.REL, code: REL.Y, value: Int32(12 * sin(angle)) | 1, microseconds: 0),
            ])
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
        try expect(
            got.map { $0.map { [Int($0.type), Int($0.code), Int($0.value)] } }
                == frames.map { $0.map { [Int($0.type), Int($0.code), Int($0.value)] } },
            "read \(got.count) frames, wrote \(frames.count); first differing: \(zip(got, frames).first { $0 != $1 }.map { "\($0)" } ?? "-")"
        )
    }

    /// A device destroyed mid-gesture is reported once as gone; the reader keeps reading the others.
    func deviceGone() throws {
        let (pad, padDevice) = try open(devices.synaptics)
        let (screen, screenDevice) = try open(devices.touchscreen)
        let reader = try EvdevReader(devices: [padDevice, screenDevice])
        let frames = VMGestureWriter(info: devices.synaptics).swipe(count: 3, steps: 10, firstID: 500)
        for frame in frames.prefix(5) { try pad.writeFrame(frame); usleep(VMSuite.frameSpacing) }
        _ = try drain(reader, quiet: .zero)
        for frame in frames.dropFirst(5).prefix(3) { try pad.writeFrame(frame) }
        pad.destroy()
        let outputs = try drain(reader)
        let gone = outputs.filter { if case .removed(.deviceGone) = $0 { true } else { false } }
        try expect(gone.count == 1, "outputs after destroy: \(outputs)")
        try expect(reader.devices.count == 1 && reader.devices[0] === screenDevice, "the gone device is still read")
        let touch = VMGestureWriter(info: devices.touchscreen).swipe(count: 1, steps: 3, firstID: 600)
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
            let virtual = try VirtualDevice(devices.touchscreen)
            var added: EvdevDevice?
            for _ in 0..<20 where added == nil {
                for (device, output) in try reader.wait(timeout: .milliseconds(100)).outputs {
                    if case .added = output, device.path == virtual.devnode { added = device }
                }
            }
            try expect(added != nil, "round \(round): \(virtual.devnode ?? "?") was not picked up")
            let frames = VMGestureWriter(info: devices.touchscreen).swipe(count: 2, steps: 5, firstID: 800)
            for frame in frames { try virtual.writeFrame(frame); usleep(VMSuite.frameSpacing) }
            let outputs = try drain(reader)
            try expect(outputs.count == frames.count, "round \(round): \(outputs.count) frames read, \(frames.count) written")
            virtual.destroy()
            let gone = try drain(reader)
            try expect(
                gone == [.removed(.deviceGone(path: added!.path))] && reader.devices.isEmpty, "round \(round): after destroy \(gone)")
        }
    }

    /// While one client grabs the device, another reads nothing; after release both read.
    func grab() throws {
        let (virtual, grabber) = try open(devices.mouse)
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
        let (virtual, device) = try open(devices.synaptics)
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
        let frames = VMGestureWriter(info: devices.synaptics).swipe(count: 2, steps: count - 2, firstID: 900)
        for frame in frames {
            sent.append(VMSuite.nowMicroseconds())
            try virtual.writeFrame(frame)
            usleep(VMSuite.frameSpacing)
        }
        done.wait()
        try expect(box.received.count == frames.count, "\(box.received.count) of \(frames.count) frames arrived")
        let latencies = zip(sent, box.received).map { $1 - $0 }.sorted()
        say(
            "VMTEST INFO reader latency (write -> reader thread, µs, TCG VM): median \(latencies[latencies.count / 2]), p95 \(latencies[latencies.count * 95 / 100]), max \(latencies.last!)"
        )
    }

}
