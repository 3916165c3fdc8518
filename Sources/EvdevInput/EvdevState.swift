/// The state a stream of events leaves a device in: every axis, key and
/// per-slot multitouch value, as a client tracking protocol B sees it.
///
/// The kernel drops repeated values and no-change frames, so two streams that
/// differ event by event can leave the same state; compare states at frame
/// boundaries, not event lists. Values equal to the kernel's start value
/// (0, or -1 for `ABS_MT_TRACKING_ID`) are not stored, so a state built from
/// scratch equals one that was told those values explicitly.
///
///     var state = EvdevState()
///     state.apply(EvdevEvent(type: EvdevEvent.abs, code: EvdevEvent.absMTSlot, value: 1))
///     state.apply(EvdevEvent(type: EvdevEvent.abs, code: EvdevEvent.absMTTrackingID, value: 7))
///     print(state.value(type: EvdevEvent.abs, code: EvdevEvent.absMTTrackingID, slot: 1))   // 7
public struct EvdevState: Hashable, Sendable {
    /// One stored value: type, code and slot (-1 for values that are not per slot).
    public struct Key: Hashable, Sendable, Comparable {
        /// The event type.
        public var type: UInt16
        /// The event code.
        public var code: UInt16
        /// The slot of an `ABS_MT_*` value, else -1.
        public var slot: Int32

        /// Orders by type, code, then slot.
        public static func < (a: Key, b: Key) -> Bool { (a.type, a.code, a.slot) < (b.type, b.code, b.slot) }
    }

    /// The slot `ABS_MT_*` events currently update.
    public private(set) var currentSlot: Int32 = 0
    /// The values that differ from their start value.
    public private(set) var values: [Key: Int32] = [:]

    /// An empty state: slot 0, no contacts, every value at its start value.
    public init() {}

    /// Applies one event; `EV_SYN` and `EV_MSC` events leave the state unchanged.
    public mutating func apply(_ event: EvdevEvent) {
        switch event.type {
        case EvdevEvent.abs where event.code == EvdevEvent.absMTSlot:
            currentSlot = event.value
        case EvdevEvent.abs, EvdevEvent.key, EvdevEvent.rel:
            // Relative motion is a delta, not a state: keep only absolute values and keys.
            guard event.type != EvdevEvent.rel else { return }
            let isPerSlot = event.type == EvdevEvent.abs
                && event.code > EvdevEvent.absMTSlot && event.code <= EvdevEvent.absMTToolY
            let key = Key(type: event.type, code: event.code, slot: isPerSlot ? currentSlot : -1)
            values[key] = event.value == Self.startValue(key) ? nil : event.value
        default:
            break
        }
    }

    /// Applies every event of a frame.
    public mutating func apply(_ frame: EvdevFrame) {
        for event in frame.events { apply(event) }
    }

    /// The value of `code`, in `slot` for `ABS_MT_*` codes.
    public func value(type: UInt16, code: UInt16, slot: Int32 = -1) -> Int32 {
        let key = Key(type: type, code: code, slot: slot)
        return values[key] ?? Self.startValue(key)
    }

    /// The slots holding a contact (tracking id >= 0), ascending.
    public var activeSlots: [Int32] {
        values.compactMap { key, value in
            key.type == EvdevEvent.abs && key.code == EvdevEvent.absMTTrackingID && value >= 0 ? key.slot : nil
        }.sorted()
    }

    /// Two states are equal when their values are; the current slot is not compared,
    /// because the kernel reports it only when a later event needs it.
    public static func == (a: EvdevState, b: EvdevState) -> Bool { a.values == b.values }

    /// Hashes the values only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }

    private static func startValue(_ key: Key) -> Int32 {
        key.type == EvdevEvent.abs && key.code == EvdevEvent.absMTTrackingID ? -1 : 0
    }
}

extension EvdevState: CustomStringConvertible {
    /// The stored values, sorted: `abs 53 [1]=2000, key 330=1`.
    public var description: String {
        let parts = values.keys.sorted().map { key in
            let slot = key.slot >= 0 ? "[\(key.slot)]" : ""
            let type = key.type == EvdevEvent.abs ? "abs" : key.type == EvdevEvent.key ? "key" : "type\(key.type)"
            return "\(type) \(key.code)\(slot)=\(values[key]!)"
        }
        return parts.isEmpty ? "(empty)" : parts.joined(separator: ", ")
    }
}
