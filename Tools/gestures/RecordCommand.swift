import Dispatch
import EvdevInput
import Foundation

/// `gestures record`: records a device's events losslessly to a JSON Lines file
/// until Ctrl-C or SIGTERM, then closes the file complete and valid.
enum RecordCommand: Subcommand {
    static let name = "record"
    static let abstract = "Record a device's events losslessly to a JSON Lines file until Ctrl-C."
    static let usage = "[--device D] [-o FILE] [--format json|libinput|evemu] [--frames N]"
    static let discussion = """
        D is a node (/dev/input/event5 or event5) or part of a device name; by default the first
        touchpad, else the first touchscreen. The file starts with a header line (format, version,
        node, device description), then one line per frame: {"time":MICROSECONDS,"events":[[type,code,value],...]},
        with "resynced":true on libevdev's resync after the kernel dropped events.
        --format libinput writes `libinput record`'s YAML and --format evemu writes evemu 1.3, for
        sharing with those tools (times relative to the first frame; resyncs become comments).
        Ctrl-C or SIGTERM stops recording; the file is then complete.
        """
    static let options: [OptionSpec] = [
        .option("--device", "D", "The device to record (node, eventN, or part of its name)."),
        .option("-o", "FILE", "Write to FILE instead of standard output."),
        .option("--output", "FILE", "Same as -o."),
        .option("--format", "FORMAT", "json (default, JSON Lines), libinput or evemu."),
        .option("--frames", "N", "Stop after N frames."),
        .flag("--grab", "Grab the device exclusively while recording (the desktop sees no events)."),
        .option("--dir", "DIR", "The directory of event nodes (default /dev/input)."),
    ]

    static func run(_ arguments: Arguments) throws -> Int32 {
        let format = try arguments.value("--format", default: EvdevRecordingWriter.Format.json, "json, libinput or evemu") {
            EvdevRecordingWriter.Format(rawValue: $0)
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

        let reader: EvdevReader
        do { reader = try EvdevReader(devices: [device]) } catch { throw CommandFailure(error.description) }
        let stopSources = StopSignals(waker: reader.waker)
        defer { stopSources.cancel() }

        printError("gestures record: recording \(device.path) (\(device.info.name)); press Ctrl-C to stop.")
        var writer = EvdevRecordingWriter(format: format, header: EvdevRecording.Header(node: device.path, device: device.info))
        try write(writer.header, to: output, outputPath)
        var frames = 0
        var failure: EvdevError?
        recording: while frames < frameLimit {
            let batch: EvdevReader.Batch
            do { batch = try reader.wait() } catch { failure = error; break }
            var text = ""
            for (_, result) in batch.outputs {
                switch result {
                case .frame(let frame):
                    text += writer.text(for: EvdevRecording.Line(frame: frame))
                    frames += 1
                case .resynced(let frame):
                    text += writer.text(for: EvdevRecording.Line(frame: frame, resynced: true))
                    frames += 1
                    printError("gestures record: events were dropped by the kernel (the reader fell behind); the recording continues after libevdev's resync.")
                case .removed(let error):
                    failure = error
                case .added:
                    break // record reads one device and does not watch for others
                }
                if frames >= frameLimit { break }
            }
            if !text.isEmpty { try write(text, to: output, outputPath) }
            if batch.woken || failure != nil { break recording }
        }
        if outputPath != nil { try? output.close() }
        printError("gestures record: \(frames) frames recorded\(outputPath.map { " to \($0)" } ?? "").")
        if let failure { throw CommandFailure(failure.description + " The recording up to that point is complete") }
        return 0
    }

    private static func write(_ text: String, to output: FileHandle, _ path: String?) throws {
        do {
            try output.write(contentsOf: Data(text.utf8))
        } catch {
            throw CommandFailure("Cannot write the recording to \(path ?? "standard output"): \(error.localizedDescription)")
        }
    }
}

/// SIGINT and SIGTERM, turned into a wake-up of a reader: the signals are
/// ignored by the process and delivered by Dispatch on its own queue, so no
/// work happens in a signal handler.
struct StopSignals {
    private let sources: [any DispatchSourceSignal]

    init(waker: EvdevReader.Waker, signals: [Int32] = [SIGINT, SIGTERM]) {
        let queue = DispatchQueue(label: "gestures.signals")
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { waker.wake() }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
