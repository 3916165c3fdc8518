import Testing
import TouchInput

@testable import EvdevInput

@Suite struct EvdevReaderOutputTests {
    private func event(_ type: UInt16, _ code: UInt16, _ value: Int32, _ time: Int64) -> InputEvent {
        InputEvent(type: type, code: code, value: value, microseconds: time)
    }

    @Test func aResyncIsADroppedMarkerFrameThenTheResyncFrame() {
        let resync = [event(EV.ABS, ABS.MT_TRACKING_ID, -1, 500), event(EV.SYN, SYN.REPORT, 0, 500)]
        let events = EvdevReader.Output.resynced(resync).traceEvents
        #expect(events.map(\.code) == [SYN.DROPPED, SYN.REPORT, ABS.MT_TRACKING_ID, SYN.REPORT])
        #expect(events.allSatisfy { $0.microseconds == 500 })
    }

    @Test func aFrameIsItsOwnEvents() {
        let frame = [event(EV.REL, REL.X, 3, 9), event(EV.SYN, SYN.REPORT, 0, 9)]
        #expect(EvdevReader.Output.frame(frame).traceEvents == frame)
        #expect(EvdevReader.Output.added.traceEvents.isEmpty)
    }
}
