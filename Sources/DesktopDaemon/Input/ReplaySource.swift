import Foundation
import GestureTraces
import TouchInput

/// Replays recorded traces through ``GestureReplay`` (the decoder and engine
/// a live device feeds), as fast as they can be read, one after another.
public struct ReplaySource: GestureSource {
    /// Where the trace paths come from.
    public enum Paths: Sendable {
        /// These files, in order; a trace that cannot be read is logged and
        /// skipped, and the run throws a ``Failure`` counting them at the end.
        case files([String])
        /// One path per line of standard input, each replayed when its line
        /// arrives, until end of file; a trace that cannot be read is logged
        /// and skipped. Lets a test (or a user) drive the daemon step by step.
        case standardInput
    }

    /// Traces that could not be read (each was logged when it was skipped).
    public struct Failure: Error, CustomStringConvertible {
        /// One sentence saying which and why.
        public var description: String
        /// How many traces could not be read.
        public var count: Int = 1
    }

    /// Where the trace paths come from.
    public var paths: Paths

    /// A source replaying `paths`.
    public init(_ paths: Paths) {
        self.paths = paths
    }

    /// Replays each trace: its touch devices and mice that the sink accepts,
    /// with the engine setup current when the trace starts (for mice, the
    /// `mouse` settings as ``EngineSetup/pipeline`` gives them; mice only
    /// with a `mouse` section, as live).
    public func run(into sink: GestureSink) throws {
        var number = 0
        switch paths {
        case .files(let files):
            var failures: [Failure] = []
            for path in files {
                if let failure = replay(path, number: number, into: sink) {
                    sink.log.write(failure.description)
                    failures.append(failure)
                }
                number += 1
            }
            if failures.count == 1 { throw failures[0] }
            if failures.count > 1 {
                throw Failure(description: "\(failures.count) of \(files.count) traces could not be replayed.", count: failures.count)
            }
        case .standardInput:
            while let line = readLine() {
                let path = line.trimmingCharacters(in: .whitespaces)
                guard !path.isEmpty else { continue }
                if let failure = replay(path, number: number, into: sink) { sink.log.write(failure.description) }
                number += 1
            }
        }
    }

    /// Device ids are `1000 * trace number + device index`, unique over the run.
    private func replay(_ path: String, number: Int, into sink: GestureSink) -> Failure? {
        let trace: Trace
        do { trace = try Trace.load(contentsOf: URL(fileURLWithPath: path)) } catch {
            var text = "cannot replay \(path): \(error)"
            if !text.hasSuffix(".") { text += "." }
            return Failure(description: text)
        }
        let setup = sink.engineSetup()
        let devices = trace.devices.enumerated().map { InputDevice(id: number * 1000 + $0.offset, description: $0.element) }
        let replay = GestureReplay(setup: setup.pipeline)
        var count = 0
        for output in replay.deviceOutputs(in: trace, including: { index, device in
            // Mice are read only with a `mouse` section, as live.
            sink.accepts(devices[index]) && (setup.mouse != nil || device.kind != .mouse)
        }) {
            switch output.output {
            case .gesture(let event):
                sink.deliver(event, devices[output.device])
                count += 1
            case .mouse(let decision):
                // As a live mouse's: one log line (the bracket names the trace instead of the node).
                if let line = DaemonLog.line(for: decision, on: "\(devices[output.device].name), \(path)") { sink.log.write(line) }
            }
        }
        sink.log.write("replayed \(path): \(count) gesture event\(count == 1 ? "" : "s")")
        return nil
    }
}
