import Testing
import TouchInput

@testable import InputInterception

@Suite struct EvdevStateTests {
    private func abs(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(type: EV.ABS, code: code, value: value, microseconds: 0) }

    @Test func perSlotValuesFollowTheCurrentSlot() {
        var state = EvdevState()
        state.apply(
            ([
                abs(ABS.MT_TRACKING_ID, 5), abs(ABS.MT_POSITION_X, 100),
                abs(ABS.MT_SLOT, 1), abs(ABS.MT_TRACKING_ID, 6), abs(ABS.MT_POSITION_X, 200),
            ]))
        #expect(state.value(type: EV.ABS, code: ABS.MT_POSITION_X, slot: 0) == 100)
        #expect(state.value(type: EV.ABS, code: ABS.MT_POSITION_X, slot: 1) == 200)
        #expect(state.activeSlots == [0, 1])
    }

    @Test func explicitStartValuesEqualOmittedOnes() {
        var explicit = EvdevState()
        explicit.apply(abs(ABS.MT_TRACKING_ID, -1))
        explicit.apply(abs(ABS.X, 0))
        explicit.apply(abs(ABS.MT_SLOT, 1))
        #expect(explicit == EvdevState())
    }

    @Test func droppedRepeatsLeaveTheSameState() {
        var written = EvdevState(), read = EvdevState()
        let frame = [abs(ABS.MT_SLOT, 0), abs(ABS.MT_POSITION_X, 10), abs(ABS.MT_POSITION_Y, 20)]
        written.apply((frame))
        written.apply(([abs(ABS.MT_SLOT, 0), abs(ABS.MT_POSITION_X, 11), abs(ABS.MT_POSITION_Y, 20)]))
        read.apply((Array(frame.dropFirst())))
        read.apply(([abs(ABS.MT_POSITION_X, 11)]))
        #expect(written == read)
    }
}
