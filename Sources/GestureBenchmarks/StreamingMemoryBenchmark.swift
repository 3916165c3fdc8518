import Foundation
import GestureTraces
import TouchInput

/// Measures the peak resident memory of streaming a large JSON trace
/// (1 GB by default) through the whole pipeline: the trace is generated
/// frame by frame into a temporary file (``MixedGestureStream`` through
/// `TraceWriter`), then read back frame by frame (`TraceReader`) into a
/// `GesturePipeline`. Neither step holds more than a frame and a buffer,
/// so the peak should not grow with the file.
///
///     let result = try StreamingMemoryBenchmark.run(device: rmi4, targetBytes: 1_000_000_000, directory: tmp)
///     result.peakWhileReplayingBytes   // 20 MB, whatever the trace's size
public enum StreamingMemoryBenchmark {
    /// The figures of one run.
    public struct Result: Sendable, Hashable {
        /// The size of the generated trace, in bytes.
        public var bytes: Int
        /// Its frames.
        public var frames: Int
        /// Its events.
        public var events: Int
        /// The gesture events the pipeline made of it.
        public var gestureEvents: Int
        /// The time to generate and write it, in seconds.
        public var writeSeconds: Double
        /// The time to read it and run it through the pipeline, in seconds.
        public var replaySeconds: Double
        /// The resident size before writing, in bytes (nil off Linux).
        public var residentBeforeBytes: Int?
        /// The peak resident size while writing, in bytes.
        public var peakWhileWritingBytes: Int?
        /// The peak resident size while reading and recognising, in bytes.
        public var peakWhileReplayingBytes: Int?
        /// Whether the peaks are of each step alone; false when the kernel
        /// could not reset the peak, so that both are the process's peak so far.
        public var peaksArePerStep: Bool
    }

    /// Writes about `targetBytes` of trace on `device` into `directory`,
    /// streams it back through a pipeline, and removes it.
    public static func run(
        device: DeviceDescription, targetBytes: Int, directory: URL,
        progress: (String) -> Void = { _ in }
    ) throws -> Result {
        guard let stream = MixedGestureStream(device: device),
            var pipeline = GesturePipeline(device: device, originMicroseconds: MixedGestureStream.startMicroseconds)
        else {
            throw BenchmarkFailure("\(device.name) is not a multitouch pad with slots; the memory benchmark needs one")
        }
        let url = directory.appendingPathComponent("gestures-bench-\(getpid())-stream.jsonl")
        // Created afresh, never through a link or over a file someone else put there.
        try TemporaryFolder.createExclusively(url)
        defer { try? FileManager.default.removeItem(at: url) }
        ProcessMemory.returnFreedMemory()  // what earlier work freed is not this figure
        var perStep = ProcessMemory.resetPeak()
        let residentBefore = ProcessMemory.residentBytes
        progress("memory: writing a \(targetBytes / 1_000_000) MB trace to \(url.path)")

        let clock = ContinuousClock()
        var frames = 0
        var events = 0
        var bytes = 0
        let writeTime = try clock.measure {
            let writer = try TraceWriter(url: url, devices: [device])
            var state = MixedGestureStream.EncoderState()
            var buffer: [InputEvent] = []
            while bytes < targetBytes {
                for _ in 0..<4096 {
                    buffer.removeAll(keepingCapacity: true)
                    stream.appendEvents(ofFrame: frames, state: &state, to: &buffer)
                    try writer.write(Trace.Frame(device: 0, events: buffer))
                    frames += 1
                    events += buffer.count
                }
                try writer.flush()
                bytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? targetBytes
            }
            try writer.finish()
        }
        bytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? bytes
        let peakWriting = ProcessMemory.peakResidentBytes

        progress("memory: streaming it through the decoder and the engine")
        perStep = ProcessMemory.resetPeak() && perStep
        var gestures = 0
        var read = 0
        let replayTime = try clock.measure {
            let reader = try TraceReader(contentsOf: url)
            while let frame = try reader.nextFrame() {
                read += frame.events.count
                for event in frame.events { gestures += pipeline.process(event).count }
            }
            gestures += pipeline.finish().count
        }
        guard read == events else {
            throw BenchmarkFailure(
                "\(url.path) read back \(read) events of the \(events) written; the JSON trace writer or reader is wrong")
        }
        return Result(
            bytes: bytes, frames: frames, events: events, gestureEvents: gestures,
            writeSeconds: BenchmarkTiming.seconds(writeTime), replaySeconds: BenchmarkTiming.seconds(replayTime),
            residentBeforeBytes: residentBefore, peakWhileWritingBytes: peakWriting,
            peakWhileReplayingBytes: ProcessMemory.peakResidentBytes, peaksArePerStep: perStep)
    }
}
