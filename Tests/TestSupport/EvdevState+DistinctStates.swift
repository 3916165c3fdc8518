import InputInterception
import TouchInput

extension EvdevState {
    /// The distinct states `frames` lead through, from an empty state: what
    /// host tests and the VM suite compare a clone's stream with.
    public static func distinctStates(_ frames: [[InputEvent]]) -> [EvdevState] {
        var state = EvdevState()
        var states: [EvdevState] = []
        for frame in frames {
            state.apply(frame)
            if states.last != state { states.append(state) }
        }
        return states
    }
}
