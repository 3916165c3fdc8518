import GestureRecognition
import InputInterception
import TouchInput

/// Times what an intercepting reader does with one frame of one-finger
/// pointer motion between reading it and writing it to the clone, without
/// the kernel: ``DeviceLoop`` over an in-memory ``DeviceIO`` that hands out
/// one frame a read (as `poll()` does at a touchpad's pace) and takes the
/// clone's frames (`writeClone`), with 3-finger swipes claimed as the
/// daemon's default configuration claims them. Beside it, the same frames
/// through ``InterceptedDevice`` alone (what goes ahead of the pipeline, the
/// pipeline, the hand-over and the pacer, no loop) and through a loop that only copies each frame to the
/// writer, which is all a plain forwarder does in user space. The time a
/// frame waits before its write is what the daemon adds to one-finger
/// motion (Docs/Interception.md measures that in the VM).
///
///     let result = ForwardingBenchmark.run(device: rmi4, frameCount: 100_000)!
///     result.loop.nanosecondsPerFrame   // 1500: the daemon's user-space cost per frame
///
/// - Complexity: O(passes x frames).
public enum ForwardingBenchmark {
    /// One stage's figures.
    public struct Stage: Sendable, Hashable {
        /// Nanoseconds per frame (fastest pass).
        public var nanosecondsPerFrame: Double
        /// Nanoseconds from reading a frame to writing it to the clone
        /// (fastest pass, per frame): the part of the work that delays
        /// the desktop; nil for the stages that write nothing.
        public var nanosecondsBeforeWrite: Double?
        /// Heap allocations per frame in steady state, or nil when they
        /// cannot be counted here (see ``AllocationCounter``).
        public var allocationsPerFrame: Double?
        /// What the stage wrote: the events, summed over the frames.
        public var output: Int
    }

    /// The figures of one run.
    public struct Result: Sendable, Hashable {
        /// The device the frames were made for.
        public var deviceName: String
        /// The frames of one-finger motion (touches of ``framesPerTouch``).
        public var frames: Int
        /// The timed passes; the fastest counts.
        public var passes: Int
        /// Copying each frame to the writer: a plain forwarder's work.
        public var copy: Stage
        /// `InterceptedDevice.process` alone.
        public var device: Stage
        /// `DeviceLoop` over the in-memory devices: the daemon's work.
        public var loop: Stage
    }

    /// The frames of one touch: a landing, motion, a lift.
    public static let framesPerTouch = 120
    /// Frames come 8 ms apart (a 125 Hz pad).
    public static let frameIntervalMicroseconds: Int64 = 8_000

    /// The policy the daemon intercepts with by default when 3-finger swipes are bound.
    public static let policy = PassThroughFilter.Policy(claims: [.init(gesture: .swipe, fingers: 3)])

    /// Makes `frameCount` frames of one-finger motion on `device` and times
    /// the three stages, `passes` times each. Nil when the device is no
    /// multitouch surface with slots.
    public static func run(device: DeviceDescription, frameCount: Int, passes: Int = 3) -> Result? {
        guard let frames = motion(on: device, frameCount: frameCount),
            InterceptedDevice(device: device, setup: .init(), originMicroseconds: 0, policy: policy) != nil
        else { return nil }
        let copy = stage(frames, passes: passes) { frames in
            let io = MemoryDevices(frames: frames)
            while let frame = io.next() { io.write(frame) }
            return io
        }
        let intercepted = stage(frames, passes: passes) { frames in
            let io = MemoryDevices(frames: frames)
            var session = InterceptedDevice(device: device, setup: .init(), originMicroseconds: 0, policy: policy)!
            while let frame = io.next() {
                let now = io.nowMicroseconds()
                if session.forwardsMotion && InterceptedDevice.isMotion(frame) {
                    io.write(frame)
                    session.noteForwarded(frame, nowMicroseconds: now)
                }
                let step = session.process(frame, nowMicroseconds: now)
                for out in step.cloneFrames { io.write(out) }
            }
            return io
        }
        let loop = stage(frames, passes: passes) { frames in
            let io = MemoryDevices(frames: frames, description: device)
            let loop = DeviceLoop(
                io: io, devices: [0], intercepts: true, setup: { _ in .init() }, claims: { _ in policy }, warn: { _ in })
            try? loop.run { _ in true }
            return io
        }
        return Result(deviceName: device.name, frames: frames.count, passes: passes, copy: copy, device: intercepted, loop: loop)
    }

    /// Times `body` over `frames`; counts its allocations in a pass of its own.
    static func stage(_ frames: [[InputEvent]], passes: Int, _ body: ([[InputEvent]]) -> MemoryDevices) -> Stage {
        let clock = ContinuousClock()
        var best = Duration.seconds(1_000_000)
        var beforeWrite: Int64 = 0
        var output = 0
        for _ in 0..<max(passes, 1) {
            var io: MemoryDevices?
            let elapsed = clock.measure { io = body(frames) }
            if elapsed < best {
                best = elapsed
                beforeWrite = io!.nanosecondsBeforeWrite
                output = io!.writtenEvents
            }
        }
        let counted = AllocationCounter.counting { body(frames) }
        let count = Double(frames.count)
        return Stage(
            nanosecondsPerFrame: BenchmarkTiming.seconds(best) * 1e9 / count,
            nanosecondsBeforeWrite: beforeWrite > 0 ? Double(beforeWrite) / count : nil,
            allocationsPerFrame: counted.count.map { Double($0.allocations) / count },
            output: output)
    }

    /// `frameCount` frames of touches of one finger, each landing, moving
    /// 0.5 mm right and 0.1 mm down a frame, and lifting.
    static func motion(on device: DeviceDescription, frameCount: Int) -> [[InputEvent]]? {
        guard device.supports(EV.ABS, ABS.MT_SLOT), let x = device.absInfo[ABS.MT_POSITION_X],
            let y = device.absInfo[ABS.MT_POSITION_Y]
        else { return nil }
        let unitsX = Double(max(x.resolution, 1))
        let unitsY = Double(max(y.resolution, 1))
        var frames: [[InputEvent]] = []
        frames.reserveCapacity(frameCount)
        var time: Int64 = 1_000_000
        var id: Int32 = 1
        while frames.count < frameCount {
            for step in 0..<framesPerTouch where frames.count < frameCount {
                var frame: [InputEvent] = []
                func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
                    frame.append(InputEvent(type: type, code: code, value: value, microseconds: time))
                }
                let last = step == framesPerTouch - 1
                if step == 0 { add(EV.ABS, ABS.MT_TRACKING_ID, id) }
                if last {
                    add(EV.ABS, ABS.MT_TRACKING_ID, -1)
                } else {
                    let px = x.minimum + Int32(Double(step) * 0.5 * unitsX) + Int32(10 * unitsX)
                    let py = y.minimum + Int32(Double(step) * 0.1 * unitsY) + Int32(10 * unitsY)
                    add(EV.ABS, ABS.MT_POSITION_X, px)
                    add(EV.ABS, ABS.MT_POSITION_Y, py)
                }
                if step == 0 || last {
                    add(EV.KEY, BTN.TOUCH, last ? 0 : 1)
                    add(EV.KEY, BTN.TOOL_FINGER, last ? 0 : 1)
                }
                if !last {
                    add(EV.ABS, ABS.X, x.minimum + Int32(Double(step) * 0.5 * unitsX) + Int32(10 * unitsX))
                    add(EV.ABS, ABS.Y, y.minimum + Int32(Double(step) * 0.1 * unitsY) + Int32(10 * unitsY))
                }
                add(EV.SYN, SYN.REPORT, 0)
                frames.append(frame)
                time += frameIntervalMicroseconds
            }
            id += 1
        }
        return frames
    }
}

/// The benchmark's ``DeviceIO``: one device, whose frames are handed out
/// one a read, and a clone that counts what is written to it. Its clock is
/// the latest frame's time (a reader that keeps up).
final class MemoryDevices: DeviceIO {
    typealias Handle = Int
    struct Failure: Error, CustomStringConvertible {
        var description: String { "the benchmark's device failed" }
    }

    private let frames: [[InputEvent]]
    private let description: DeviceDescription
    private var index = 0
    private let clock = ContinuousClock()
    private var readAt: ContinuousClock.Instant?
    /// Events written to the clone.
    private(set) var writtenEvents = 0
    /// Nanoseconds from each read to the first write after it, summed.
    private(set) var nanosecondsBeforeWrite: Int64 = 0

    init(frames: [[InputEvent]], description: DeviceDescription = DeviceDescription(name: "")) {
        self.frames = frames
        self.description = description
    }

    /// The next frame, or nil at the end.
    func next() -> [InputEvent]? {
        guard index < frames.count else { return nil }
        defer { index += 1 }
        readAt = clock.now
        return frames[index]
    }

    /// Takes one frame for the clone.
    func write(_ frame: [InputEvent]) {
        if let readAt {
            let (seconds, attoseconds) = (clock.now - readAt).components
            nanosecondsBeforeWrite += seconds * 1_000_000_000 + attoseconds / 1_000_000_000
            self.readAt = nil
        }
        writtenEvents += frame.count
    }

    func nowMicroseconds() -> Int64 {
        frames[max(0, min(index, frames.count) - 1)].last?.microseconds ?? 0
    }

    /// Whether the loop armed the forwarding of motion (``forwardMotion(_:of:)``).
    private var forwardsMotion = false

    /// The next frame; one of motion alone goes to the clone first when armed, as the kernel's reader does.
    func read(until deadline: Int64?) throws(Failure) -> DeviceInput<Int, Failure> {
        guard let frame = next() else { return DeviceInput(woken: true) }
        guard forwardsMotion, InterceptedDevice.isMotion(frame) else { return DeviceInput(items: [.frame(0, frame)]) }
        write(frame)
        return DeviceInput(items: [.forwarded(0, frame)])
    }

    func forwardMotion(_ armed: Bool, of device: Int) { forwardsMotion = armed }

    func facts(of device: Int) -> DeviceFacts { DeviceFacts(node: "memory", description: description) }
    func state(of device: Int) -> EvdevState { EvdevState() }
    func close(_ device: Int) {}
    func intercept(_ device: Int) -> String? { "memory clone" }
    func writeClone(_ frames: [[InputEvent]], of device: Int) throws(Failure) {
        for frame in frames { write(frame) }
    }
    func release(_ device: Int) { forwardsMotion = false }
}
