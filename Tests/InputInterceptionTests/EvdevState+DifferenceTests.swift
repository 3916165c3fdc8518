import GestureEvaluation
import InputInterception
import Testing
import TouchInput

@Suite struct EvdevStateDifferenceTests {
    private func abs(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: EV.ABS, code: code, value: value, microseconds: 0) }
    private func key(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: EV.KEY, code: code, value: value, microseconds: 0) }

    /// A state from random events over a 3-slot pad, from a seeded generator.
    private func randomState(_ random: inout SplitMix64) -> EvdevState {
        var state = EvdevState()
        for _ in 0..<Int(random.next() % 12) {
            switch random.next() % 5 {
            case 0: state.apply(abs(ABS.MT_SLOT, Int32(random.next() % 3)))
            case 1: state.apply(abs(ABS.MT_TRACKING_ID, random.next() % 3 == 0 ? -1 : Int32(random.next() % 50)))
            case 2: state.apply(abs(ABS.MT_POSITION_X, Int32(random.next() % 900)))
            case 3: state.apply(abs(ABS.X, Int32(random.next() % 900)))
            default:
                state.apply(
                    key([BTN.TOUCH, BTN.TOOL_FINGER, BTN.TOOL_DOUBLETAP, BTN.LEFT][Int(random.next() % 4)], Int32(random.next() % 2)))
            }
        }
        return state
    }

    @Test func applyingTheDifferenceReachesTheTargetSlotIncluded() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<500 {
            var from = randomState(&random)
            let to = randomState(&random)
            from.apply(from.events(reaching: to))
            #expect(from.isSynchronized(with: to), "\(from) vs \(to)")
        }
    }

    @Test func equalStatesNeedNoEvents() {
        var random = SplitMix64(seed: 8)
        for _ in 0..<100 {
            let state = randomState(&random)
            #expect(state.events(reaching: state).isEmpty)
        }
    }

    @Test func aLandingSelectsItsSlotAndStartsWithTheTrackingID() {
        var device = EvdevState()
        device.apply([abs(ABS.MT_SLOT, 1), abs(ABS.MT_POSITION_X, 40), abs(ABS.MT_TRACKING_ID, 9), key(BTN.TOUCH, 1)])
        device.apply(abs(ABS.MT_SLOT, 0))
        let events = EvdevState().events(reaching: device)
        #expect(
            events == [
                abs(ABS.MT_SLOT, 1), abs(ABS.MT_TRACKING_ID, 9), abs(ABS.MT_POSITION_X, 40),
                key(BTN.TOUCH, 1), abs(ABS.MT_SLOT, 0),
            ])
    }

    @Test func keysAreReleasedBeforeOthersArePressed() {
        var from = EvdevState(), to = EvdevState()
        from.apply(key(BTN.TOOL_TRIPLETAP, 1))
        to.apply(key(BTN.TOOL_DOUBLETAP, 1))
        #expect(from.events(reaching: to) == [key(BTN.TOOL_TRIPLETAP, 0), key(BTN.TOOL_DOUBLETAP, 1)])
    }

    @Test func releasedLiftsEveryContactAndKeyButKeepsPositions() {
        var state = EvdevState()
        state.apply([
            abs(ABS.MT_TRACKING_ID, 3), abs(ABS.MT_POSITION_X, 10), abs(ABS.MT_SLOT, 1),
            abs(ABS.MT_TRACKING_ID, 4), key(BTN.TOUCH, 1), key(BTN.LEFT, 1),
        ])
        let released = state.released
        #expect(!released.isTouching && released.activeSlots.isEmpty)
        #expect(released.value(type: EV.KEY, code: BTN.LEFT) == 0)
        #expect(released.value(type: EV.ABS, code: ABS.MT_POSITION_X, slot: 0) == 10)
        #expect(released.currentSlot == 1)
    }
}
