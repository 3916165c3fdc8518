import Foundation
import GestureRecognition
import GestureTraces
import Testing
import TouchInput

/// Issue 16, class 8: a reader that opens a device already in use. The kernel drops an
/// absolute event equal to the value it last reported, so the decoder is seeded with the
/// device's state (what libevdev holds, here a fake built from the same events).
@Suite struct DecoderSeedingTests {
    /// What the kernel (and libevdev) remembers of a device: the current slot and every
    /// key, axis and per-slot value, starting at 0 (-1 for tracking ids).
    struct FakeDeviceState {
        var currentSlot: Int32 = 0
        var values: [[Int32]: Int32] = [:]

        static func isPerSlot(_ code: UInt16) -> Bool { code > ABS.MT_SLOT && code <= 0x3d }

        func value(type: UInt16, code: UInt16, slot: Int32) -> Int32 {
            values[[Int32(type), Int32(code), slot]] ?? (type == EV.ABS && code == ABS.MT_TRACKING_ID ? -1 : 0)
        }

        /// Applies `event`; false when the kernel would drop it (an unchanged key or axis).
        mutating func apply(_ event: InputEvent) -> Bool {
            guard event.type == EV.ABS || event.type == EV.KEY else { return true }
            if event.type == EV.ABS && event.code == ABS.MT_SLOT {
                defer { currentSlot = event.value }
                return event.value != currentSlot
            }
            let slot = event.type == EV.ABS && Self.isPerSlot(event.code) ? currentSlot : -1
            guard value(type: event.type, code: event.code, slot: slot) != event.value else { return false }
            values[[Int32(event.type), Int32(event.code), slot]] = event.value
            return true
        }
    }

    /// The frames `decoder` closes for `frames`, as (finger count, contact slots and positions).
    static func decode(_ frames: ArraySlice<Trace.Frame>, with decoder: inout MultitouchDecoder) -> [String] {
        var out: [String] = []
        for frame in frames {
            for event in frame.events {
                if let touch = decoder.process(event) {
                    let contacts = touch.contacts.map { "\($0.slot)@\(Int($0.position.x * 10)),\(Int($0.position.y * 10))" }
                    out.append("\(touch.fingerCount) \(touch.isTouching) \(contacts)")
                }
            }
        }
        return out
    }

    @Test("a decoder seeded mid-gesture decodes the rest as one that saw every event")
    func seededMidGesture() throws {
        for path in ["synthetic/x1carbon.3-finger-swipe-left.jsonl", "synthetic/rmi4.3-finger-swipe-up-with-resting-thumb.jsonl"] {
            let trace = try GesturePipelineTests.load(path)
            let device = trace.devices[0]
            let start = trace.frames.count / 3
            var everything = MultitouchDecoder(device: device)
            let expected = Self.decode(trace.frames[...], with: &everything).suffix(from: start)
            var state = FakeDeviceState()
            for frame in trace.frames.prefix(start) { for event in frame.events { _ = state.apply(event) } }
            #expect(!state.values.isEmpty)

            var seeded = MultitouchDecoder(device: device)
            seeded.seed(currentSlot: state.currentSlot, value: state.value(type:code:slot:))
            #expect(Self.decode(trace.frames[start...], with: &seeded) == Array(expected), "\(path)")
            // Without the seed the first frames lack the contacts already down.
            var unseeded = MultitouchDecoder(device: device)
            #expect(Self.decode(trace.frames[start...], with: &unseeded) != Array(expected), "\(path)")
        }
    }

    @Test("the same swipe played before and after the reader opens gives the same gestures")
    func swipeAfterTheDeviceWasUsed() throws {
        let trace = try GesturePipelineTests.load("synthetic/x1carbon.3-finger-swipe-left.jsonl")
        let events = trace.frames.flatMap(\.events)
        let duration = events.last!.microseconds - events.first!.microseconds + 1_000_000
        // The first play, before the reader opens: the device keeps its last values.
        var state = FakeDeviceState()
        for event in events { _ = state.apply(event) }
        let atOpen = state
        // The second play, a second later, as the kernel delivers it: unchanged values dropped.
        var delivered: [InputEvent] = []
        for var event in events {
            event.microseconds += duration
            if state.apply(event) { delivered.append(event) }
        }
        #expect(delivered.count < events.count, "the kernel drops some repeated values")
        var pipeline = try #require(GesturePipeline(device: trace.devices[0], originMicroseconds: delivered[0].microseconds))
        pipeline.seed(currentSlot: atOpen.currentSlot, value: atOpen.value(type:code:slot:))
        var gestures: [GestureEvent] = []
        for event in delivered { gestures += pipeline.process(event) }
        gestures += pipeline.finish()
        let replayed = GestureReplay().gestures(in: trace)
        #expect(gestures.map(\.type) == replayed.map(\.type))
        #expect(gestures.map(\.phase) == replayed.map(\.phase))
        #expect(gestures.contains { $0.type == .swipe && $0.phase == .end && $0.cancelled != true })
    }

    @Test("seeding keeps the keys and the slot the device reports next")
    func seedsKeysAndSlot() throws {
        let device = try GesturePipelineTests.load(GesturePipelineTests.swipe).devices[0]
        var state = FakeDeviceState()
        for (code, value) in [(ABS.MT_SLOT, 1), (ABS.MT_TRACKING_ID, 4), (ABS.MT_POSITION_X, 3000), (ABS.MT_POSITION_Y, 2500)] {
            _ = state.apply(InputEvent(type: EV.ABS, code: code, value: Int32(value), microseconds: 0))
        }
        _ = state.apply(InputEvent(type: EV.KEY, code: BTN.TOUCH, value: 1, microseconds: 0))
        _ = state.apply(InputEvent(type: EV.KEY, code: BTN.TOOL_FINGER, value: 1, microseconds: 0))
        var decoder = MultitouchDecoder(device: device)
        decoder.seed(currentSlot: state.currentSlot, value: state.value(type:code:slot:))
        #expect(decoder.finish() == nil, "a seed closes no frame")
        // The kernel sends only what changed: x in the current slot (1), no MT_SLOT.
        _ = decoder.process(InputEvent(type: EV.ABS, code: ABS.MT_POSITION_X, value: 3100, microseconds: 10))
        let closed = decoder.process(InputEvent(type: EV.SYN, code: SYN.REPORT, value: 0, microseconds: 10))
        let frame = try #require(closed)
        #expect(frame.fingerCount == 1 && frame.isTouching)
        #expect(frame.contacts.map(\.slot) == [1])
        let scale = try #require(device.positionScale(multitouch: true))
        #expect(abs(frame.contacts[0].position.x - Double(3100 - scale.minimumX) / scale.unitsPerMillimeterX) < 0.01)
    }
}
