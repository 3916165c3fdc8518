import TouchInput

/// The seam at the kernel: everything ``DeviceLoop`` asks of the devices it
/// reads, and nothing more. `EvdevInput`'s `EvdevDevices` implements it with
/// libevdev, `poll()` and uinput; a host test implements it with scripted
/// frames and a clock of its own, and runs the same loop.
///
/// Every call is one small operation on open devices: read what they sent,
/// read a device's state (after a resync), take a device from the desktop
/// (clone, then grab), write frames to its clone, let the reader forward
/// its pointer motion to the clone as it reads it, give it back, close it.
/// Opening happens in the implementation (the devices open when it is made
/// and those that appear later come out of ``read(until:)`` as `.opened`).
///
/// Safety is the implementation's part of the bargain: ``intercept(_:)``
/// makes the clone before it grabs, and a grab that fails destroys the clone
/// again, so a device is never grabbed without one; ``release(_:)`` gives the
/// device back before the clone goes.
public protocol DeviceIO: AnyObject {
    /// An open device, as the implementation knows it.
    associatedtype Handle: Hashable
    /// What a failed read or write says (one sentence a user can act on).
    associatedtype Failure: Error & CustomStringConvertible

    /// The time now in the events' clock, in microseconds.
    func nowMicroseconds() -> Int64

    /// Waits until a device sent something, the reader is woken, or the
    /// events' clock reaches `deadline` (nil: no deadline); returns what
    /// could be read without waiting more, each with its device, in order.
    func read(until deadline: Int64?) throws(Failure) -> DeviceInput<Handle, Failure>

    /// What is known of an open device: its node, description, and whether
    /// this package made it (a clone, a virtual keyboard or pointer).
    func facts(of device: Handle) -> DeviceFacts

    /// The device's state as its reader holds it now: after opening, the
    /// contacts and keys already down; after a resync, the state it brought.
    func state(of device: Handle) -> EvdevState

    /// Stops reading `device` and closes it (it is not wanted).
    func close(_ device: Handle)

    /// Takes `device` from the desktop: makes its clone, then grabs it.
    /// Returns the clone's node, or nil (having said why) when the device is
    /// to be read beside the desktop.
    func intercept(_ device: Handle) -> String?

    /// Writes frames to `device`'s clone, each closed by one `SYN_REPORT`.
    func writeClone(_ frames: [[InputEvent]], of device: Handle) throws(Failure)

    /// Arms (`true`) or disarms the reader's forwarding of `device`: while
    /// armed, each frame of motion alone it reads
    /// (``InterceptedDevice/isMotion(_:)``) goes to the clone verbatim as
    /// soon as it is read, before anything else, and comes out of
    /// ``read(until:)`` as `.forwarded` (as `.frame` when that write
    /// failed: the loop writes it then). The loop arms a device after each
    /// step exactly when ``InterceptedDevice/forwardsMotion`` holds.
    /// Disarmed from the start, and by ``release(_:)``.
    func forwardMotion(_ armed: Bool, of device: Handle)

    /// Gives `device` back to the desktop: releases the grab, then destroys
    /// the clone. Nothing if it is not intercepted.
    func release(_ device: Handle)
}

/// What is known of an open device (``DeviceIO/facts(of:)``).
public struct DeviceFacts: Hashable, Sendable {
    /// The node it was opened from (`/dev/input/event5`).
    public var node: String
    /// Its description.
    public var description: DeviceDescription
    /// Whether this package made it: intercepting readers leave it alone.
    public var isMadeByGestures: Bool

    /// Facts from their parts.
    public init(node: String, description: DeviceDescription, isMadeByGestures: Bool = false) {
        self.node = node
        self.description = description
        self.isMadeByGestures = isMadeByGestures
    }
}

/// What one ``DeviceIO/read(until:)`` gives.
public struct DeviceInput<Handle: Hashable, Failure: Error> {
    /// What came from one device.
    public enum Item {
        /// A new device is open (it appeared after the reader started).
        case opened(Handle)
        /// A complete frame, ending in its `SYN_REPORT`.
        case frame(Handle, [InputEvent])
        /// A complete frame of motion alone, ending in its `SYN_REPORT`,
        /// that the reader already wrote to the device's clone
        /// (``DeviceIO/forwardMotion(_:of:)``): it is not written again.
        case forwarded(Handle, [InputEvent])
        /// Events were lost (`SYN_DROPPED`); this frame, ending in
        /// `SYN_REPORT`, brings the state up to date
        /// (``DeviceIO/state(of:)`` gives it).
        case resynced(Handle, [InputEvent])
        /// The device failed (usually it went away) and is no longer read.
        case removed(Handle, Failure)
    }

    /// What was read, in order.
    public var items: [Item]
    /// Whether the reader was woken (asked to stop).
    public var woken: Bool

    /// A batch from its parts.
    public init(items: [Item] = [], woken: Bool = false) {
        self.items = items
        self.woken = woken
    }
}
