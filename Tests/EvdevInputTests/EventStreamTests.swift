import CLibevdev
import Glibc
import InputInterception
import Testing
import TouchInput

@testable import EvdevInput

/// The raw reader over a pipe instead of an evdev node (the kernel's
/// `struct input_event`s written to it as evdev would hand them out): frames
/// cut at their `SYN_REPORT` across reads, an armed stream's motion written
/// to a second pipe (the clone) before it is handed out, `SYN_DROPPED`
/// dropping up to the next `SYN_REPORT`. The resync itself reads the
/// device with ioctls, which a pipe refuses; the VM suite's `syn-dropped`
/// check runs it against the kernel.
@Suite struct EventStreamTests {
    /// A 2-slot pad with the axes a frame here touches.
    static let pad: DeviceDescription = {
        var pad = DeviceDescription(name: "pipe pad")
        pad.codes[EV.KEY] = [BTN.TOUCH]
        pad.codes[EV.ABS] = [ABS.X, ABS.MT_SLOT, ABS.MT_POSITION_X, ABS.MT_TRACKING_ID]
        pad.absInfo[ABS.X] = AbsInfo(minimum: 0, maximum: 1000)
        pad.absInfo[ABS.MT_SLOT] = AbsInfo(minimum: 0, maximum: 1)
        pad.absInfo[ABS.MT_POSITION_X] = AbsInfo(minimum: 0, maximum: 1000)
        pad.absInfo[ABS.MT_TRACKING_ID] = AbsInfo(minimum: 0, maximum: 65535)
        return pad
    }()

    /// A pipe, non-blocking on its reading end, as evdev nodes are opened.
    struct Pipe {
        let read: Int32, write: Int32
        init() throws {
            var fds: [Int32] = [0, 0]
            try #require(pipe(&fds) == 0)
            read = fds[0]
            write = fds[1]
            _ = fcntl(read, F_SETFL, fcntl(read, F_GETFL) | O_NONBLOCK)
        }
        func close() { _ = Glibc.close(read); _ = Glibc.close(write) }

        /// Writes `events` as the kernel's `struct input_event`s, each stamped at its microseconds.
        func send(_ events: [InputEvent]) {
            let raw = events.map(input_event.init)
            _ = raw.withUnsafeBytes { Glibc.write(write, $0.baseAddress, $0.count) }
        }

        /// The events written to the pipe so far, without their times.
        func received() -> [[Int32]] {
            var raw = [input_event](repeating: input_event(), count: 64)
            let bytes = raw.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
            guard bytes > 0 else { return [] }
            return raw.prefix(bytes / MemoryLayout<input_event>.stride).map { [Int32($0.type), Int32($0.code), $0.value] }
        }
    }

    func event(_ type: UInt16, _ code: UInt16, _ value: Int32, _ time: Int64 = 1_000_123) -> InputEvent {
        InputEvent(type: type, code: code, value: value, microseconds: time)
    }
    var report: InputEvent { event(EV.SYN, SYN.REPORT, 0) }
    var landing: [InputEvent] {
        [event(EV.ABS, ABS.MT_TRACKING_ID, 7), event(EV.ABS, ABS.MT_POSITION_X, 100), event(EV.KEY, BTN.TOUCH, 1), report]
    }
    var motion: [InputEvent] { [event(EV.ABS, ABS.MT_POSITION_X, 120), event(EV.ABS, ABS.X, 120), report] }

    func stream(_ device: Pipe) -> EventStream {
        EventStream(fileDescriptor: device.read, path: "/dev/input/pipe", description: Self.pad, state: KernelState(slotCount: 2))
    }

    /// A stream over `device`, armed to forward motion to `clone`'s writing end.
    func armedStream(_ device: Pipe, forwardingTo clone: Pipe) -> EventStream {
        let stream = stream(device)
        stream.cloneFileDescriptor = clone.write
        stream.forwardsMotion = true
        return stream
    }

    @Test func aFrameSplitAcrossReadsIsHandedOutAtItsSynReportWithTheKernelsTimes() throws {
        let device = try Pipe()
        defer { device.close() }
        let stream = stream(device)
        device.send(Array(landing.prefix(2)))
        guard case .empty = stream.next() else { Issue.record("half a frame was handed out"); return }
        device.send(Array(landing.dropFirst(2)))
        guard case .frame(let frame, let forwarded) = stream.next() else { Issue.record("no frame"); return }
        #expect(frame == landing && !forwarded)
        guard case .empty = stream.next() else { Issue.record("more than was written"); return }
        #expect(stream.state.value(type: EV.ABS, code: ABS.MT_TRACKING_ID, slot: 0) == 7)
        #expect(stream.state.value(type: EV.KEY, code: BTN.TOUCH) == 1)
    }

    @Test func framesReadTogetherAreHandedOutOneAtATime() throws {
        let device = try Pipe()
        defer { device.close() }
        let stream = stream(device)
        device.send(landing + motion)
        guard case .frame(let first, _) = stream.next(), case .frame(let second, _) = stream.next() else {
            Issue.record("not two frames"); return
        }
        #expect(first == landing && second == motion)
        #expect(
            stream.state.state(of: Self.pad)
                == {
                    var state = EvdevState(); state.apply(landing + motion); return state
                }())
    }

    @Test func anArmedStreamWritesMotionToTheCloneAsItReadsItAndNothingElse() throws {
        let device = try Pipe(), clone = try Pipe()
        defer { device.close(); clone.close() }
        let stream = armedStream(device, forwardingTo: clone)
        device.send(landing + motion)
        guard case .frame(let first, let landingForwarded) = stream.next() else { Issue.record("no landing"); return }
        #expect(first == landing && !landingForwarded, "a landing went to the clone")
        #expect(clone.received().isEmpty)
        guard case .frame(let second, let motionForwarded) = stream.next() else { Issue.record("no motion"); return }
        #expect(second == motion && motionForwarded)
        #expect(clone.received() == motion.map { [Int32($0.type), Int32($0.code), $0.value] })
        // Disarmed, motion is read and not written.
        stream.forwardsMotion = false
        device.send(motion)
        guard case .frame(_, let forwarded) = stream.next() else { Issue.record("no frame"); return }
        #expect(!forwarded && clone.received().isEmpty)
    }

    @Test func aCloneThatCannotBeWrittenHandsTheFrameOutAsNotForwarded() throws {
        let device = try Pipe(), clone = try Pipe()
        defer { device.close() }
        let stream = armedStream(device, forwardingTo: clone)
        clone.close()  // the write fails (EBADF)
        device.send(motion)
        guard case .frame(let frame, let forwarded) = stream.next() else { Issue.record("no frame"); return }
        #expect(frame == motion && !forwarded)
    }

    @Test func synDroppedDropsUpToTheNextSynReportThenResyncs() throws {
        let device = try Pipe(), clone = try Pipe()
        defer { device.close(); clone.close() }
        let stream = armedStream(device, forwardingTo: clone)
        // The kernel's overflow: SYN_DROPPED, the newest event, then the rest of its frame.
        device.send([event(EV.SYN, SYN.DROPPED, 0), event(EV.ABS, ABS.MT_POSITION_X, 300)])
        guard case .empty = stream.next() else { Issue.record("handed out during a drop"); return }
        device.send([event(EV.ABS, ABS.X, 300), report])
        // The resync asks the device with ioctls, which a pipe refuses.
        guard case .failed(let error) = stream.next() else { Issue.record("no resync"); return }
        #expect(error == .notAnInputDevice(path: "/dev/input/pipe"))
        #expect(clone.received().isEmpty, "a frame of a drop went to the clone")
        #expect(stream.state.value(type: EV.ABS, code: ABS.X) == 0, "a dropped frame changed the state")
    }

    @Test func theKernelStateAFrameLeavesIsTheEvdevStateItLeaves() {
        var kernel = KernelState(slotCount: 2)
        var expected = EvdevState()
        let frames = [
            landing,
            [event(EV.ABS, ABS.MT_SLOT, 1), event(EV.ABS, ABS.MT_TRACKING_ID, 8), event(EV.ABS, ABS.MT_POSITION_X, 500), report],
            motion,
            [event(EV.ABS, ABS.MT_SLOT, 0), event(EV.ABS, ABS.MT_TRACKING_ID, -1), report],
        ]
        for frame in frames {
            for e in frame { kernel.apply(type: e.type, code: e.code, value: e.value) }
            expected.apply(frame)
            #expect(kernel.state(of: Self.pad) == expected)
            #expect(kernel.state(of: Self.pad).currentSlot == expected.currentSlot)
        }
    }
}
