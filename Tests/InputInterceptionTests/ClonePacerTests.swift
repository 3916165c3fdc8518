import InputInterception
import Testing
import TouchInput

@Suite struct ClonePacerTests {
    /// A one-event frame at `time` µs.
    func frame(_ time: Int64, _ x: Int32 = 0) -> [InputEvent] {
        [InputEvent(type: EV.ABS, code: ABS.MT_POSITION_X, value: x, microseconds: time)]
    }

    @Test func framesAtTheDevicePaceGoOutAtOnce() {
        var pacer = ClonePacer()
        for index in 0..<10 {
            let time = Int64(index) * 10_000
            pacer.enqueue([frame(time)])
            // Read 300 µs after the device sent it.
            #expect(pacer.take(nowMicroseconds: time + 300).count == 1)
        }
        #expect(pacer.isEmpty)
    }

    @Test func aBurstReplaysAtTwiceItsSpeed() {
        var pacer = ClonePacer()
        pacer.enqueue((0..<8).map { frame(Int64($0) * 10_000, Int32($0)) })
        var written: [Int64] = []
        var now: Int64 = 80_000
        while !pacer.isEmpty {
            written += pacer.take(nowMicroseconds: now).map { _ in now }
            now = pacer.nextDueMicroseconds ?? now
        }
        #expect(written == [80_000, 85_000, 90_000, 95_000, 100_000, 105_000, 110_000, 115_000])
    }

    @Test func theNextFrameIsSpacedFromTheWriteNotFromTheTake() {
        var pacer = ClonePacer()
        pacer.enqueue([frame(0, 1), frame(10_000, 2)])
        #expect(pacer.take(nowMicroseconds: 50_000).map { $0[0].value } == [1])
        // The write returned 4.9 ms after the take (the CPU was elsewhere): the
        // kernel stamped frame 1 then, so frame 2 waits 5 ms from there.
        pacer.noteWritten(atMicroseconds: 54_900)
        #expect(pacer.nextDueMicroseconds == 59_900)
        #expect(pacer.take(nowMicroseconds: 55_000).isEmpty)
        #expect(pacer.take(nowMicroseconds: 59_900).map { $0[0].value } == [2])
    }

    @Test func aWriteTimeBeforeTheTakeChangesNothing() {
        var pacer = ClonePacer()
        pacer.enqueue([frame(0, 1), frame(10_000, 2)])
        _ = pacer.take(nowMicroseconds: 50_000)
        pacer.noteWritten(atMicroseconds: 49_000)
        #expect(pacer.nextDueMicroseconds == 55_000)
    }

    @Test func aLongGapWaitsAtMostTheMaximumSpacing() {
        var pacer = ClonePacer()
        pacer.enqueue([frame(0), frame(1_000_000)])
        #expect(pacer.take(nowMicroseconds: 2_000_000).count == 1)
        #expect(pacer.nextDueMicroseconds == 2_000_000 + ClonePacer.maximumSpacing)
    }

    @Test func framesOfTheSameTimeGoOutTogetherAndOrderIsKept() {
        var pacer = ClonePacer()
        pacer.enqueue([frame(5_000, 1), frame(5_000, 2), frame(5_000, 3)])
        #expect(pacer.take(nowMicroseconds: 6_000).map { $0[0].value } == [1, 2, 3])
        pacer.enqueue([frame(10_000, 4), frame(20_000, 5)])
        #expect(pacer.take(nowMicroseconds: 6_500).isEmpty)
        #expect(pacer.drain().map { $0[0].value } == [4, 5])
    }

    @Test func aWholeTouchReplaysAtItsOwnPace() {
        var pacer = ClonePacer()
        pacer.enqueue([frame(0, 1), frame(40_000, 2), frame(250_000, 3)], atOriginalPace: true)
        var written: [Int64] = []
        var now: Int64 = 300_000
        while !pacer.isEmpty {
            written += pacer.take(nowMicroseconds: now).map { _ in now }
            now = pacer.nextDueMicroseconds ?? now
        }
        #expect(written == [300_000, 340_000, 550_000])
    }
}
