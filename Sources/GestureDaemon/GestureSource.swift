import Foundation
import GestureRecognition
import GestureTraces
import TouchInput

/// Where the daemon's gestures come from: live evdev devices (``LiveSource``),
/// a replay of recorded traces (``ReplaySource``), or anything a closure
/// produces. A source runs on the caller's thread until its input ends.
public protocol GestureSource: Sendable {
    /// Reads input and hands every gesture to `sink`, until the input ends.
    ///
    /// A source asks ``GestureSink/accepts`` before it reads a device, and
    /// ``GestureSink/engineSetup`` for the engine of each device it opens,
    /// so a reload applies to the devices opened after it.
    func run(into sink: GestureSink) throws
}

/// The engine's configuration and stroke templates, for a source to build
/// the gesture engine of each device it opens.
public struct EngineSetup: Sendable {
    /// The thresholds and sequences.
    public var configuration: GestureEngine.Configuration
    /// The templates strokes are recognised against.
    public var templates: TemplateLibrary
    /// Mouse gestures, or nil when mice are not read.
    public var mouse: DaemonConfiguration.MouseSettings?

    /// A setup with these parts.
    public init(configuration: GestureEngine.Configuration, templates: TemplateLibrary,
                mouse: DaemonConfiguration.MouseSettings? = nil) {
        self.configuration = configuration
        self.templates = templates
        self.mouse = mouse
    }

    /// What each device's gesture pipeline is built with.
    public var pipeline: GesturePipeline.Setup {
        GesturePipeline.Setup(configuration: configuration, templates: templates)
    }
}

/// What a ``GestureSource`` hands its gestures to.
public struct GestureSink: Sendable {
    /// Whether the configuration's device matchers take `device`.
    public var accepts: @Sendable (_ device: InputDevice) -> Bool
    /// The engine setup for a device opened now.
    public var engineSetup: @Sendable () -> EngineSetup
    /// Takes one gesture event from `device`.
    public var deliver: @Sendable (_ event: GestureEvent, _ device: InputDevice) -> Void
    /// Told that `device` went away (after its cancelled gesture was delivered),
    /// so what the daemon keeps for it can be forgotten.
    public var deviceRemoved: @Sendable (_ device: InputDevice) -> Void
    /// The daemon's log, for a source's own notes (a trace that cannot be read).
    public var log: DaemonLog

    /// A sink from its parts.
    public init(
        accepts: @escaping @Sendable (InputDevice) -> Bool,
        engineSetup: @escaping @Sendable () -> EngineSetup,
        deliver: @escaping @Sendable (GestureEvent, InputDevice) -> Void,
        deviceRemoved: @escaping @Sendable (InputDevice) -> Void = { _ in },
        log: DaemonLog
    ) {
        self.accepts = accepts
        self.engineSetup = engineSetup
        self.deliver = deliver
        self.deviceRemoved = deviceRemoved
        self.log = log
    }
}

/// A source whose whole work is a closure: for tests, and for wiring a new
/// input without a type of its own.
///
///     let source = ClosureGestureSource { sink in
///         sink.deliver(GestureEvent(type: .tap, time: .zero, fingers: 3), InputDevice(id: 0, name: "test"))
///     }
public struct ClosureGestureSource: GestureSource {
    private let body: @Sendable (GestureSink) throws -> Void

    /// A source running `body`.
    public init(_ body: @escaping @Sendable (GestureSink) throws -> Void) {
        self.body = body
    }

    /// Runs the closure.
    public func run(into sink: GestureSink) throws { try body(sink) }
}

/// Replays recorded traces through ``GestureReplay`` (the decoder and engine
/// a live device feeds), as fast as they can be read, one after another.
public struct ReplaySource: GestureSource {
    /// Where the trace paths come from.
    public enum Paths: Sendable {
        /// These files, in order; a trace that cannot be read stops the replay.
        case files([String])
        /// One path per line of standard input, each replayed when its line
        /// arrives, until end of file; a trace that cannot be read is logged
        /// and skipped. Lets a test (or a user) drive the daemon step by step.
        case standardInput
    }

    /// A trace that could not be read.
    public struct Failure: Error, CustomStringConvertible {
        /// One sentence saying which and why.
        public var description: String
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
            for path in files {
                if let failure = replay(path, number: number, into: sink) { throw failure }
                number += 1
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
        for gesture in replay.deviceGestures(in: trace, including: { index, _ in sink.accepts(devices[index]) }) {
            sink.deliver(gesture.event, devices[gesture.device])
            count += 1
        }
        sink.log.write("replayed \(path): \(count) gesture events")
        return nil
    }
}
