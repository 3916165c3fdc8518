import Dispatch
import EvdevInput
import Foundation
import GestureTraces

/// `gestures record`: records a device's events losslessly as a trace (our JSON
/// trace format, `libinput record` YAML or evemu) until Ctrl-C or SIGTERM, then
/// closes the file complete and valid.
enum RecordCommand: Subcommand {
    static let name = "record"
    static let abstract = "Record a device's events losslessly as a trace until Ctrl-C."
    static let usage = "[--device D] [-o FILE] [--format json|libinput|evemu] [--frames N] [--grab]"
    static let discussion = """
        D is a node (/dev/input/event5 or event5) or part of a device name; by default the first
        touchpad, else the first touchscreen. --format json (the default) writes the project's trace
        format (Recordings/README.md), frame by frame; --format libinput writes `libinput record`'s
        YAML and --format evemu writes evemu 1.3, when recording stops. Every format is read back by
        `gestures replay` and `gestures replay --uinput`. Event times are the kernel's, in
        microseconds of CLOCK_MONOTONIC. When the kernel drops events (the reader fell behind),
        the trace holds SYN_DROPPED and then libevdev's resync, which a replay treats as the live
        reader did. Ctrl-C or SIGTERM stops recording; the file is then complete.
        """
    static let options: [OptionSpec] = [
        .option("--device", "D", "The device to record (node, eventN, or part of its name)."),
        .option("-o", "FILE", "Write to FILE instead of standard output."),
        .option("--output", "FILE", "Same as -o."),
        .option("--format", "FORMAT", "json (default, the trace format), libinput or evemu."),
        .option("--frames", "N", "Stop after N frames."),
        .flag("--grab", "Grab the device exclusively while recording (the desktop sees no events)."),
        .option("--dir", "DIR", "The directory of event nodes (default /dev/input)."),
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        let format = try arguments.value("--format", default: TraceFormat.json, "json, libinput or evemu") {
            TraceFormat(rawValue: $0)
        }
        let frameLimit = try arguments.value("--frames", default: Int.max, "a positive number") { Int($0).flatMap { $0 > 0 ? $0 : nil } }
        let directory = arguments.value("--dir") ?? InputDevices.defaultDirectory
        let device = try InputDevices.choose(arguments.value("--device"), in: directory)
        if arguments.flag("--grab") {
            do { try device.setGrabbed(true) } catch { throw CommandFailure(error.description) }
        }
        let outputPath = arguments.value("-o") ?? arguments.value("--output")
        let output: FileHandle
        if let outputPath {
            guard FileManager.default.createFile(atPath: outputPath, contents: nil),
                  let handle = FileHandle(forWritingAtPath: outputPath) else {
                throw CommandFailure("Cannot create \(outputPath)")
            }
            output = handle
        } else {
            output = FileHandle.standardOutput
        }
        let destination = outputPath ?? "standard output"

        let reader: EvdevReader
        do { reader = try EvdevReader(devices: [device]) } catch { throw CommandFailure(error.description) }
        let stopSources = StopSignals(waker: reader.waker)
        defer { stopSources.cancel() }

        printError("gestures record: recording \(device.path) (\(device.description.name)); press Ctrl-C to stop.")
        // JSON streams through TraceWriter; the other formats are encoded whole at the end.
        let writer = format == .json ? try traceOperation(destination) { try TraceWriter(handle: output, devices: [device.description]) } : nil
        try traceOperation(destination) { try writer?.flush() }
        var kept: [Trace.Frame] = []
        var frames = 0
        var failure: EvdevError?
        /// Keeps the frames of one batch; returns whether recording goes on.
        func take(_ batch: EvdevReader.Batch) throws -> Bool {
            for (_, result) in batch.outputs {
                switch result {
                case .frame, .resynced:
                    if case .resynced = result {
                        printError("gestures record: events were dropped by the kernel (the reader fell behind); the recording continues after libevdev's resync.")
                    }
                    for frame in Trace.frames(splitting: result.traceEvents, device: 0) {
                        if let writer { try traceOperation(destination) { try writer.write(frame) } } else { kept.append(frame) }
                    }
                    frames += 1
                case .removed(let error):
                    failure = error
                case .added:
                    break // record reads one device and does not watch for others
                }
                if frames >= frameLimit { return false }
            }
            try traceOperation(destination) { try writer?.flush() }
            return !batch.woken && failure == nil
        }
        recording: while frames < frameLimit {
            let batch: EvdevReader.Batch
            do { batch = try reader.wait() } catch { failure = error; break }
            guard try take(batch) else { break recording }
        }
        // Stopped by a signal: what the device sent before it is already
        // queued in the kernel; keep it too, so nothing written is lost.
        while failure == nil && frames < frameLimit {
            let queued: EvdevReader.Batch
            do { queued = try reader.wait(timeout: .zero) } catch { break }
            guard !queued.outputs.isEmpty else { break }
            _ = try take(queued)
        }
        if let writer {
            try traceOperation(destination) { try writer.finish() }
        } else {
            let data = try traceOperation(destination) { try Trace(devices: [device.description], frames: kept).encoded(as: format) }
            do { try output.write(contentsOf: data) } catch {
                throw CommandFailure("Cannot write the recording to \(destination): \(error.localizedDescription)")
            }
        }
        if outputPath != nil { try? output.close() }
        printError("gestures record: \(frames) frames recorded\(outputPath.map { " to \($0)" } ?? "").")
        if let failure { throw CommandFailure(failure.description + " The recording up to that point is complete") }
        return 0
    }

    /// Runs a trace write, turning its error into one sentence naming the destination.
    private static func traceOperation<T>(_ destination: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch {
            throw CommandFailure("Cannot write the recording to \(destination): \(sentence(for: error))")
        }
    }
}

/// SIGINT and SIGTERM, turned into a wake-up of a reader: the signals are
/// ignored by the process and delivered by Dispatch on its own queue, so no
/// work happens in a signal handler.
struct StopSignals {
    private let sources: [any DispatchSourceSignal]

    init(waker: EvdevReader.Waker, signals: [Int32] = [SIGINT, SIGTERM]) {
        self.init(signals: signals) { waker.wake() }
    }

    init(signals: [Int32] = [SIGINT, SIGTERM], _ action: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "gestures.signals")
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { action() }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
