import TouchInput

extension EvdevState {
    /// The events that take a device in this state to `target`, without a
    /// `SYN_REPORT`: what a device that missed some frames (a clone that did
    /// not see a claimed gesture) is written to catch up in one frame.
    ///
    /// Order: absolute axes that are not per slot; then each slot that
    /// differs, selected with `ABS_MT_SLOT`, its tracking id first; then keys,
    /// releases before presses (so one `BTN_TOOL_*` gives way to the next);
    /// last, `ABS_MT_SLOT` back to the target's current slot when it differs,
    /// so the events of a frame written after these go where they would go on
    /// the device. Applying the result to this state gives a state equal to
    /// `target`, current slot included.
    ///
    ///     var clone = EvdevState(), device = EvdevState()
    ///     device.apply(InputEvent(type: EV.ABS, code: ABS.MT_TRACKING_ID, value: 4, microseconds: 0))
    ///     clone.events(reaching: device)   // [EV_ABS ABS_MT_SLOT 0, EV_ABS ABS_MT_TRACKING_ID 4]
    ///
    /// - Complexity: O(n log n) for n stored values of both states.
    public func events(reaching target: EvdevState) -> [InputEvent] {
        func rank(_ key: Key) -> Int { key.code == ABS.MT_TRACKING_ID ? 0 : 1 }
        func event(_ key: Key, _ value: Int32) -> InputEvent {
            InputEvent(type: key.type, code: key.code, value: value, microseconds: 0)
        }
        let differing = Set(values.keys).union(target.values.keys)
            .filter { value(type: $0.type, code: $0.code, slot: $0.slot) != target.value(type: $0.type, code: $0.code, slot: $0.slot) }
            .sorted()
        var events: [InputEvent] = []
        for key in differing where key.type == EV.ABS && key.slot < 0 {
            events.append(event(key, target.value(type: key.type, code: key.code)))
        }
        var slot = currentSlot
        let perSlot = Dictionary(grouping: differing.filter { $0.type == EV.ABS && $0.slot >= 0 }, by: \.slot)
        for (number, keys) in perSlot.sorted(by: { $0.key < $1.key }) {
            events.append(InputEvent(type: EV.ABS, code: ABS.MT_SLOT, value: number, microseconds: 0))
            slot = number
            let ordered = keys.sorted { (rank($0), $0.code) < (rank($1), $1.code) }
            for key in ordered { events.append(event(key, target.value(type: key.type, code: key.code, slot: number))) }
        }
        let keys = differing.filter { $0.type == EV.KEY }
        for key in keys where target.value(type: EV.KEY, code: key.code) == 0 { events.append(event(key, 0)) }
        for key in keys where target.value(type: EV.KEY, code: key.code) != 0 {
            events.append(event(key, target.value(type: EV.KEY, code: key.code)))
        }
        if slot != target.currentSlot {
            events.append(InputEvent(type: EV.ABS, code: ABS.MT_SLOT, value: target.currentSlot, microseconds: 0))
        }
        return events
    }

    /// Whether a frame written verbatim to a device in this state has the
    /// effect it has on a device in `other`: equal values and the same
    /// current slot (a frame need not select its slot first).
    public func isSynchronized(with other: EvdevState) -> Bool {
        self == other && currentSlot == other.currentSlot
    }

    /// Whether anything touches: a contact in a slot, `BTN_TOUCH`, or a
    /// `BTN_TOOL_FINGER` ... `BTN_TOOL_QUINTTAP` key down.
    public var isTouching: Bool {
        // Asked several times a frame: one pass over the values, nothing sorted or allocated.
        values.contains { key, value in
            key.type == EV.ABS
                ? key.code == ABS.MT_TRACKING_ID && value >= 0 : key.type == EV.KEY && value != 0 && Self.touchKeys.contains(key.code)
        }
    }

    /// `BTN_TOUCH` and the finger-count keys.
    static let touchKeys: [UInt16] = [
        BTN.TOUCH, BTN.TOOL_FINGER, BTN.TOOL_DOUBLETAP, BTN.TOOL_TRIPLETAP,
        BTN.TOOL_QUADTAP, BTN.TOOL_QUINTTAP,
    ]

    /// This state with every key released and every contact lifted, the
    /// positions kept: what a device shows when nothing touches it.
    public var released: EvdevState {
        var state = self
        let slot = currentSlot
        for key in values.keys.sorted() {
            if key.type == EV.KEY {
                state.apply(InputEvent(type: EV.KEY, code: key.code, value: 0, microseconds: 0))
            } else if key.type == EV.ABS && key.code == ABS.MT_TRACKING_ID {
                state.apply(InputEvent(type: EV.ABS, code: ABS.MT_SLOT, value: key.slot, microseconds: 0))
                state.apply(InputEvent(type: EV.ABS, code: ABS.MT_TRACKING_ID, value: -1, microseconds: 0))
            }
        }
        state.apply(InputEvent(type: EV.ABS, code: ABS.MT_SLOT, value: slot, microseconds: 0))
        return state
    }
}
