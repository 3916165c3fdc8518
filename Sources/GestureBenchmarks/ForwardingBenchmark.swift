import DeviceScripts
import GestureRecognition
import InputInterception
import TouchInput

/// Times what an intercepting reader does with one frame of one-finger
/// pointer motion between reading it and writing it to the clone, without
/// the kernel: ``DeviceLoop`` over `ScriptedDevices` (the tests' fake of
/// the seam), which hands out one frame a read (as `poll()` does at a
/// touchpad's pace) and takes the clone's frames (`writeClone`), with 3-finger swipes claimed as the
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
        let copy = stage(frames, device: device, passes: passes) { io in
            _ = io.intercept(0)
            while let (device, frame, _) = io.nextFrame() { io.write(frame, toCloneOf: device) }
        }
        let intercepted = stage(frames, device: device, passes: passes) { io in
            var session = InterceptedDevice(device: device, setup: .init(), originMicroseconds: 0, policy: policy)!
            _ = io.intercept(0)
            var armed = false
            while true {
                // What an armed reader does as it reads (the devices forward by the reader's rule).
                if session.forwardsMotion != armed {
                    armed.toggle()
                    io.forwardMotion(armed, of: 0)
                }
                guard let (_, frame, forwarded) = io.nextFrame() else { break }
                let now = io.nowMicroseconds()
                if forwarded { session.noteForwarded(frame, nowMicroseconds: now) }
                let step = session.process(frame, nowMicroseconds: now)
                for out in step.cloneFrames { io.write(out, toCloneOf: 0) }
            }
        }
        let loop = stage(frames, device: device, passes: passes) { io in
            let loop = DeviceLoop(
                io: io, devices: [0], intercepts: true, setup: { _ in .init() }, claims: { _ in policy }, warn: { _ in })
            try? loop.run { _ in true }
        }
        return Result(deviceName: device.name, frames: frames.count, passes: passes, copy: copy, device: intercepted, loop: loop)
    }

    /// Times `body` over `frames` on device 0 of ``ScriptedDevices`` (taken
    /// from the desktop: its clone counts what is written); counts its
    /// allocations in a pass of its own.
    static func stage(_ frames: [[InputEvent]], device: DeviceDescription, passes: Int, _ body: (ScriptedDevices) -> Void) -> Stage {
        func devices() -> ScriptedDevices {
            // A broken rule here is the benchmark's own bug (ForwardingBenchmarkTests runs every stage).
            let io = ScriptedDevices(
                start: frames.first?.last?.microseconds ?? 0, end: frames.last?.last?.microseconds ?? 0,
                brokenRule: { preconditionFailure("ForwardingBenchmark: \($0)") })
            io.keepsWritten = false
            io.add(0, DeviceFacts(node: "memory", description: device))
            io.schedule(frames: frames, device: 0)
            return io
        }
        let clock = ContinuousClock()
        var best = Duration.seconds(1_000_000)
        var beforeWrite: Int64 = 0
        var output = 0
        for _ in 0..<max(passes, 1) {
            let io = devices()
            let elapsed = clock.measure { body(io) }
            if elapsed < best {
                best = elapsed
                beforeWrite = io.nanosecondsBeforeWrite
                output = io.writtenEvents
            }
        }
        let counting = devices()
        let counted = AllocationCounter.counting { body(counting) }
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
