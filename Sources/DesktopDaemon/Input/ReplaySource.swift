import Foundation
import GestureTraces

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

    /// Replays each trace: its touch devices that the sink accepts, with the
    /// engine setup current when the trace starts.
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
        let run = replay.run(trace, including: { index, _ in sink.accepts(devices[index]) })
        // Strokes in time order among the gestures: a rejected one is logged where it happened.
        var strokes = run.strokes[...]
        for gesture in run.gestures {
            while let stroke = strokes.first, stroke.stroke.time < gesture.event.time {
                sink.strokeDrawn(stroke.stroke, devices[stroke.device])
                strokes.removeFirst()
            }
            sink.deliver(gesture.event, devices[gesture.device])
        }
        for stroke in strokes { sink.strokeDrawn(stroke.stroke, devices[stroke.device]) }
        let count = run.gestures.count
        sink.log.write("replayed \(path): \(count) gesture event\(count == 1 ? "" : "s")")
        return nil
    }
}
