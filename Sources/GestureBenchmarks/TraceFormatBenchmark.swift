import Foundation
import GestureTraces
import TouchInput

/// Times writing and reading a trace in each file format, in MB/s of the
/// format's bytes, beside what the file system alone gives in the same run:
/// writing the same bytes from memory, and reading them back in 1 MB chunks
/// and splitting them into lines (what any line-based reader must do).
///
/// Writing is `Trace.write(to:format:)` (encoding included) and reading
/// `Trace.load(contentsOf:)`, what `convert`, `replay` and `info` call; the
/// JSON trace is also timed streamed, through `TraceWriter` and
/// `TraceReader`, which hold one frame at a time.
///
///     let rows = try TraceFormatBenchmark.run(device: rmi4, frameCount: 10_000, directory: tmp)
///     rows[0].readMegabytesPerSecond / rows[0].readBaselineMegabytesPerSecond   // 0.4
public enum TraceFormatBenchmark {
    /// How a trace is written and read.
    public enum Way: String, Sendable, Hashable, CaseIterable {
        /// JSON trace, whole: `Trace.write` and `Trace.load`.
        case json
        /// JSON trace, streamed: `TraceWriter` and `TraceReader`, frame by frame.
        case jsonStreamed = "json-streamed"
        /// evemu's text format.
        case evemu
        /// `libinput record` YAML.
        case libinput
    }

    /// The figures of one format.
    public struct Row: Sendable, Hashable {
        /// The format and the way it is read and written.
        public var way: Way
        /// The size of the file, in bytes.
        public var bytes: Int
        /// The events read back (equal to those written).
        public var events: Int
        /// Writing, encoding included (fastest pass).
        public var writeMegabytesPerSecond: Double
        /// Writing the same bytes from memory.
        public var writeBaselineMegabytesPerSecond: Double
        /// Reading and decoding (fastest pass).
        public var readMegabytesPerSecond: Double
        /// Reading the same bytes and splitting them into lines.
        public var readBaselineMegabytesPerSecond: Double
    }

    /// Generates `frameCount` frames of ``MixedGestureStream`` on `device`,
    /// and times each way in `ways`, `passes` times, with files in
    /// `directory` (removed afterwards).
    public static func run(
        device: DeviceDescription, frameCount: Int, ways: [Way] = Way.allCases,
        passes: Int = 3, directory: URL,
        progress: (String) -> Void = { _ in }
    ) throws -> [Row] {
        guard let stream = MixedGestureStream(device: device) else {
            throw BenchmarkFailure("\(device.name) is not a multitouch pad with slots; the trace benchmark needs one")
        }
        let trace = Trace(device: device, events: stream.events(frameCount: frameCount))
        let eventCount = trace.eventCount
        var rows: [Row] = []
        for way in ways {
            let format: TraceFormat =
                switch way {
                case .json, .jsonStreamed: .json
                case .evemu: .evemu
                case .libinput: .libinput
                }
            let url = directory.appendingPathComponent("gestures-bench-\(getpid())-\(way.rawValue).\(format.pathExtension)")
            try TemporaryFolder.createExclusively(url)
            defer { try? FileManager.default.removeItem(at: url) }
            progress("\(way.rawValue): writing and reading \(frameCount) frames (\(passes) passes)")

            let write = try BenchmarkTiming.fastest(passes: passes) {
                switch way {
                case .jsonStreamed:
                    let writer = try TraceWriter(url: url, devices: trace.devices)
                    for frame in trace.frames { try writer.write(frame) }
                    try writer.finish()
                default:
                    try trace.write(to: url, format: format)
                }
                return 0
            }
            let data = try Data(contentsOf: url)
            let writeBaseline = try BenchmarkTiming.fastest(passes: passes) {
                try data.write(to: url)
                return data.count
            }
            let read = try BenchmarkTiming.fastest(passes: passes) {
                switch way {
                case .jsonStreamed:
                    let reader = try TraceReader(contentsOf: url)
                    var events = 0
                    while let frame = try reader.nextFrame() { events += frame.events.count }
                    return events
                default:
                    // The reader's own speed: without the whole-read limits, which keep untrusted files small.
                    return try Trace.load(contentsOf: url, limits: TraceReader.Limits()).eventCount
                }
            }
            guard read.checksum == eventCount else {
                throw BenchmarkFailure(
                    "\(url.path) read back \(read.checksum) events of the \(eventCount) written; the \(way.rawValue) writer or reader is wrong"
                )
            }
            let readBaseline = try BenchmarkTiming.fastest(passes: passes) { try countLines(url) }
            let megabytes = Double(data.count) / 1e6
            rows.append(
                Row(
                    way: way, bytes: data.count, events: read.checksum,
                    writeMegabytesPerSecond: megabytes / write.seconds,
                    writeBaselineMegabytesPerSecond: megabytes / writeBaseline.seconds,
                    readMegabytesPerSecond: megabytes / read.seconds,
                    readBaselineMegabytesPerSecond: megabytes / readBaseline.seconds))
        }
        return rows
    }

    /// The lines of the file at `url`, read in 1 MB chunks: the baseline of reading.
    static func countLines(_ url: URL) throws -> Int {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw BenchmarkFailure("\(url.path): cannot open it again to read the bytes") }
        defer { close(descriptor) }
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var lines = 0
        while true {
            let got = read(descriptor, buffer, chunk)
            guard got > 0 else {
                if got < 0 { throw BenchmarkFailure("\(url.path): reading failed (\(String(cString: strerror(errno))))") }
                return lines
            }
            var start = buffer
            let end = buffer + got
            while start < end, let newline = memchr(start, 0x0A, end - start) {
                lines += 1
                start = UnsafeMutableRawPointer(newline) + 1
            }
        }
    }
}
