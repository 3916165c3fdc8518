import TouchInput

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
///     state.apply(InputEvent(type: EV.ABS, code: ABS.MT_SLOT, value: 1, microseconds: 0))
///     state.apply(InputEvent(type: EV.ABS, code: ABS.MT_TRACKING_ID, value: 7, microseconds: 0))
///     print(state.value(type: EV.ABS, code: ABS.MT_TRACKING_ID, slot: 1))   // 7
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

    /// `ABS_MT_TOOL_Y`: the last per-slot axis.
    package static let lastPerSlotAxis: UInt16 = 0x3d

    /// The slot `ABS_MT_*` events currently update.
    public private(set) var currentSlot: Int32 = 0
    /// The values that differ from their start value.
    public private(set) var values: [Key: Int32] = [:]

    /// An empty state: slot 0, no contacts, every value at its start value.
    public init() {}

    /// Whether `code` (an `EV_ABS` code) is a per-slot multitouch axis.
    package static func isPerSlot(_ code: UInt16) -> Bool { code > ABS.MT_SLOT && code <= lastPerSlotAxis }

    /// Applies one event; `EV_SYN`, `EV_MSC` and relative events leave the state unchanged.
    public mutating func apply(_ event: InputEvent) {
        switch event.type {
        case EV.ABS where event.code == ABS.MT_SLOT:
            currentSlot = event.value
        case EV.ABS, EV.KEY:
            let perSlot = event.type == EV.ABS && Self.isPerSlot(event.code)
            let key = Key(type: event.type, code: event.code, slot: perSlot ? currentSlot : -1)
            values[key] = event.value == Self.startValue(key) ? nil : event.value
        default:
            break  // relative motion is a delta, not a state
        }
    }

    /// Applies every event of a frame.
    public mutating func apply(_ events: [InputEvent]) {
        for event in events { apply(event) }
    }

    /// The value of `code`, in `slot` for `ABS_MT_*` codes.
    public func value(type: UInt16, code: UInt16, slot: Int32 = -1) -> Int32 {
        let key = Key(type: type, code: code, slot: slot)
        return values[key] ?? Self.startValue(key)
    }

    /// The slots holding a contact (tracking id >= 0), ascending.
    public var activeSlots: [Int32] {
        values.compactMap { key, value in
            key.type == EV.ABS && key.code == ABS.MT_TRACKING_ID && value >= 0 ? key.slot : nil
        }.sorted()
    }

    /// Two states are equal when their values are; the current slot is not compared,
    /// because the kernel reports it only when a later event needs it.
    public static func == (a: EvdevState, b: EvdevState) -> Bool { a.values == b.values }

    /// Hashes the values only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }

    private static func startValue(_ key: Key) -> Int32 {
        key.type == EV.ABS && key.code == ABS.MT_TRACKING_ID ? -1 : 0
    }
}

extension EvdevState: CustomStringConvertible {
    /// The stored values, sorted: `abs 53 [1]=2000, key 330=1`.
    public var description: String {
        let parts = values.keys.sorted().map { key in
            let slot = key.slot >= 0 ? "[\(key.slot)]" : ""
            let type = key.type == EV.ABS ? "abs" : key.type == EV.KEY ? "key" : "type\(key.type)"
            return "\(type) \(key.code)\(slot)=\(values[key]!)"
        }
        return parts.isEmpty ? "(empty)" : parts.joined(separator: ", ")
    }
}

extension GesturePipeline {
    /// Seeds the decoder with `state` (``MultitouchDecoder/seed(currentSlot:value:)``):
    /// what a device opened while in use, or just resynced, already holds.
    public mutating func seed(from state: EvdevState) {
        seed(currentSlot: state.currentSlot, value: state.value(type:code:slot:))
    }
}
