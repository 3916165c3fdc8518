import Testing
import TouchInput

@Suite struct InputEventTests {
    @Test func isSixteenBytes() {
        #expect(MemoryLayout<InputEvent>.size == 16)
    }

    @Test(arguments: [(Int64(1_500_000), Int64(1), Int64(500_000)), (0, 0, 0), (-1, -1, 999_999), (-1_000_000, -1, 0)])
    func splitsTimeIntoSecondsAndMicroseconds(total: Int64, seconds: Int64, micros: Int64) {
        let event = InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: total)
        #expect(event.seconds == seconds && event.microsecondsPart == micros)
        #expect(event.seconds * 1_000_000 + event.microsecondsPart == total)
    }
}
