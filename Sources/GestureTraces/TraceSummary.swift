import GestureRecognition
import TouchInput

/// What a trace holds, per device, after running it through the multitouch
/// decoder: what `gestures info` prints.
public struct TraceSummary: Hashable, Sendable {
    /// One device's share of the trace.
    public struct Device: Hashable, Sendable {
        public var name: String
        public var kind: DeviceDescription.Kind
        public var contactProtocol: DeviceDescription.ContactProtocol
        public var slotCount: Int
        public var widthMillimeters: Double?
        public var heightMillimeters: Double?
        /// Whether the size comes from the device's resolution (else a fallback).
        public var hasResolution: Bool
        public var frames: Int
        public var events: Int
        /// Distinct touches (contact ids) seen.
        public var contacts: Int
        /// The most contacts in one frame.
        public var maximumContacts: Int
        /// The highest finger count in one frame.
        public var maximumFingers: Int
        /// Samples discarded as kernel jumps.
        public var discardedJumps: Int
        /// Each touch's first and last position in millimetres, by contact id.
        public var paths: [Int: Path]
    }

    /// Where a touch started and ended, and how far it went.
    public struct Path: Hashable, Sendable {
        public var first: Point
        public var last: Point
        public var minimum: Point
        public var maximum: Point
        /// The summed distance between consecutive positions, in millimetres.
        public var length: Double
        /// The number of frames the touch was in.
        public var frames: Int
        /// `last - first`, in millimetres.
        public var displacement: Point { last - first }
    }

    public var devices: [Device]
    public var frames: Int
    public var events: Int
    public var durationMicroseconds: Int64
}

extension Trace {
    /// Decodes every device's frames and summarises them.
    ///
    /// - Complexity: O(n) in the number of events.
    public func summary() -> TraceSummary {
        var decoders = devices.map { MultitouchDecoder(device: $0) }
        var result = devices.map { device -> TraceSummary.Device in
            let size = device.sizeMillimeters
            return TraceSummary.Device(
                name: device.name, kind: device.kind, contactProtocol: device.contactProtocol, slotCount: device.slotCount,
                widthMillimeters: size?.width, heightMillimeters: size?.height, hasResolution: device.hasResolution,
                frames: 0, events: 0, contacts: 0, maximumContacts: 0, maximumFingers: 0, discardedJumps: 0, paths: [:])
        }
        func record(_ frame: TouchFrame, device: Int) {
            result[device].frames += 1
            result[device].maximumContacts = max(result[device].maximumContacts, frame.contacts.count)
            result[device].maximumFingers = max(result[device].maximumFingers, frame.fingerCount)
            result[device].discardedJumps += frame.discardedJumps
            for contact in frame.contacts {
                let p = contact.position
                if var path = result[device].paths[contact.id] {
                    path.length += path.last.distance(to: p)
                    path.last = p
                    path.minimum = Point(x: min(path.minimum.x, p.x), y: min(path.minimum.y, p.y))
                    path.maximum = Point(x: max(path.maximum.x, p.x), y: max(path.maximum.y, p.y))
                    path.frames += 1
                    result[device].paths[contact.id] = path
                } else {
                    result[device].paths[contact.id] = TraceSummary.Path(first: p, last: p, minimum: p, maximum: p, length: 0, frames: 1)
                }
            }
        }
        for frame in frames {
            result[frame.device].events += frame.events.count
            for event in frame.events {
                if let touchFrame = decoders[frame.device].process(event) { record(touchFrame, device: frame.device) }
            }
        }
        for index in decoders.indices {
            if let last = decoders[index].finish() { record(last, device: index) }
            result[index].contacts = result[index].paths.count
        }
        return TraceSummary(devices: result, frames: frames.count, events: eventCount, durationMicroseconds: durationMicroseconds)
    }
}
