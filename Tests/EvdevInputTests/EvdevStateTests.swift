import Testing
@testable import EvdevInput

@Suite struct EvdevStateTests {
    private func abs(_ code: UInt16, _ value: Int32) -> EvdevEvent { EvdevEvent(type: EvdevEvent.abs, code: code, value: value) }

    @Test func perSlotValuesFollowTheCurrentSlot() {
        var state = EvdevState()
        state.apply(EvdevFrame(timeMicroseconds: 0, events: [
            abs(EvdevEvent.absMTTrackingID, 5), abs(EvdevEvent.absMTPositionX, 100),
            abs(EvdevEvent.absMTSlot, 1), abs(EvdevEvent.absMTTrackingID, 6), abs(EvdevEvent.absMTPositionX, 200),
        ]))
        #expect(state.value(type: EvdevEvent.abs, code: EvdevEvent.absMTPositionX, slot: 0) == 100)
        #expect(state.value(type: EvdevEvent.abs, code: EvdevEvent.absMTPositionX, slot: 1) == 200)
        #expect(state.activeSlots == [0, 1])
    }

    @Test func explicitStartValuesEqualOmittedOnes() {
        var explicit = EvdevState()
        explicit.apply(abs(EvdevEvent.absMTTrackingID, -1))
        explicit.apply(abs(EvdevEvent.absX, 0))
        explicit.apply(abs(EvdevEvent.absMTSlot, 1))
        #expect(explicit == EvdevState())
    }

    @Test func droppedRepeatsLeaveTheSameState() {
        var written = EvdevState(), read = EvdevState()
        let frame = [abs(EvdevEvent.absMTSlot, 0), abs(EvdevEvent.absMTPositionX, 10), abs(EvdevEvent.absMTPositionY, 20)]
        written.apply(EvdevFrame(timeMicroseconds: 0, events: frame))
        written.apply(EvdevFrame(timeMicroseconds: 0, events: [abs(EvdevEvent.absMTSlot, 0), abs(EvdevEvent.absMTPositionX, 11), abs(EvdevEvent.absMTPositionY, 20)]))
        read.apply(EvdevFrame(timeMicroseconds: 0, events: Array(frame.dropFirst())))
        read.apply(EvdevFrame(timeMicroseconds: 0, events: [abs(EvdevEvent.absMTPositionX, 11)]))
        #expect(written == read)
    }
}
