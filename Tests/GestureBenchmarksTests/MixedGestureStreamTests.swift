import GestureBenchmarks
import GestureRecognition
import GestureTraces
import TestSupport
import Testing
import TouchInput

@Suite struct MixedGestureStreamTests {
    @Test func decodedFramesHaveTheGeneratedContacts() throws {
        let pad = try RecordedDevices.rmi4
        let stream = try #require(MixedGestureStream(device: pad))
        let frameCount = 6 * MixedGestureStream.framesPerGesture
        var decoder = MultitouchDecoder(device: pad)
        var index = 0
        for event in stream.events(frameCount: frameCount) {
            guard let touch = decoder.process(event) else { continue }
            let generated = stream.frame(index)
            #expect(touch.contacts.count == generated.contacts.count, "frame \(index)")
            for (decoded, expected) in zip(touch.contacts, generated.contacts) {
                // Device units are 1/20 mm on this pad: rounding moves a position by at most 0.025 mm.
                #expect(decoded.position.distance(to: expected.position) < 0.04, "frame \(index)")
            }
            #expect(touch.fingerCount == generated.contacts.count, "frame \(index)")
            index += 1
        }
        #expect(index == frameCount)
    }

    @Test func oneCycleMakesEveryGestureOfTheCycle() throws {
        let pad = try RecordedDevices.rmi4
        let stream = try #require(MixedGestureStream(device: pad))
        let trace = Trace(device: pad, events: stream.events(frameCount: 6 * MixedGestureStream.framesPerGesture))
        let gestures = GestureReplay().gestures(in: trace)
        let begins = gestures.filter { $0.phase == .begin }.map { "\($0.type.rawValue) \($0.fingers)" }
        #expect(begins == ["swipe 3", "pinch 2", "pinch 4", "hold 3"])
        #expect(gestures.contains { $0.type == .tap && $0.fingers == 2 })
        let swipeEnd = try #require(gestures.first { $0.type == .swipe && $0.phase == .end })
        #expect(swipeEnd.direction == .down)
    }

    @Test func devicesWithoutSlotsHaveNoStream() throws {
        #expect(MixedGestureStream(device: try RecordedDevices.mouse) == nil)
        #expect(MixedGestureStream(device: try RecordedDevices.x1Carbon) == nil)  // 2 slots: no rotation with 4
    }
}
