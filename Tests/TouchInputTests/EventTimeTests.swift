import GestureRecognition
import TestSupport
import Testing
import TouchInput

/// Event times may be any Int64, in any order (issue 16, class 1): every
/// difference and conversion saturates instead of trapping.
@Suite struct EventTimeTests {
    static let edges: [Int64] = [.min, .min + 1, -1_000_001, -1, 0, 1, 999_999, 1_000_000, .max - 1, .max]

    @Test func differencesSaturateAtTheEndsOfInt64() {
        #expect(EventTime.microseconds(from: .min, to: .max) == .max)
        #expect(EventTime.microseconds(from: .max, to: .min) == .min)
        #expect(EventTime.microseconds(from: 0, to: .min) == .min)
        #expect(EventTime.microseconds(from: -1, to: .max) == .max)
        #expect(EventTime.microseconds(from: 1_000, to: 4_000) == 3_000)
        #expect(EventTime.microseconds(from: 4_000, to: 1_000) == -3_000)
        #expect(EventTime.duration(from: 1_000, to: 4_000) == .milliseconds(3))
        #expect(EventTime.seconds(from: .min, to: .max) == Double(Int64.max) / 1e6)
    }

    @Test(arguments: edges)
    func sumsAndDifferencesNeverTrap(time: Int64) {
        for other in Self.edges {
            let difference = EventTime.microseconds(from: other, to: time)
            let exact = time.subtractingReportingOverflow(other)
            #expect(exact.overflow || difference == exact.partialValue)
            let sum = EventTime.adding(other, to: time)
            let exactSum = time.addingReportingOverflow(other)
            #expect(exactSum.overflow || sum == exactSum.partialValue)
            if exactSum.overflow { #expect(sum == (other > 0 ? .max : .min)) }
        }
    }

    @Test func durationsConvertBackRoundedUpAndSaturated() {
        #expect(EventTime.microseconds(roundingUp: .nanoseconds(1_500)) == 2)
        #expect(EventTime.microseconds(roundingUp: .microseconds(7)) == 7)
        #expect(EventTime.microseconds(roundingUp: .seconds(Int64.max)) == .max)
        #expect(EventTime.microseconds(roundingUp: .seconds(Int64.min)) == .min)
    }

    @Test(arguments: edges)
    func secondsAndMicrosecondsPartAreDefinedForEveryTime(time: Int64) {
        let event = InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: time)
        #expect((0..<1_000_000).contains(event.microsecondsPart))
        // seconds * 1e6 + part == time, computed without overflow.
        let (scaled, overflow) = event.seconds.multipliedReportingOverflow(by: 1_000_000)
        if !overflow { #expect(scaled &+ event.microsecondsPart == time) }
        #expect(!event.description.isEmpty)
    }

    @Test func negativeTimesFloor() {
        let event = InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: -1)
        #expect(event.seconds == -1 && event.microsecondsPart == 999_999)
        let minimum = InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: .min)
        #expect(minimum.seconds == -9_223_372_036_855 && minimum.microsecondsPart == 224_192)
    }

    /// A two-finger touch on the touchscreen whose frames come at `times`.
    static func events(at times: [Int64]) -> [InputEvent] {
        var events: [InputEvent] = []
        for (index, time) in times.enumerated() {
            func add(_ type: UInt16, _ code: UInt16, _ value: Int32) {
                events.append(InputEvent(type: type, code: code, value: value, microseconds: time))
            }
            for slot: Int32 in [0, 1] {
                add(EV.ABS, ABS.MT_SLOT, slot)
                if index == 0 { add(EV.ABS, ABS.MT_TRACKING_ID, slot + 1) }
                if index == times.count - 1 { add(EV.ABS, ABS.MT_TRACKING_ID, -1); continue }
                add(EV.ABS, ABS.MT_POSITION_X, 300 + Int32(index) * 40 * (slot == 0 ? -1 : 1))
                add(EV.ABS, ABS.MT_POSITION_Y, 240)
            }
            add(EV.KEY, BTN.TOUCH, index == times.count - 1 ? 0 : 1)
            add(EV.SYN, SYN.REPORT, 0)
        }
        return events
    }

    @Test(
        "the pipeline takes frames at the ends of Int64, in any order",
        arguments: [
            [Int64.max - 30_000, Int64.max - 20_000, Int64.max - 10_000, Int64.max],
            [Int64.min, Int64.min + 10_000, Int64.min + 20_000, Int64.min + 30_000],
            [Int64.max, Int64.min, Int64.max, Int64.min],
            [0, Int64.max, Int64.min, 0],
        ])
    func pipelineTakesEdgeTimes(times: [Int64]) throws {
        for origin in [times[0], 0, Int64.min, Int64.max] {
            var pipeline = try #require(GesturePipeline(device: RecordedDevices.maXTouch, originMicroseconds: origin))
            var gestures: [GestureEvent] = []
            var frames = 0
            for event in Self.events(at: times) {
                if pipeline.process(event, into: &gestures) != nil { frames += 1 }
                if let due = pipeline.nextDeadlineMicroseconds { gestures += pipeline.advance(toMicroseconds: due) }
            }
            gestures += pipeline.advance(toMicroseconds: .max)
            gestures += pipeline.advance(toMicroseconds: .min)
            gestures += pipeline.finish()
            // Every frame was decoded, and every gesture that began ended: the times changed nothing else.
            #expect(frames == times.count, "origin \(origin): \(frames) of \(times.count) frames decoded")
            let begun = gestures.filter { $0.phase == .begin }.count
            #expect(begun == gestures.filter { $0.phase == .end }.count, "origin \(origin): \(gestures)")
        }
    }
}
