import EvdevInput
import GestureRecognition
import Synchronization

/// Live touchpads and touchscreens through `LiveGestures`: every touch device
/// the configuration's `devices` accept (and those plugged in later), each
/// with the engine setup current when it is opened; runs until ``Stopper/stop()``.
///
///     let stopper = LiveSource.Stopper()
///     try daemon.run(LiveSource(stopper: stopper))   // until stopper.stop()
public struct LiveSource: GestureSource {
    /// Ends a running ``LiveSource`` from another thread or a signal handler's queue.
    public final class Stopper: Sendable {
        private let state = Mutex<(waker: EvdevReader.Waker?, stopped: Bool)>((nil, false))

        /// A stopper not yet stopped.
        public init() {}

        /// Stops the source: its devices finish (a gesture in progress ends cancelled) and `run` returns.
        public func stop() {
            let waker = state.withLock { state -> EvdevReader.Waker? in
                state.stopped = true
                return state.waker
            }
            waker?.wake()
        }

        /// Wakes `waker` on `stop()`, at once if that already happened.
        func attach(_ waker: EvdevReader.Waker) {
            let stopped = state.withLock { state -> Bool in
                state.waker = waker
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

    /// A source reading `selection` in `directory` until `stopper` stops it.
    public init(selection: LiveGestures.Selection = .touchDevices, directory: String = "/dev/input", stopper: Stopper) {
        self.selection = selection
        self.directory = directory
        self.stopper = stopper
    }

    /// Reads the devices the sink accepts, delivering their gestures, until stopped.
    /// A device that goes away has its gesture cancelled and is reported to the sink.
    ///
    /// - Throws: `EvdevError` when the devices cannot be read at all (permission denied).
    public func run(into sink: GestureSink) throws {
        func input(_ device: LiveGestures.Device) -> InputDevice {
            InputDevice(id: device.id, description: device.description)
        }
        let live = try LiveGestures(selection: selection, directory: directory, setup: { device in
            guard sink.accepts(input(device)) else {
                sink.log.write("not reading \(device.node) (\(device.description.name)): the configuration's devices do not match it")
                return nil
            }
            let setup = sink.engineSetup()
            return LiveGestures.Setup(configuration: setup.configuration, templates: setup.templates)
        }, warn: { sink.log.write($0) })
        stopper.attach(live.waker)
        if live.devices.isEmpty { sink.log.write("no touchpad or touchscreen to read yet; waiting for one") }
        try live.run { output in
            switch output {
            case .opened(let device):
                sink.log.write("reading \(device.node) (\(device.description.name), \(device.description.kind))")
            case .gesture(let event, let device):
                sink.deliver(event, input(device))
            case .removed(let device, let error):
                sink.log.write(error.description)
                sink.deviceRemoved(input(device))
            }
            return true
        }
    }
}
