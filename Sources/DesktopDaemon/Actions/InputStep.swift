import TouchInput

/// What the daemon's virtual keyboard and pointer do for one firing of a
/// binding with an input action (`keys`, `button`, `drag`).
public enum InputStep: Hashable, Sendable {
    /// Press these keys in order, then release them in reverse.
    case keys([UInt16])
    /// Press and release this button.
    case click(UInt16)
    /// A drag begins: hold this button (or keep holding it, when a drag
    /// with it is still waiting to be released).
    case dragPress(UInt16)
    /// The drag moved this far, in millimetres on the surface.
    case dragMove(dxMillimeters: Double, dyMillimeters: Double)
    /// The fingers lifted: release the button after the release delay,
    /// unless another drag begins first.
    case dragRelease

    /// The frames of a chord or a click, one change each, so that every
    /// press and release is its own frame (applications see their order).
    /// Drags are stateful; their frames come from ``InputActionPerformer``.
    ///
    ///     InputStep.keys([125, 106]).frames   // [[KEY_LEFTMETA 1], [KEY_RIGHT 1], [KEY_RIGHT 0], [KEY_LEFTMETA 0]]
    public var frames: [[InputEvent]] {
        func key(_ code: UInt16, _ value: Int32) -> [InputEvent] {
            [InputEvent(type: EV.KEY, code: code, value: value, microseconds: 0)]
        }
        switch self {
        case .keys(let codes): return codes.map { key($0, 1) } + codes.reversed().map { key($0, 0) }
        case .click(let button): return [key(button, 1), key(button, 0)]
        case .dragPress, .dragMove, .dragRelease: return []
        }
    }
}
