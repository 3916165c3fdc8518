import SystemCalls
import TouchInput

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Reads frames from several evdev devices at once, blocking in `poll()` while
/// idle (no CPU use), until events arrive or another thread wakes it.
///
/// Frames are `[InputEvent]` ending in their `SYN_REPORT`, each event with the
/// kernel's time (CLOCK_MONOTONIC, see `EvdevDevice`) in microseconds. The
/// nodes are read with `read(2)` into a buffer of `struct input_event`
/// (below libevdev, which reads only the description); a frame split across
/// reads is handed out once its `SYN_REPORT` arrives.
/// After `SYN_DROPPED` (the kernel's buffer for this client overflowed), the
/// events up to the next `SYN_REPORT` are discarded, the device's state is
/// read from the kernel, and the difference from the state the frames handed
/// out left is delivered as one `.resynced` frame; a gesture in progress
/// should end cancelled.
/// An intercepted device's frames of motion alone may go to its clone as
/// they are read, before anything else (`.forwarded`, see ``Output``).
/// A device that disappears is reported once as `.removed(.deviceGone)`
/// and dropped from the reader; the others keep going.
/// With `watchForNewDevices(in:)`, nodes that appear later are opened, added
/// and reported as `.added`.
///
///     let reader = try EvdevReader(devices: [try EvdevDevice(path: "/dev/input/event5")])
///     while case let batch = try reader.wait(), !batch.woken {
///         for (device, output) in batch.outputs { print(device.path, output.traceEvents.count) }
///     }
public final class EvdevReader {
    /// What the reader delivers for one device.
    public enum Output: Hashable, Sendable {
        /// A complete frame: its events, the last one the `SYN_REPORT`.
        case frame([InputEvent])
        /// A complete frame of motion alone (no `EV_KEY`, no
        /// `ABS_MT_TRACKING_ID`) that the reader already wrote to the
        /// device's clone, verbatim, as it read it: the interception armed
        /// the device for it (`EvdevDevices.forwardMotion(_:of:)`). Only an
        /// intercepted device's reader hands these out.
        case forwarded([InputEvent])
        /// The resync after `SYN_DROPPED`: events that bring the state up to
        /// date, as one frame ending in `SYN_REPORT`. Events were lost; cancel what
        /// was in progress.
        case resynced([InputEvent])
        /// The device failed (usually `.deviceGone`) and was removed from the reader.
        case removed(EvdevError)
        /// A new event node appeared in the watched directory and is now read
        /// (see `watchForNewDevices(in:)`); remove it if it is not wanted.
        case added
    }

    /// What one `wait` returns.
    public struct Batch {
        /// The outputs in the order they were read, each with its device.
        public var outputs: [(device: EvdevDevice, output: Output)]
        /// Whether `Waker.wake()` was called since the last wait.
        public var woken: Bool
    }

    /// Wakes a reader blocked in `wait` from another thread (or a signal source).
    /// Writing one byte to a pipe is all it does, so it is safe anywhere.
    public struct Waker: Sendable {
        let fileDescriptor: Int32

        /// Makes the reader's current or next `wait` return with `woken == true`.
        /// The corresponding C function is `write`.
        public func wake() {
            var byte: UInt8 = 1
            _ = write(fileDescriptor, &byte, 1)
        }
    }

    /// The devices being read.
    public private(set) var devices: [EvdevDevice]
    /// The waker of this reader.
    public let waker: Waker

    private let wakeReadFD: Int32
    private var hotplug: (fileDescriptor: Int32, directory: String)?

    /// Creates a reader over `devices` (more can be added later).
    /// The corresponding C function is `pipe`.
    public init(devices: [EvdevDevice] = []) throws(EvdevError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw EvdevError.system(errno: errno, operation: "create the wake pipe for", path: "the reader")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        self.wakeReadFD = fds[0]
        self.waker = Waker(fileDescriptor: fds[1])
        self.devices = devices
    }

    deinit {
        if let hotplug { close(hotplug.fileDescriptor) }
        close(wakeReadFD)
        close(waker.fileDescriptor)
    }

    /// Adds a device to read from.
    public func add(_ device: EvdevDevice) {
        devices.append(device)
        pollSet = nil
    }

    /// Stops reading `device`.
    public func remove(_ device: EvdevDevice) {
        devices.removeAll { $0 === device }
        pollSet = nil
        unfinished.removeAll { $0 === device }
    }

    /// Watches `directory` for new `eventN` nodes: each one that can be opened is
    /// added to the reader and reported by `wait` as `.added`. A node that cannot be
    /// opened yet (udev has not set its permissions) is tried again when its
    /// attributes change.
    /// The corresponding C functions are `inotify_init1` and `inotify_add_watch`.
    public func watchForNewDevices(in directory: String = "/dev/input") throws(EvdevError) {
        guard hotplug == nil else { return }
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw EvdevError(errno: errno, operation: "watch", path: directory) }
        guard inotify_add_watch(fd, directory, UInt32(IN_CREATE | IN_ATTRIB | IN_MOVED_TO)) >= 0 else {
            let code = errno
            close(fd)
            if code == ENOENT { throw .noInputDevices(directory: directory, exists: false) }
            throw EvdevError(errno: code, operation: "watch", path: directory)
        }
        hotplug = (fd, directory)
        pollSet = nil
    }

    /// Blocks until at least one device has events, the waker is woken, or `timeout`
    /// passes (nil: wait forever); returns what was read, at most one frame a
    /// device: a frame is handed out as soon as its `SYN_REPORT` is read.
    ///
    /// A device whose frame ended a read may have more queued (one `read`
    /// takes several frames when the kernel has them), so the next `wait`
    /// reads those devices first, without `poll`, and polls only once they
    /// are empty. The read that finds a device empty (`EAGAIN`) so comes
    /// after the frame was handed out, not before: a forwarder's write is not
    /// kept waiting for it.
    ///
    /// An empty batch that is not `woken` means the timeout passed: wake-ups that
    /// complete no frame (half a frame, a new node that cannot be opened yet) do
    /// not return.
    /// The corresponding C functions are `poll` and `read` (and `write` for a forwarded frame).
    public func wait(timeout: Duration? = nil) throws(EvdevError) -> Batch {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        while true {
            if !unfinished.isEmpty {
                let batch = drainUnfinished()
                if !batch.outputs.isEmpty { return batch }
            }
            let remaining = deadline.map { max(Duration.zero, $0 - clock.now) }
            let (batch, anyReady) = try waitOnce(timeout: remaining)
            if !batch.outputs.isEmpty || batch.woken || !anyReady { return batch }
            if let deadline, clock.now >= deadline { return batch }
        }
    }

    /// The devices whose latest read ended at a frame's end rather than at
    /// `EAGAIN`: their buffers, or the kernel's, may hold more events.
    private var unfinished: [EvdevDevice] = []

    /// The next frame of each device in `unfinished`, or its end: those that
    /// reach `EAGAIN` leave it.
    private func drainUnfinished() -> Batch {
        var batch = Batch(outputs: [], woken: false)
        let devices = unfinished
        unfinished = []
        for device in devices {
            if let output = drain(device) {
                batch.outputs.append((device, output))
                if case .removed = output { remove(device) }
            }
        }
        return batch
    }

    /// What `poll` watches, kept between waits (nil when the devices or the
    /// hotplug watch changed). Layout: the wake pipe, then every device, then
    /// the hotplug watch if any.
    private var pollSet: [pollfd]?

    /// The poll set for the current devices and hotplug watch.
    private func currentPollSet() -> [pollfd] {
        if let pollSet { return pollSet }
        var made = [pollfd(fd: wakeReadFD, events: Int16(POLLIN), revents: 0)]
        made += devices.map { pollfd(fd: $0.fileDescriptor, events: Int16(POLLIN), revents: 0) }
        if let hotplug { made.append(pollfd(fd: hotplug.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
        return made
    }

    /// One poll and everything it made readable; `anyReady` is false when poll timed out.
    private func waitOnce(timeout: Duration?) throws(EvdevError) -> (batch: Batch, anyReady: Bool) {
        var pollFDs = currentPollSet()
        pollSet = nil  // Taken, so that `poll` writes the one buffer rather than a copy.
        let milliseconds: Int32 =
            timeout.map { t in
                let (seconds, attoseconds) = t.components
                return Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
            } ?? -1
        let ready: Int
        do {
            ready = try pollDescriptors(&pollFDs) { milliseconds }
        } catch {
            throw EvdevError.system(errno: error.rawValue, operation: "poll", path: "the input devices")
        }
        // Kept for the next wait unless what follows adds or removes a device.
        pollSet = pollFDs

        var batch = Batch(outputs: [], woken: false)
        if pollFDs[0].revents != 0 {
            var buffer = [UInt8](repeating: 0, count: 64)
            while read(wakeReadFD, &buffer, buffer.count) > 0 {}
            batch.woken = true
        }
        let polled = devices
        for (index, device) in polled.enumerated() where pollFDs[index + 1].revents != 0 {
            if let output = drain(device) {
                batch.outputs.append((device, output))
                if case .removed = output { remove(device) }
            }
        }
        if let hotplug, pollFDs[pollFDs.count - 1].revents != 0 {
            for device in openNewNodes(hotplug.fileDescriptor, in: hotplug.directory) {
                add(device)
                batch.outputs.append((device, .added))
            }
        }
        return (batch, ready > 0)
    }

    /// Reads the inotify events and opens the event nodes they name that are not read yet.
    private func openNewNodes(_ fd: Int32, in directory: String) -> [EvdevDevice] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { break }
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of NUL-padded name.
            var offset = 0
            while offset + 16 <= count {
                let length = buffer[offset + 12..<offset + 16].reversed().reduce(0) { $0 << 8 | Int($1) }
                let nameBytes = buffer[offset + 16..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                names.append(String(decoding: nameBytes, as: UTF8.self))
                offset += 16 + length
            }
        }
        var opened: [EvdevDevice] = []
        for name in Set(names).sorted() where name.hasPrefix("event") {
            let path = directory + "/" + name
            guard !devices.contains(where: { $0.path == path }) else { continue }
            if let device = try? EvdevDevice(path: path) { opened.append(device) }
        }
        return opened
    }

    /// Reads one device's next frame (the device is then `unfinished`), its
    /// resync, its failure, or nothing at `EAGAIN` (`EventStream.next()`).
    private func drain(_ device: EvdevDevice) -> Output? {
        switch device.stream.next() {
        case .frame(let frame, let forwarded):
            unfinished.append(device)
            return forwarded ? .forwarded(frame) : .frame(frame)
        case .resynced(let frame):
            unfinished.append(device)
            return .resynced(frame)
        case .failed(let error):
            return .removed(error)
        case .empty:
            return nil
        }
    }
}

extension EvdevReader.Output {
    /// The events this output stands for in a trace, which both `gestures record`
    /// and `LiveGestures` use, so a recording replays as the live run went:
    /// a frame's own events (forwarded or not); for a resync, `SYN_DROPPED` + `SYN_REPORT` (the
    /// decoder then marks the next frame `followsDroppedEvents`, and the
    /// gesture in progress is cancelled) followed by the resync frame;
    /// nothing for `.added` and `.removed`.
    public var traceEvents: [InputEvent] {
        switch self {
        case .frame(let events), .forwarded(let events):
            return events
        case .resynced(let events):
            let time = events.first?.microseconds ?? 0
            return [
                InputEvent(type: EV.SYN, code: SYN.DROPPED, value: 0, microseconds: time),
                InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: time),
            ] + events
        case .added, .removed:
            return []
        }
    }
}
