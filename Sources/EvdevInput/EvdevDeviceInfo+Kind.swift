extension EvdevDeviceInfo {
    /// What kind of device this is, for gestures.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// An indirect multi-finger surface: gestures in mm, pointer on screen.
        case touchpad
        /// A direct touch surface on a screen.
        case touchscreen
        /// A relative pointer with buttons (also an absolute pointer with buttons, as in VMs).
        case mouse
        /// A pen tablet.
        case tablet
        /// Anything else: keyboards, switches, joysticks.
        case other
    }

    /// The kind, classified from properties and codes as libinput and udev's
    /// input_id do:
    /// 1. a pen or stylus button: tablet;
    /// 2. `INPUT_PROP_POINTER`, or `BTN_TOOL_FINGER` on an absolute device that
    ///    is not `INPUT_PROP_DIRECT`: touchpad;
    /// 3. `INPUT_PROP_DIRECT`, or `BTN_TOUCH` on an absolute device: touchscreen;
    /// 4. `REL_X` + `REL_Y` + `BTN_LEFT`, or absolute x/y + `BTN_LEFT`: mouse;
    /// 5. otherwise: other.
    ///
    ///     EvdevDeviceInfo(name: "mouse", codes: [EvdevEvent.rel: [0, 1], EvdevEvent.key: [0x110]]).kind
    ///     // .mouse
    public var kind: Kind {
        let hasAbsolutePosition = (has(EvdevEvent.abs, EvdevEvent.absX) && has(EvdevEvent.abs, EvdevEvent.absY))
            || (has(EvdevEvent.abs, EvdevEvent.absMTPositionX) && has(EvdevEvent.abs, EvdevEvent.absMTPositionY))
        let direct = hasProperty(EvdevEvent.propDirect)
        if hasAbsolutePosition && (has(EvdevEvent.key, EvdevEvent.btnToolPen) || has(EvdevEvent.key, EvdevEvent.btnStylus)) {
            return .tablet
        }
        if hasAbsolutePosition && !direct
            && (hasProperty(EvdevEvent.propPointer) || has(EvdevEvent.key, EvdevEvent.btnToolFinger)) {
            return .touchpad
        }
        if hasAbsolutePosition && (direct || has(EvdevEvent.key, EvdevEvent.btnTouch)) {
            return .touchscreen
        }
        let hasButton = has(EvdevEvent.key, EvdevEvent.btnLeft)
        if hasButton && ((has(EvdevEvent.rel, EvdevEvent.relX) && has(EvdevEvent.rel, EvdevEvent.relY)) || hasAbsolutePosition) {
            return .mouse
        }
        return .other
    }
}
