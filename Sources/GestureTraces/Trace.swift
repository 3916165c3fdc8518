import Foundation
import TouchInput

/// A recording: the descriptions of one or more input devices and every event
/// they sent, with its time, in order.
///
/// Frames are the events of one device up to and including a SYN_REPORT
/// (the last frame may lack it when a recording was cut short). Importers
/// split events this way whatever their source, so two traces holding the
/// same events compare equal.
///
/// ```swift
/// let trace = try Trace.load(contentsOf: URL(fileURLWithPath: "pad.two-finger-scroll.events"))
/// print(trace.devices[0].name, trace.frames.count)  // SynPS/2 Synaptics TouchPad 81
/// try trace.write(to: URL(fileURLWithPath: "scroll.trace.jsonl"))
/// ```
public struct Trace: Hashable, Sendable {
    /// The devices, referred to by index from ``Frame/device``.
    public var devices: [DeviceDescription]
    /// The frames of all devices in recorded order.
    public var frames: [Frame]

    /// The events of one device up to and including a SYN_REPORT.
    public struct Frame: Hashable, Sendable {
        /// The index of the device in ``Trace/devices``.
        public var device: Int
        /// The events, each with its own time; normally ending in SYN_REPORT.
        public var events: [InputEvent]

        public init(device: Int, events: [InputEvent]) {
            self.device = device
            self.events = events
        }
    }

    public init(devices: [DeviceDescription], frames: [Frame]) {
        self.devices = devices
        self.frames = frames
    }

    /// A trace of one device, its events split into frames at each SYN_REPORT.
    public init(device: DeviceDescription, events: [InputEvent]) {
        self.devices = [device]
        self.frames = Trace.frames(splitting: events, device: 0)
    }

    /// Splits events into frames after each SYN_REPORT; a trailing partial frame is kept.
    ///
    /// - Complexity: O(n) in the number of events.
    public static func frames(splitting events: [InputEvent], device: Int) -> [Frame] {
        var frames: [Frame] = []
        var current: [InputEvent] = []
        for event in events {
            current.append(event)
            if event.isSynReport {
                frames.append(Frame(device: device, events: current))
                current.removeAll(keepingCapacity: true)
            }
        }
        if !current.isEmpty { frames.append(Frame(device: device, events: current)) }
        return frames
    }

    /// The number of events in all frames.
    public var eventCount: Int { frames.reduce(0) { $0 + $1.events.count } }

    /// The events of one device, in order.
    public func events(ofDevice device: Int) -> [InputEvent] {
        frames.lazy.filter { $0.device == device }.flatMap(\.events)
    }

    /// The time from the first event to the last, in microseconds (0 without
    /// events; saturated at the ends of `Int64`, see `EventTime`).
    public var durationMicroseconds: Int64 {
        guard let first = frames.first(where: { !$0.events.isEmpty })?.events.first,
            let last = frames.last(where: { !$0.events.isEmpty })?.events.last
        else { return 0 }
        return EventTime.microseconds(from: first.microseconds, to: last.microseconds)
    }
}
