import EvdevInput
import Foundation
import GestureRecognition
import InputInterception
import Synchronization
import TouchInput

/// Live touchpads and touchscreens, and mice, through `LiveGestures`: every
/// device the configuration's `devices` accept (and those plugged in later),
/// each with the engine setup current when it is opened; runs until
/// ``Stopper/stop()``.
///
/// With `intercepts` and the configuration's `intercept` (both true by
/// default), each device is taken from the desktop: grabbed, with a uinput
/// clone the desktop reads instead, which the claimed gestures never reach
/// (`Interception`, `PassThroughFilter`; Docs/Interception.md). Devices this
/// package made (clones, the virtual keyboard and pointer) are never read.
///
/// When the configuration has a `mouse` section at the start, mice are read
/// too, on the same loop (`DeviceLoop`, one `InterceptedDevice` a device):
/// every mouse the `devices` accept (with `.named`, whose name contains the
/// text; none with `.node`), hotplugged ones included. Each runs through a
/// mouse's `GesturePipeline` built from the `mouse` settings
/// (``EngineSetup/pipeline``), the one a replay of its recording runs: its
/// recognised strokes are delivered as `stroke` events (`source` mouse, no
/// fingers) stamped with the events' own times, and its other decisions
/// (clicks and presses passed on, strokes rejected or cancelled) are log lines.
///
///     let stopper = LiveSource.Stopper()
///     try daemon.run(LiveSource(stopper: stopper))   // until stopper.stop()
public struct LiveSource: GestureSource {
    /// Ends a running ``LiveSource`` from another thread or a signal handler's queue.
    public final class Stopper: Sendable {
        private let state = Mutex<(wakers: [EvdevReader.Waker], stopped: Bool)>(([], false))

        /// A stopper not yet stopped.
        public init() {}

        /// Stops the source: its devices finish (a gesture in progress ends cancelled) and `run` returns.
        public func stop() {
            let wakers = state.withLock { state -> [EvdevReader.Waker] in
                state.stopped = true
                return state.wakers
            }
            for waker in wakers { waker.wake() }
        }

        /// Wakes `waker` (too) on `stop()`, at once if that already happened.
        func attach(_ waker: EvdevReader.Waker) {
            let stopped = state.withLock { state -> Bool in
                state.wakers.append(waker)
                return state.stopped
            }
            if stopped { waker.wake() }
        }
    }

    /// Which devices to read.
    public var selection: LiveGestures.Selection
    /// Where the event nodes are.
    public var directory: String
    /// What ends the run.
    public var stopper: Stopper
    /// Whether devices are taken from the desktop when the configuration's
    /// `intercept` says so too (`gestures run --no-intercept` sets it false).
    public var intercepts: Bool

    /// A source reading `selection` in `directory` until `stopper` stops it.
    public init(
        selection: LiveGestures.Selection = .all, directory: String = "/dev/input", stopper: Stopper,
        intercepts: Bool = true
    ) {
        self.selection = selection
        self.directory = directory
        self.stopper = stopper
        self.intercepts = intercepts
    }

    /// Reads the devices the sink accepts, delivering their gestures, until stopped.
    /// A device that goes away has its gesture cancelled and is reported to the sink.
    ///
    /// - Throws: `EvdevError` when the devices cannot be read at all (permission denied).
    public func run(into sink: GestureSink) throws {
        func input(_ device: LiveGestures.Device) -> InputDevice {
            InputDevice(id: device.id, description: device.description)
        }
        let setup = sink.engineSetup()
        let interception = Interception(enabled: intercepts && setup.intercept, warn: { sink.log.write($0) })
        if !interception.isEnabled {
            sink.log.write(
                "not intercepting: the desktop sees every gesture too (\(intercepts ? "intercept: false in the configuration" : "--no-intercept"))"
            )
        }
        // Mice are read when the configuration has a mouse section at the start, never for one chosen node.
        var kinds = DeviceKinds.touch
        if case .node = selection {} else if setup.mouse != nil { kinds.insert(.mice) }
        let live = try LiveGestures(
            selection: selection, directory: directory, kinds: kinds,
            setup: { device in
                // The settings and templates current now: a reload applies to the devices opened after it.
                let current = sink.engineSetup()
                let isMouse = GesturePipeline.surface(for: device.description) == nil
                if isMouse && current.mouse == nil { return nil }
                guard sink.accepts(input(device)) else {
                    sink.log.write("not reading \(device.node) (\(device.description.name)): the configuration's devices do not match it")
                    return nil
                }
                return current.pipeline
            }, warn: { sink.log.write($0) }, interception: interception, claims: { sink.interceptionPolicy(input($0), nil) },
            watchesFrames: sink.watchesFrames, recordsEvents: sink.recordsEvents)
        let origin = live.originMicroseconds
        stopper.attach(live.waker)
        sink.startedReading()
        if !live.devices.contains(where: { GesturePipeline.surface(for: $0.description) != nil }) {
            sink.log.write("no touchpad or touchscreen to read yet; waiting for one")
        }
        try live.run { output in
            switch output {
            case .opened(let device):
                let clone = device.cloneNode.map { ", intercepted: the desktop reads its clone \($0)" } ?? ""
                sink.log.write("reading \(device.node) (\(device.description.name), \(device.description.kind))\(clone)")
            case .frame(let frame, let device):
                sink.frame(frame, EventTime.duration(from: origin, to: frame.microseconds), input(device), device.description)
            case .events(let events, let device):
                sink.events(events, input(device), device.description)
            case .gesture(let event, let device):
                sink.deliver(event, input(device))
            case .stroke(let stroke, let device):
                sink.strokeDrawn(stroke, input(device))
            case .decision(let decision, let device):
                if let line = DaemonLog.line(for: decision, on: "\(device.description.name), \(device.node)") { sink.log.write(line) }
            case .handOver:
                break
            case .removed(let device, let error):
                sink.log.write(error.description)
                sink.deviceRemoved(input(device))
            }
            return true
        }
    }
}
