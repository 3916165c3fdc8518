import GestureRecognition
import TouchInput

/// Times the way from kernel events to gestures on generated input
/// (``MixedGestureStream``): the decoder alone, and the decoder plus the
/// engine (`GesturePipeline`, what replay and live input run), beside a
/// loop that only reads every event and sums its fields, the practical
/// limit of anything that looks at each event once. All three read the same
/// events from memory, in the same run.
///
///     let result = PipelineBenchmark.run(device: rmi4, frameCount: 100_000)!
///     result.decoderAndEngine.eventsPerSecond / result.readAndSum.eventsPerSecond   // 0.05: 5 % of the limit
///
/// - Complexity: O(passes x frames).
public enum PipelineBenchmark {
    /// One stage's figures.
    public struct Stage: Sendable, Hashable {
        /// Kernel events per second (fastest pass).
        public var eventsPerSecond: Double
        /// Frames (SYN_REPORTs) per second (fastest pass).
        public var framesPerSecond: Double
        /// How long the fastest pass took, in seconds: both rates are its counts over it.
        public var seconds: Double
        /// Heap allocations per frame in steady state (after the first
        /// frames), or nil when they cannot be counted here (see ``AllocationCounter``).
        public var allocationsPerFrame: Double?
        /// Heap bytes allocated per frame in steady state, or nil.
        public var allocatedBytesPerFrame: Double?
        /// The frames, after the first ones, during which anything was
        /// allocated, or nil when allocations are not counted.
        public var allocatingFrames: Int?
        /// What the stage produced: the checksum of the events, the contacts
        /// decoded, or the gesture events.
        public var output: Int
    }

    /// The figures of one run.
    public struct Result: Sendable, Hashable {
        /// The device the events were generated for.
        public var deviceName: String
        /// The kernel events of the run.
        public var events: Int
        /// The frames they make.
        public var frames: Int
        /// The frames whose allocations were counted: all but the first ``PipelineBenchmark/warmUpFrames``.
        public var countedFrames: Int
        /// The timed passes; the fastest counts.
        public var passes: Int
        /// Reading every event and summing its fields: the limit.
        public var readAndSum: Stage
        /// `MultitouchDecoder` alone: events to touch frames.
        public var decoder: Stage
        /// `GesturePipeline`: events to touch frames to gestures.
        public var decoderAndEngine: Stage

        /// The decoder plus engine's events per second as a fraction of the limit's.
        public var decoderAndEngineShareOfLimit: Double {
            readAndSum.eventsPerSecond > 0 ? decoderAndEngine.eventsPerSecond / readAndSum.eventsPerSecond : 0
        }
    }

    /// The frames fed before allocations are counted, so that buffers have grown to size.
    public static let warmUpFrames = 720

    /// Generates `frameCount` frames of ``MixedGestureStream`` on `device` and
    /// times the three stages, `passes` times each; `progress` hears what runs.
    /// Nil when the stream cannot be generated on the device.
    public static func run(
        device: DeviceDescription, frameCount: Int, passes: Int = 3,
        progress: (String) -> Void = { _ in }
    ) -> Result? {
        guard let stream = MixedGestureStream(device: device),
            let pipeline = GesturePipeline(device: device, originMicroseconds: MixedGestureStream.startMicroseconds)
        else { return nil }
        progress("generating \(frameCount) frames of kernel events")
        let events = stream.events(frameCount: frameCount)
        let warmUpEnd = endOfFrame(min(warmUpFrames, frameCount / 10), in: events)
        let countedFrames = frameCount - min(warmUpFrames, frameCount / 10)

        progress("read and sum (\(events.count) events, \(passes) passes)")
        let limit = BenchmarkTiming.fastest(passes: passes) { readAndSum(events[...]) }
        let limitCount = countAllocations(in: events[warmUpEnd...]) { _ in }

        progress("decoder (\(passes) passes)")
        let decoded = BenchmarkTiming.fastest(passes: passes) {
            var decoder = MultitouchDecoder(device: device)
            return decode(events[...], with: &decoder)
        }
        var decoder = MultitouchDecoder(device: device)
        _ = decode(events[..<warmUpEnd], with: &decoder)
        let decoderCount = countAllocations(in: events[warmUpEnd...]) { event in _ = decoder.process(event) }

        progress("decoder and engine (\(passes) passes)")
        let recognised = BenchmarkTiming.fastest(passes: passes) {
            var fresh = pipeline
            return recognise(events[...], with: &fresh)
        }
        var warm = pipeline
        _ = recognise(events[..<warmUpEnd], with: &warm)
        var gestures: [GestureEvent] = []
        let pipelineCount = countAllocations(in: events[warmUpEnd...]) { event in
            warm.process(event, into: &gestures)
            gestures.removeAll(keepingCapacity: true)
        }

        func stage(_ pass: BenchmarkTiming.Pass, _ counted: (count: AllocationCounter.Count, frames: Int)?) -> Stage {
            Stage(
                eventsPerSecond: BenchmarkTiming.rate(events.count, seconds: pass.seconds),
                framesPerSecond: BenchmarkTiming.rate(frameCount, seconds: pass.seconds),
                seconds: pass.seconds,
                allocationsPerFrame: counted.map { Double($0.count.allocations) / Double(max(countedFrames, 1)) },
                allocatedBytesPerFrame: counted.map { Double($0.count.bytes) / Double(max(countedFrames, 1)) },
                allocatingFrames: counted?.frames,
                output: pass.checksum)
        }
        return Result(
            deviceName: device.name, events: events.count, frames: frameCount, countedFrames: countedFrames, passes: passes,
            readAndSum: stage(limit, limitCount),
            decoder: stage(decoded, decoderCount),
            decoderAndEngine: stage(recognised, pipelineCount))
    }

    /// The allocations made while `body` takes each of `events`, and the
    /// frames (SYN_REPORT to SYN_REPORT) during which any was; nil when not counted.
    static func countAllocations(
        in events: ArraySlice<InputEvent>,
        _ body: (InputEvent) -> Void
    ) -> (count: AllocationCounter.Count, frames: Int)? {
        guard let start = AllocationCounter.totals else {
            for event in events { body(event) }
            return nil
        }
        var frameStart = start.allocations
        var allocatingFrames = 0
        for event in events {
            body(event)
            guard event.isSynReport, let now = AllocationCounter.totals else { continue }
            if now.allocations != frameStart { allocatingFrames += 1 }
            frameStart = now.allocations
        }
        guard let end = AllocationCounter.totals else { return nil }
        return (
            AllocationCounter.Count(allocations: end.allocations - start.allocations, bytes: end.bytes - start.bytes),
            allocatingFrames
        )
    }

    /// The index just past the SYN_REPORT that ends frame `frames` (0: the start).
    static func endOfFrame(_ frames: Int, in events: [InputEvent]) -> Int {
        guard frames > 0 else { return 0 }
        var seen = 0
        for (index, event) in events.enumerated() where event.isSynReport {
            seen += 1
            if seen == frames { return index + 1 }
        }
        return events.count
    }

    /// The limit: every field of every event read and summed.
    static func readAndSum(_ events: ArraySlice<InputEvent>) -> Int {
        var sum = 0
        for event in events {
            sum &+= Int(event.type) &+ Int(event.code) &+ Int(event.value) &+ Int(truncatingIfNeeded: event.microseconds)
        }
        return sum
    }

    /// The contacts of every frame `decoder` makes of `events`.
    static func decode(_ events: ArraySlice<InputEvent>, with decoder: inout MultitouchDecoder) -> Int {
        var contacts = 0
        for event in events {
            if let frame = decoder.process(event) { contacts &+= frame.contacts.count }
        }
        return contacts
    }

    /// The gesture events `pipeline` makes of `events`.
    static func recognise(_ events: ArraySlice<InputEvent>, with pipeline: inout GesturePipeline) -> Int {
        var gestures = 0
        var buffer: [GestureEvent] = []
        buffer.reserveCapacity(16)
        for event in events {
            pipeline.process(event, into: &buffer)
            if !buffer.isEmpty {
                gestures &+= buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
        }
        return gestures
    }
}
