import CommandLineKit
import Dispatch
import EvdevInput
import Foundation
import GestureTraces

/// `gestures record`: records a device's events losslessly as a trace (our JSON
/// trace format, `libinput record` YAML or evemu) until Ctrl-C or SIGTERM, then
/// closes the file complete and valid.
enum RecordCommand: Command {
    static let name = "record"
    static let abstract = "Record a device's events losslessly as a trace until Ctrl-C."
    static let discussion = """
        D is a node (/dev/input/event5 or event5) or part of a device name; by default the first
        touchpad, else the first touchscreen. --format json (the default) writes the project's trace
        format (Recordings/README.md), frame by frame; --format libinput writes `libinput record`'s
        YAML and --format evemu writes evemu 1.3, when recording stops. Every format is read back by
        `gestures replay` and `gestures replay --uinput`. Event times are the kernel's, in
        microseconds of CLOCK_MONOTONIC. When the kernel drops events (the reader fell behind),
        the trace holds SYN_DROPPED and then the reader's resync, which a replay treats as the live
        reader did. Ctrl-C or SIGTERM stops recording; the file is then complete.
        """
    static let device = Option("--device", valueName: "D", .text, help: "The device to record (node, eventN, or part of its name).")
    static let output = Option("--output", valueName: "FILE", .file, help: "Write to FILE instead of standard output.", aliases: ["-o"])
    static let format = Option(
        "--format", .choice(TraceFormat.self), default: .json,
        help: "The trace format, libinput record's YAML or evemu.")
    static let frames = Option("--frames", valueName: "N", .integer(in: 1...), help: "Stop after N frames.")
    static let grab = Flag("--grab", help: "Grab the device exclusively while recording (the desktop sees no events).")
    static let options = [device.spec, output.spec, format.spec, frames.spec, grab.spec, InputDevices.directoryOption.spec]

    /// What to record, how, and where to.
    struct Options {
        var device: String?
        var outputPath: String?
        var format: TraceFormat
        var frameLimit: Int?
        var grabs: Bool
        var directory: String
    }

    static func parse(_ arguments: ParsedArguments) -> Options {
        Options(
            device: arguments[device], outputPath: arguments[output], format: arguments[format], frameLimit: arguments[frames],
            grabs: arguments[grab], directory: arguments[InputDevices.directoryOption])
    }

    static func run(_ options: Options) throws -> Int32 {
        let format = options.format
        let frameLimit = options.frameLimit ?? .max
        let device = try InputDevices.choose(options.device, in: options.directory)
        if options.grabs {
            do { try device.setGrabbed(true) } catch { throw CommandFailure(error.description) }
        }
        let outputPath = options.outputPath
        // Through the one output writer: a file appears whole when the recording ends.
        let file = try outputPath.map { (path) throws(OutputFile.WriteError) in try OutputFile.open(path) }
        let output = file?.fileHandle ?? FileHandle.standardOutput
        let destination = outputPath ?? "standard output"

        let reader: EvdevReader
        do { reader = try EvdevReader(devices: [device]) } catch { throw CommandFailure(error.description) }
        let stopSources = StopSignals(waker: reader.waker)
        defer { stopSources.cancel() }

        printError("gestures record: recording \(device.path) (\(device.description.name)); press Ctrl-C to stop.")
        // JSON streams through TraceWriter; the other formats are encoded whole at the end.
        let writer =
            format == .json ? try traceOperation(destination) { try TraceWriter(handle: output, devices: [device.description]) } : nil
        try traceOperation(destination) { try writer?.flush() }
        var kept: [Trace.Frame] = []
        var frames = 0
        var failure: EvdevError?
        /// Keeps the frames of one batch; returns whether recording goes on.
        func take(_ batch: EvdevReader.Batch) throws -> Bool {
            for (_, result) in batch.outputs {
                switch result {
                case .frame, .forwarded, .resynced:
                    if case .resynced = result {
                        printError(
                            "gestures record: events were dropped by the kernel (the reader fell behind); the recording continues after the reader's resync."
                        )
                    }
                    for frame in Trace.frames(splitting: result.traceEvents, device: 0) {
                        if let writer { try traceOperation(destination) { try writer.write(frame) } } else { kept.append(frame) }
                    }
                    frames += 1
                case .removed(let error):
                    failure = error
                case .added:
                    break  // record reads one device and does not watch for others
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
        try file?.commit()
        printError("gestures record: \(counted(frames, "frame")) recorded\(outputPath.map { " to \($0)" } ?? "").")
        if let failure { throw CommandFailure(failure.description + " The recording up to that point is complete") }
        return 0
    }

    /// Runs a trace write, turning its error into one sentence naming the destination.
    private static func traceOperation<T>(_ destination: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch {
            throw CommandFailure("Cannot write the recording to \(destination): \(CommandLineTool.sentence(for: error))")
        }
    }
}
