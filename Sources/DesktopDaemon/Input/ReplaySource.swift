import Foundation
import GestureTraces
import InputInterception
import TouchInput

/// Replays recorded traces through `GestureReplay` (the decoder and engine
/// a live device feeds), as fast as they can be read, one after another.
public struct ReplaySource: GestureSource {
    /// Where the trace paths come from.
    public enum Paths: Sendable {
        /// These files, in order; a trace that cannot be read is logged and
        /// skipped, and the run throws a ``Failure`` counting them at the end.
        case files([String])
        /// One path per line of standard input, each replayed when its line
        /// arrives, until end of file; a trace that cannot be read (or a line
        /// longer than ``maximumPathBytes``) is logged and skipped, and counted
        /// as with files. Lets a test (or a user) drive the daemon step by step.
        case standardInput
        /// One path per line of `handle`, as ``standardInput`` reads its own.
        case lines(FileHandle)
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
    /// Why a path cannot be replayed (one sentence), or nil when it can be read:
    /// asked of every path, from the arguments and from standard input alike,
    /// before it is opened.
    public var check: @Sendable (String) -> String?
    /// The device description for evemu events without one (`--desc`), or
    /// nil to take the one beside them.
    public var deviceDescription: String?
    /// Whether each trace is replayed at the pace it was recorded (`run
    /// --replay --real-time`: a page watching the daemon sees the touches
    /// move as they did), rather than as fast as it can be read.
    public var realTime: Bool = false

    /// The longest path read from standard input: 4,096 bytes (`PATH_MAX`).
    /// A longer line is reported and skipped without being held.
    public static let maximumPathBytes = 4096

    /// A source replaying `paths`, each checked by `check` first (by default,
    /// only the readers' own checks: a regular file within their limits).
    /// `deviceDescription` is the description evemu events without one use.
    /// With `realTime`, each trace plays at its recorded pace.
    public init(
        _ paths: Paths, check: @escaping @Sendable (String) -> String? = { _ in nil }, deviceDescription: String? = nil,
        realTime: Bool = false
    ) {
        self.paths = paths
        self.check = check
        self.deviceDescription = deviceDescription
        self.realTime = realTime
    }

    /// Replays each trace: its touch devices and mice that the sink accepts,
    /// with the engine setup current when the trace starts (for mice, the
    /// `mouse` settings as ``EngineSetup/pipeline`` gives them; mice only
    /// with a `mouse` section, as live). Whatever could not be replayed is
    /// logged when it is met, and counted in the ``Failure`` thrown at the end.
    public func run(into sink: GestureSink) throws {
        var number = 0
        var failures: [Failure] = []
        func take(_ path: String) {
            if let failure = replay(path, number: number, into: sink) {
                sink.log.write(failure.description)
                failures.append(failure)
            }
            number += 1
        }
        switch paths {
        case .files(let files):
            files.forEach(take)
        case .standardInput, .lines:
            let handle = if case .lines(let handle) = paths { handle } else { FileHandle.standardInput }
            let lines = InputLines(handle, maximumLineBytes: Self.maximumPathBytes)
            while let line = lines.next() {
                switch line {
                case .text(let text):
                    let path = text.trimmingCharacters(in: .whitespaces)
                    if !path.isEmpty { take(path) }
                case .tooLong(let lineNumber):
                    let failure = Failure(
                        description:
                            "cannot replay line \(lineNumber) of standard input: it is longer than \(Self.maximumPathBytes) bytes, the longest path."
                    )
                    sink.log.write(failure.description)
                    failures.append(failure)
                }
            }
        }
        if failures.count == 1 { throw failures[0] }
        if failures.count > 1 {
            throw Failure(description: "\(failures.count) of \(number) traces could not be replayed.", count: failures.count)
        }
    }

    /// A duration in seconds, for `Thread.sleep`.
    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Device ids are `1000 * trace number + device index`, unique over the run.
    private func replay(_ path: String, number: Int, into sink: GestureSink) -> Failure? {
        if let problem = check(path) { return Failure(description: problem) }
        let trace: Trace
        do {
            trace = try Trace.load(
                contentsOf: URL(fileURLWithPath: path), deviceDescription: deviceDescription.map { URL(fileURLWithPath: $0) })
        } catch {
            // A trace error names the file itself: the path is said once.
            var text = (error as? TraceError)?.file != nil ? "cannot replay \(error)" : "cannot replay \(path): \(error)"
            if !text.hasSuffix(".") { text += "." }
            return Failure(description: text)
        }
        let setup = sink.engineSetup()
        let devices = trace.devices.enumerated().map { InputDevice(id: number * 1000 + $0.offset, description: $0.element) }
        let replay = GestureReplay(setup: setup.pipeline)
        // Mice are read only with a `mouse` section, as live.
        let included = Set(
            trace.devices.indices.filter { sink.accepts(devices[$0]) && (setup.mouse != nil || trace.devices[$0].kind != .mouse) })
        // Each mouse's presses that asked for the claims, in order: its stroke is matched with the focus of its press, as live.
        var presses: [Int: [Duration]] = [:]
        let run = replay.run(
            trace,
            including: { index, _ in included.contains(index) },
            // A mouse's press is claimed as live: by the policy, with the focus of its moment.
            claimsButton: { index, time in
                presses[index, default: []].append(time)
                return sink.interceptionPolicy(devices[index], time).claimsMouseStrokes
            }, keepingFrames: sink.watchesFrames())
        let clock = ContinuousClock()
        let start = clock.now
        /// Waits, at the recorded pace, until `time` on the gestures' clock.
        func reach(_ time: Duration) {
            if realTime, start + time > clock.now { Thread.sleep(forTimeInterval: Self.seconds(start + time - clock.now)) }
        }
        // Frames before the gestures they make, strokes in time order among the
        // outputs: a rejected one is logged where it happened.
        var frames = run.frames[...]
        // A recorder is handed the trace's own frames (of the devices replayed), each before what it made.
        var recorded =
            sink.recordsEvents()
            ? trace.frames.filter { included.contains($0.device) && !$0.events.isEmpty }[...] : []
        func deliverFrames(through time: Duration) {
            while let frame = recorded.first {
                let frameTime = EventTime.duration(from: run.originMicroseconds, to: frame.events[0].microseconds)
                guard frameTime <= time else { break }
                reach(frameTime)
                sink.events(frame.events, devices[frame.device], trace.devices[frame.device])
                recorded.removeFirst()
            }
            while let frame = frames.first {
                let frameTime = EventTime.duration(from: run.originMicroseconds, to: frame.value.microseconds)
                guard frameTime <= time else { break }
                reach(frameTime)
                sink.frame(frame.value, frameTime, devices[frame.device], trace.devices[frame.device])
                frames.removeFirst()
            }
        }
        var strokes = run.strokes[...]
        for output in run.outputs {
            deliverFrames(through: output.value.time)
            while let stroke = strokes.first, stroke.value.time < output.value.time {
                sink.strokeDrawn(stroke.value, devices[stroke.device])
                strokes.removeFirst()
            }
            reach(output.value.time)
            switch output.value {
            case .gesture(let event):
                if let press = presses[output.device]?.last(where: { $0 <= event.time }) {
                    _ = sink.interceptionPolicy(devices[output.device], press)  // the focus of the press, for the match
                }
                sink.deliver(event, devices[output.device])
            case .mouse(let decision):
                // As a live mouse's: one log line (the bracket names the trace instead of the node).
                if let line = DaemonLog.line(for: decision, on: "\(devices[output.device].name), \(path)") { sink.log.write(line) }
            }
        }
        deliverFrames(through: .seconds(Int64.max))
        for stroke in strokes { sink.strokeDrawn(stroke.value, devices[stroke.device]) }
        let count = run.gestures.count
        sink.log.write("replayed \(path): \(count) gesture event\(count == 1 ? "" : "s")")
        return nil
    }
}
