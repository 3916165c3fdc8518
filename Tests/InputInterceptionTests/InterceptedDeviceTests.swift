import GestureRecognition
import InputInterception
import TestSupport
import Testing
import TouchInput

/// One device's order of things: what reaches the clone before the
/// pipeline runs, and what after.
@Suite struct InterceptedDeviceTests {
    static let swipes = PassThroughFilter.Policy(claims: [.init(gesture: .swipe, fingers: 3)])

    /// Every frame of `script` through a fresh intercepted device: for each,
    /// what went ahead of the pipeline and what the step gave after it.
    func play(_ script: TouchScript, policy: PassThroughFilter.Policy = swipes) throws -> [(ahead: [InputEvent]?, after: [[InputEvent]])] {
        var device = try #require(
            InterceptedDevice(device: script.device, setup: .init(), originMicroseconds: 0, policy: policy))
        return script.frames().map { frame in
            let now = frame.last!.microseconds
            // What an armed reader does: forward the frame as it reads it.
            var ahead: [InputEvent]?
            if device.forwardsMotion && InterceptedDevice.isMotion(frame) {
                ahead = frame.filter { !$0.isSynReport }
                device.noteForwarded(frame, nowMicroseconds: now)
            }
            return (ahead, device.process(frame, nowMicroseconds: now, claims: { policy }).cloneFrames)
        }
    }

    @Test func oneFingerMotionOnATouchpadGoesOutBeforeThePipelineAndOnlyOnce() throws {
        let script = TouchScript(device: try RecordedDevices.rmi4, fingers: [.moving(30, 20, dx: 0.7, dy: 0.2, down: 0, up: 300)])
        let steps = try play(script)
        let frames = script.frames()
        let lift = try #require(frames.firstIndex { $0.contains { $0.code == ABS.MT_TRACKING_ID && $0.value == -1 } })
        // The landing and the lift go the ordinary way; every motion frame between goes ahead, and is not written again.
        #expect(steps[0].ahead == nil && steps[lift].ahead == nil && !steps[lift].after.isEmpty)
        let motion = steps[1..<lift]
        #expect(motion.count > 20 && motion.allSatisfy { $0.ahead != nil && $0.after.isEmpty })
        let written = steps.flatMap { ($0.ahead.map { [$0] } ?? []) + $0.after }
        #expect(EvdevState.distinctStates(written) == EvdevState.distinctStates(script.frames()))
    }

    @Test func nothingGoesAheadWithAClaimedFingerCountDownOrOnATouchscreen() throws {
        let pad = try RecordedDevices.rmi4
        let three = TouchScript(
            device: pad, fingers: (0..<3).map { .moving(20 + 12 * Double($0), 20, dx: 1, dy: 0, down: 0, up: 300, moveFrom: 30) })
        #expect(try play(three).allSatisfy { $0.ahead == nil })
        let touch = TouchScript(device: try RecordedDevices.maXTouch, fingers: [.moving(30, 20, dx: 0.7, dy: 0, down: 0, up: 300)])
        #expect(try play(touch).allSatisfy { $0.ahead == nil })
    }

    @Test func theFewestClaimedFingersIsTheSmallestClaimedCount() {
        typealias Policy = PassThroughFilter.Policy
        let policies = [
            Policy(), Policy(claims: [.init(gesture: .swipe, fingers: 4), .init(gesture: .swipe, fingers: 3)]),
            Policy(claims: [.init(gesture: .pinch)]),
            Policy(claims: [.init(gesture: .stroke, fingers: 1), .init(gesture: .swipe, fingers: 3)]),
        ]
        #expect(policies.map(\.fewestClaimedFingers) == policies.map { $0.claimedFingerCounts.min() })
        #expect(policies.map(\.fewestClaimedFingers) == [nil, 3, 2, 1])
    }
}
