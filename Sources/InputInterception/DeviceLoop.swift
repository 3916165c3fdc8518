import GestureRecognition
import TouchInput

/// One device being read live.
public struct LiveDevice: Hashable, Sendable {
    /// A number unique among the devices one loop opened (1, 2, ...).
    public var id: Int
    /// The node it was opened from.
    public var node: String
    /// Its description.
    public var description: DeviceDescription
    /// The node of its clone, when it is intercepted.
    public var cloneNode: String? = nil

    /// A device from its parts.
    public init(id: Int, node: String, description: DeviceDescription, cloneNode: String? = nil) {
        self.id = id
        self.node = node
        self.description = description
        self.cloneNode = cloneNode
    }
}

/// The live reader, as a thin loop over a ``DeviceIO``: it waits for input
/// or the earliest timer, runs each device's ``InterceptedDevice``, writes
/// what it gives to the clones and hands out the gestures. Everything it
/// decides is in ``InterceptedDevice``; everything it does to a device goes
/// through the ``DeviceIO``, so that a host test runs this very loop over
/// fake devices, and `EvdevInput`'s `LiveGestures` over the kernel's.
/// Touch surfaces and mice (the ``DeviceKinds`` it reads) are devices of
/// the same loop: a mouse's pipeline decides what its clone gets.
///
/// - It waits at most until the earliest timer of any device (the engine's,
///   the hand-over's, the pacer's), reads the frames already queued
///   (stamped earlier: a reader that was not scheduled finds them waiting,
///   and a replay would take them first), then fires the timers. Idle, it
///   waits without a deadline.
/// - Pointer motion goes to the clone before anything else: after each
///   step the loop arms the reader's forwarding of a device exactly while
///   ``InterceptedDevice/forwardsMotion`` holds, and the reader writes each
///   frame of motion alone to the clone as it reads it
///   (``DeviceIO/forwardMotion(_:of:)``); the session then takes that
///   frame as written (``InterceptedDevice/noteForwarded(_:nowMicroseconds:)``).
/// - A resync after `SYN_DROPPED` ends the gesture in progress cancelled,
///   with a warning at most every 10 s.
/// - A device that goes away ends its gesture cancelled and is dropped
///   (its clone goes with it); a device that appears is read if wanted.
/// - Intercepting, each device is taken from the desktop
///   (``DeviceIO/intercept(_:)``) and devices this package made are never
///   read. A clone that cannot be written to is given up: the device is
///   released and read beside the desktop from then on, so that it never
///   stays grabbed for nothing. However the loop ends (asked to, or a read
///   failing), every device is given back.
///
///     let loop = DeviceLoop(io: devices, devices: devices.opened, intercepts: true,
///                           setup: { _ in GesturePipeline.Setup() }, claims: { _ in policy })
///     try loop.run { output in
///         if case .gesture(let event, _) = output { print(event.jsonLine) }
///         return true
///     }
public final class DeviceLoop<IO: DeviceIO> {
    /// What ``run(_:)`` hands out.
    public enum Output {
        /// A device is now read (at the start, or plugged in later).
        case opened(LiveDevice)
        /// A gesture event from a device.
        case gesture(GestureEvent, LiveDevice)
        /// A frame the device's decoder made (its touches in millimetres),
        /// before the gestures of the same frame; handed out only while
        /// `watchesFrames` says someone draws them (`gestures ui`), so an
        /// unwatched loop does nothing more per frame.
        case frame(TouchFrame, LiveDevice)
        /// The events of one frame as the device sent them, before it is
        /// decoded; handed out only while `recordsEvents` says someone
        /// records the device (a page of `gestures ui` writing a trace).
        case events([InputEvent], LiveDevice)
        /// A stroke drawn on a device, with the verdict of the stroke rule
        /// (`GesturePipeline.takeDrawnStrokes()`), after the gestures of the
        /// same frame (its `stroke` event, when it fired); a rejected one says
        /// why it fired nothing.
        case stroke(DrawnStroke, LiveDevice)
        /// What a mouse's pipeline decided about a press of its stroke button
        /// (`MouseDecision`), after the gestures of the same call (an accepted
        /// stroke's `stroke` event); a stroke's, accepted or rejected, has its points.
        case decision(MouseDecision, LiveDevice)
        /// The hand-over of an intercepted device changed mode (its frames
        /// pass, are held while the engine decides, are claimed, or its
        /// clone's contacts settle), and why.
        case handOver(PassThroughFilter.Mode, PassThroughFilter.Reason, LiveDevice)
        /// The device failed (usually it went away); its gesture was
        /// cancelled and it is no longer read.
        case removed(LiveDevice, IO.Failure)
    }

    /// The devices, as ``DeviceIO`` knows them.
    public let io: IO
    /// The devices being read, in the order they were opened.
    public var devices: [LiveDevice] { open.values.map(\.device).sorted { $0.id < $1.id } }
    /// Whether devices are taken from the desktop.
    public let intercepts: Bool
    /// The kinds of device read; the others are closed.
    public let kinds: DeviceKinds

    private let setup: (LiveDevice) -> GesturePipeline.Setup?
    private let claims: (LiveDevice) -> PassThroughFilter.Policy
    private let warn: (String) -> Void
    private let watchesFrames: () -> Bool
    private let recordsEvents: () -> Bool
    /// The time, in the events' clock (microseconds), that gesture times count from.
    public let originMicroseconds: Int64
    private var open: [IO.Handle: Entry] = [:]
    private var pending: [Output] = []
    private var nextID = 1
    private var lostEvents = LostEventsWarning()

    /// One device read: what is known of it and its ``InterceptedDevice``.
    /// A class, so that a frame changes the session where it is: a copy
    /// (taken out of `open`, changed, put back) would copy the pipeline's
    /// inline storage and every buffer it changes, each frame.
    private final class Entry {
        var device: LiveDevice
        var session: InterceptedDevice
        /// The session's earliest timer, as of its latest step.
        var deadline: Int64?
        /// Whether the reader forwards the device's motion (``DeviceIO/forwardMotion(_:of:)``).
        var forwardsMotion = false

        init(device: LiveDevice, session: InterceptedDevice) {
            self.device = device
            self.session = session
            deadline = session.nextDeadlineMicroseconds
        }
    }

    /// A loop over `io`, starting with the open `devices` (each is asked to
    /// `setup`, and closed when it is not wanted); gesture times count from now.
    ///
    /// - Parameters:
    ///   - io: the device I/O the loop runs over (evdev, or a fake in tests).
    ///   - devices: the devices open at the start.
    ///   - kinds: the kinds of device read (touch surfaces by default); the
    ///     others are closed.
    ///   - intercepts: whether each device is taken from the desktop (and
    ///     devices this package made are left alone).
    ///   - setup: the pipeline setup of a device about to be read, or nil to
    ///     leave it alone.
    ///   - claims: what is claimed on an intercepted device, asked between
    ///     touches (so a reload applies from the next touch) and when a
    ///     mouse's stroke button goes down (a press is withheld only when
    ///     it claims mouse strokes).
    ///   - warn: where one-sentence warnings go.
    ///   - watchesFrames: whether the decoded frames are handed out too
    ///     (``Output/frame(_:_:)``), asked at each frame.
    ///   - recordsEvents: whether each frame's events are handed out as read
    ///     (``Output/events(_:_:)``), asked at each frame.
    public init(
        io: IO, devices: [IO.Handle], kinds: DeviceKinds = .touch, intercepts: Bool,
        setup: @escaping (LiveDevice) -> GesturePipeline.Setup?,
        claims: @escaping (LiveDevice) -> PassThroughFilter.Policy = { _ in PassThroughFilter.Policy() },
        warn: @escaping (String) -> Void, watchesFrames: @escaping () -> Bool = { false },
        recordsEvents: @escaping () -> Bool = { false }
    ) {
        self.io = io
        self.watchesFrames = watchesFrames
        self.recordsEvents = recordsEvents
        self.kinds = kinds
        self.intercepts = intercepts
        self.setup = setup
        self.claims = claims
        self.warn = warn
        originMicroseconds = io.nowMicroseconds()
        for handle in devices {
            if let device = adopt(handle) { pending.append(.opened(device)) }
        }
    }

    /// Reads until `handle` returns false or the reader is woken, handing out
    /// every device opened and every gesture; then finishes each device (a
    /// gesture in progress ends cancelled; the clone gets what waits and is
    /// given up) and hands out those gestures too. A read that fails gives
    /// every device back before the error is thrown.
    public func run(_ handle: (Output) -> Bool) throws(IO.Failure) {
        var going = true
        func emit(_ output: Output) { if going { going = handle(output) } }
        for output in pending { emit(output) }
        pending = []
        do throws(IO.Failure) {
            while going {
                let batch = try io.read(until: nextDeadlineMicroseconds)
                if batch.woken { break }
                deliver(batch.items, emit)
                guard going, let due = nextDeadlineMicroseconds, due <= io.nowMicroseconds() else { continue }
                // Frames stamped before a timer's due time go first, as in a replay:
                // a reader that was not scheduled for a while finds them queued.
                let queued = try io.read(until: io.nowMicroseconds())
                if queued.woken { break }
                deliver(queued.items, emit)
                if going { fireTimers(emit) }
            }
        } catch {
            for handle in open.keys { io.release(handle) }
            throw error
        }
        going = true
        for handle in orderedHandles {
            guard let entry = open[handle] else { continue }
            let step = entry.session.finish()
            if entry.session.isIntercepted { try? io.writeClone(step.cloneFrames, of: handle) }
            io.release(handle)
            handOut(step, of: entry.device, emit)
        }
    }

    /// The earliest timer of any device, in the events' clock, or nil.
    /// Asked twice a frame: each device's as its latest step left it.
    public var nextDeadlineMicroseconds: Int64? {
        var earliest: Int64?
        for entry in open.values {
            if let due = entry.deadline, due < earliest ?? .max { earliest = due }
        }
        return earliest
    }

    /// The open devices, in the order they were opened.
    private var orderedHandles: [IO.Handle] {
        open.keys.sorted { open[$0]!.device.id < open[$1]!.device.id }
    }

    /// Starts reading `handle` if it is wanted (and, when intercepting, this
    /// package did not make it); closes it and returns nil otherwise.
    private func adopt(_ handle: IO.Handle) -> LiveDevice? {
        let facts = io.facts(of: handle)
        var device = LiveDevice(id: nextID, node: facts.node, description: facts.description)
        guard !(intercepts && facts.isMadeByGestures), kinds.reads(facts.description),
            let chosen = setup(device)
        else {
            io.close(handle)
            return nil
        }
        nextID += 1
        device.cloneNode = intercepts ? io.intercept(handle) : nil
        let policy = device.cloneNode.map { _ in claims(device) }
        guard
            let session = InterceptedDevice(
                device: facts.description, state: io.state(of: handle), setup: chosen,
                originMicroseconds: originMicroseconds, policy: policy)
        else {
            io.release(handle)
            io.close(handle)
            return nil
        }
        open[handle] = Entry(device: device, session: session)
        return device
    }

    /// Runs what was read through the devices.
    private func deliver(_ items: [DeviceInput<IO.Handle, IO.Failure>.Item], _ emit: (Output) -> Void) {
        for item in items {
            switch item {
            case .opened(let handle):
                if let device = adopt(handle) { emit(.opened(device)) }
            case .frame(let handle, let frame):
                guard let entry = open[handle] else { continue }
                if recordsEvents() { emit(.events(frame, entry.device)) }
                process(frame, of: handle, entry, now: io.nowMicroseconds(), emit)
            case .forwarded(let handle, let frame):
                guard let entry = open[handle] else { continue }
                if recordsEvents() { emit(.events(frame, entry.device)) }
                // The reader wrote it to the clone as it read it; the session
                // takes note (its clone's state, the pacer) and writes it no second time.
                let now = io.nowMicroseconds()
                entry.session.noteForwarded(frame, nowMicroseconds: now)
                process(frame, of: handle, entry, now: now, emit)
            case .resynced(let handle, let frame):
                guard let entry = open[handle] else { continue }
                if recordsEvents() { emit(.events(frame, entry.device)) }
                let cancelled = entry.session.isMouse ? "a stroke in progress" : "the gesture in progress"
                if let sentence = lostEvents.sentence(node: entry.device.node, cancelling: cancelled) { warn(sentence) }
                let step = entry.session.resynchronize(frame, state: io.state(of: handle), nowMicroseconds: io.nowMicroseconds())
                hand(step, of: handle, entry, emit)
            case .removed(let handle, let error):
                guard let entry = open.removeValue(forKey: handle) else { continue }
                io.release(handle)
                handOut(entry.session.cancel(), of: entry.device, emit)
                emit(.removed(entry.device, error))
            }
        }
    }

    /// Runs one frame through its device's session and hands out the step.
    private func process(_ frame: [InputEvent], of handle: IO.Handle, _ entry: Entry, now: Int64, _ emit: (Output) -> Void) {
        let device = entry.device
        let step = entry.session.process(frame, nowMicroseconds: now, claims: { claims(device) })
        hand(step, of: handle, entry, emit)
    }

    /// Fires every device's timers due by now.
    private func fireTimers(_ emit: (Output) -> Void) {
        let now = io.nowMicroseconds()
        for handle in orderedHandles {
            guard let entry = open[handle] else { continue }
            let step = entry.session.fireTimers(dueBy: now)
            hand(step, of: handle, entry, emit)
        }
    }

    /// Writes a step's frames to the clone and hands out its mode and
    /// gestures. A clone that cannot be written to stops the interception of
    /// its device (released, read beside the desktop from now on).
    /// Last, the reader's forwarding of the device is armed or disarmed
    /// as the session now stands (``InterceptedDevice/forwardsMotion``).
    private func hand(_ step: InterceptedDevice.Step, of handle: IO.Handle, _ entry: Entry, _ emit: (Output) -> Void) {
        if !step.cloneFrames.isEmpty {
            do {
                // The kernel stamps the frames in the write; the time just before
                // it is the pacer's (after it, the readers it woke may have run).
                let writing = io.nowMicroseconds()
                try io.writeClone(step.cloneFrames, of: handle)
                entry.session.noteCloneWritten(atMicroseconds: writing)
            } catch {
                io.release(handle)
                entry.session.stopIntercepting()
                entry.device.cloneNode = nil
                warn(
                    "stopped intercepting \(entry.device.node) (\(entry.device.description.name)), reading it beside the desktop: \(error.description)"
                )
            }
        }
        entry.deadline = Self.deadline(of: &entry.session)
        let forwards = Self.forwardsMotion(of: &entry.session)
        if forwards != entry.forwardsMotion {
            entry.forwardsMotion = forwards
            io.forwardMotion(forwards, of: handle)
        }
        if let mode = step.mode, let reason = step.reason, entry.session.isIntercepted { emit(.handOver(mode, reason, entry.device)) }
        handOut(step, of: entry.device, emit)
    }

    /// The session's earliest timer, read in place: the getter called on
    /// the entry's stored session copied the whole session first (every
    /// buffer of its pipeline retained and released), twice a frame.
    private static func deadline(of session: inout InterceptedDevice) -> Int64? {
        session.nextDeadlineMicroseconds
    }

    /// Whether the session's motion may be forwarded, read in place (as ``deadline(of:)``).
    private static func forwardsMotion(of session: inout InterceptedDevice) -> Bool {
        session.forwardsMotion
    }

    /// Hands out a step's frame (when watched), gestures, strokes and decisions, in that order.
    private func handOut(_ step: InterceptedDevice.Step, of device: LiveDevice, _ emit: (Output) -> Void) {
        if let touch = step.touch, watchesFrames() { emit(.frame(touch, device)) }
        for gesture in step.gestures { emit(.gesture(gesture, device)) }
        for stroke in step.strokes { emit(.stroke(stroke, device)) }
        for decision in step.decisions { emit(.decision(decision, device)) }
    }
}
