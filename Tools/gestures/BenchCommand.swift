import CommandLineKit
import Foundation
import GestureBenchmarks
import GestureRecognition
import GestureTraces
import TouchInput

/// `gestures bench`: every speed and memory figure of the package, each
/// beside a baseline measured in the same run. The measuring is
/// GestureBenchmarks'; this command picks the input and prints the figures.
enum BenchCommand: Command {
    static let name = "bench"
    static let abstract = "Measure the decoder, engine, trace formats, recognizer and memory against same-run baselines."
    static let discussion = """
        Sections (all by default; --only picks some):
          pipeline     kernel events -> MultitouchDecoder -> GestureEngine (GesturePipeline), on
                       generated mixed gestures on the Synaptics RMI4 pad (rmi4.jsonl of --devices),
                       in events/s and frames/s beside a loop that only reads and sums the same
                       events; heap allocations per frame in steady state.
          traces       writing and reading a trace per format (JSON whole and streamed, evemu,
                       libinput YAML) in MB/s, beside writing the same bytes and reading them back
                       split into lines.
          recognition  one recognize call per matcher against 16, 160 and 1,600 templates, beside
                       resampling the candidate alone.
          memory       peak resident memory streaming a generated JSON trace (--trace-size MB,
                       1000 by default) through the pipeline.
          begin-delay  frames from the fingers passing a threshold to the swipe or pinch begin,
                       over the traces of --recordings.
          forwarding   one-finger motion on the RMI4 pad through an intercepting DeviceLoop over
                       in-memory devices (3-finger swipes claimed): ns per frame, ns from the read
                       to the clone's write, allocations per frame, beside copying each frame to
                       the writer (a plain forwarder's work) and InterceptedDevice alone.
        Each figure is the fastest of --passes passes. Progress goes to standard error.
        Build with 'swift build -c release': a debug build is 10-50 times slower.
        """

    /// The parts of the benchmark, in the order they run.
    enum Section: String, CaseIterable, Sendable {
        case pipeline, traces, recognition, memory
        case beginDelay = "begin-delay"
        case forwarding
    }

    static let format = OutputFormat.option(default: .text, help: "A readable table, or one JSON document.")
    static let quick = Flag("--quick", help: "A short run (seconds; figures are rough): fewer frames, a 4 MB trace, one pass.")
    static let only = Option("--only", valueName: "SECTION", ValueParser<Section>.choice(), help: "Run only this section (repeatable).")
        .repeated()
    static let frames = Option(
        "--frames", valueName: "N", .integer(in: 1000...10_000_000),
        help: "Frames of generated input for the pipeline, held in memory (default 1000000; --quick 20000).")
    static let traceFrames = Option(
        "--trace-frames", valueName: "N", .integer(in: 100...1_000_000),
        help: "Frames of the trace each format writes and reads (default 100000; --quick 2000).")
    static let traceSize = Option(
        "--trace-size", valueName: "MB", .integer(in: 1...100_000),
        help: "Size of the streamed trace of the memory section (default 1000; --quick 4).")
    static let passes = Option(
        "--passes", valueName: "N", .integer(in: 1...100), help: "Timed passes; the fastest counts (default 3; --quick 1).")
    static let recordings = Option(
        "--recordings", valueName: "DIR", .directory, default: "Recordings/synthetic",
        help: "Traces to measure the begin delay on.")
    static let temporary = Option(
        "--temporary-directory", valueName: "DIR", .directory,
        help: "Where to write the traces (default: the system's temporary folder).")
    static let options = [
        format.spec, quick.spec, only.spec, frames.spec, traceFrames.spec, traceSize.spec, passes.spec,
        recordings.spec, DeviceFiles.option.spec, temporary.spec,
    ]

    /// What to run, and how much.
    struct Options {
        var format: OutputFormat
        var quick: Bool
        var sections: [Section]
        var frames: Int
        var traceFrames: Int
        var traceMegabytes: Int
        var passes: Int
        var recognitionCandidates: Int
        var recordings: String
        var devices: String?
        var temporary: String?
    }

    static func parse(_ arguments: ParsedArguments) -> Options {
        let isQuick = arguments[quick]
        let chosen = arguments[only]
        return Options(
            format: arguments[format], quick: isQuick,
            sections: chosen.isEmpty ? Section.allCases : Section.allCases.filter(chosen.contains),
            frames: arguments[frames] ?? (isQuick ? 20_000 : 1_000_000),
            traceFrames: arguments[traceFrames] ?? (isQuick ? 2_000 : 100_000),
            traceMegabytes: arguments[traceSize] ?? (isQuick ? 4 : 1_000),
            passes: arguments[passes] ?? (isQuick ? 1 : 3),
            recognitionCandidates: isQuick ? 4 : 160,
            recordings: arguments[recordings], devices: arguments[DeviceFiles.option], temporary: arguments[temporary])
    }

    /// The device file of the Synaptics RMI4 TM3053 (97 x 53 mm, 5 slots).
    static let deviceName = "rmi4"

    static func run(_ options: Options) throws -> Int32 {
        if options.sections.contains(.pipeline) || options.sections.contains(.forwarding) { rerunCountingAllocations() }
        // Only the sections that use the device read its description.
        let usesDevice = options.sections.contains { [.pipeline, .traces, .memory, .forwarding].contains($0) }
        let device = usesDevice ? try DeviceFiles(directory: options.devices).device(deviceName) : DeviceDescription(name: "")
        // The traces go into a private folder (mkdtemp), removed at the end and on SIGINT or SIGTERM.
        var folder: TemporaryFolder?
        if options.sections.contains(.traces) || options.sections.contains(.memory) {
            let parent = URL(fileURLWithPath: options.temporary ?? FileManager.default.temporaryDirectory.path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandFailure(
                    "\(parent.path): no such folder to write the benchmark's traces in; give one with --temporary-directory DIR")
            }
            do { folder = try TemporaryFolder(in: parent) } catch { throw CommandFailure(error.description) }
        }
        let stops =
            folder.map { folder in
                [(SIGINT, 130), (SIGTERM, 143)].map { signal, status in
                    StopSignals(signals: [signal]) { [folder] in
                        folder.remove()
                        printError("bench: interrupted; removed \(folder.url.path) and what it held")
                        _exit(Int32(status))
                    }
                }
            } ?? []
        defer {
            stops.forEach { $0.cancel() }
            folder?.remove()
        }
        let directory = folder?.url ?? FileManager.default.temporaryDirectory
        #if DEBUG
            printError("bench: this is a debug build; build with 'swift build -c release' for figures worth quoting")
        #endif
        let progress: (String) -> Void = { printError("bench: " + $0) }
        var report = Report(machine: .current, quick: options.quick, passes: options.passes)

        for section in options.sections {
            switch section {
            case .pipeline:
                guard
                    let result = PipelineBenchmark.run(
                        device: device, frameCount: options.frames,
                        passes: options.passes, progress: progress)
                else {
                    throw CommandFailure(
                        "The device in \(deviceName).jsonl is not a multitouch pad with slots; the benchmark needs the RMI4 touchpad")
                }
                report.pipeline = result
            case .traces:
                report.traces = try TraceFormatBenchmark.run(
                    device: device, frameCount: options.traceFrames,
                    passes: options.passes, directory: directory, progress: progress)
            case .recognition:
                report.recognition = RecognitionBenchmark.run(
                    candidates: options.recognitionCandidates,
                    passes: options.passes, progress: progress)
            case .memory:
                report.memory = try StreamingMemoryBenchmark.run(
                    device: device, targetBytes: options.traceMegabytes * 1_000_000,
                    directory: directory, progress: progress)
            case .beginDelay:
                report.beginDelay = try beginDelays(in: options.recordings)
            case .forwarding:
                progress("forwarding (\(options.frames / 10) frames, \(options.passes) passes)")
                guard let result = ForwardingBenchmark.run(device: device, frameCount: options.frames / 10, passes: options.passes) else {
                    throw CommandFailure(
                        "The device in \(deviceName).jsonl is not a multitouch pad with slots; the benchmark needs the RMI4 touchpad")
                }
                report.forwarding = result
            }
        }
        print(options.format == .json ? report.json : report.text)
        return 0
    }

    /// Marks the run that ``rerunCountingAllocations()`` started, so that it does not start another.
    static let preloadedMarker = "GESTURES_BENCH_PRELOADED"

    /// Runs this command again, in place of this process, with the
    /// allocation-counting library preloaded, when it is beside the
    /// executable (`swift build` puts it there) and not loaded yet. Returns
    /// only when it cannot: the run goes on, without allocation counts.
    static func rerunCountingAllocations() {
        let environment = ProcessInfo.processInfo.environment
        guard !AllocationCounter.isAvailable else { return }
        guard environment[preloadedMarker] == nil, let library = AllocationCounter.library() else {
            printError("bench: allocations are not counted (no \(AllocationCounter.libraryName) loaded; build it with 'swift build')")
            return
        }
        var changed = environment
        let preload = AllocationCounter.preloadVariable
        changed[preload] = [library.path, environment[preload]].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ":")
        changed[preloadedMarker] = "1"
        let variables = changed.map { strdup("\($0.key)=\($0.value)") } + [nil]
        execve("/proc/self/exe", CommandLine.unsafeArgv, variables)
        printError("bench: allocations are not counted (cannot preload \(library.path): \(String(cString: strerror(errno))))")
    }

    /// The begin delays over every trace in `directory`.
    static func beginDelays(in directory: String) throws -> [BeginDelayBenchmark.Summary] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("\(directory): no such folder of recordings; give one with --recordings DIR")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".jsonl") && !$0.hasSuffix(".expected.jsonl") }.sorted()
        let progress = Progress("bench: begin delay", total: names.count, unit: "recordings")
        var delays: [BeginDelayBenchmark.Delay] = []
        for name in names {
            delays += BeginDelayBenchmark.measure(try Trace.load(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(name)))
            progress.advance()
        }
        progress.finish()
        return BeginDelayBenchmark.summarize(delays)
    }
}
