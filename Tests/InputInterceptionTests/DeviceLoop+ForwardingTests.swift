import DeviceScripts
import GestureRecognition
import InputInterception
import TestSupport
import Testing
import TouchInput

/// The reader's forwarding through the loop (``ScriptedDevices`` forwards an
/// armed device's frames of motion alone as the kernel's reader does): what
/// goes to the clone as it is read, and what takes the loop's path.
@Suite struct DeviceLoopForwardingTests {
    let pad: DeviceDescription
    init() throws { pad = try RecordedDevices.rmi4 }

    static let swipes = PassThroughFilter.Policy(claims: [.init(gesture: .swipe, fingers: 3)])

    /// Whether a frame lands or lifts a contact.
    func changesContacts(_ frame: [InputEvent]) -> Bool { frame.contains { $0.type == EV.ABS && $0.code == ABS.MT_TRACKING_ID } }

    @Test func oneFingerMotionGoesToTheCloneAsItIsReadAndIsWrittenOnce() {
        // Each frame with the MSC_TIMESTAMP a touchpad sends: an event no state keeps, so a
        // second write of a frame would show even where the clone's state has it already.
        let frames = TouchScript(device: pad, fingers: [.moving(30, 20, dx: 0.7, dy: 0.2, down: 0, up: 300)]).frames().map {
            frame -> [InputEvent] in
            frame.count < 2
                ? frame
                : Array(frame.dropLast()) + [
                    InputEvent(
                        type: EV.MSC, code: 5, value: Int32(frame.last!.microseconds % 1_000_000), microseconds: frame.last!.microseconds),
                    frame.last!,
                ]
        }
        let run = LoopRecording.run(frames, device: pad, policy: Self.swipes)
        let written = run.io.written.filter { !$0.atStop }
        // The landing and the lift are the loop's; every frame between was the reader's.
        let motion = frames.filter { !changesContacts($0) && InterceptedDevice.isMotion($0) }
        #expect(motion.count > 20)
        #expect(written.filter(\.forwarded).map(\.events) == motion.map { $0.filter { !$0.isSynReport } })
        #expect(written.filter { !$0.forwarded }.allSatisfy { changesContacts($0.events) || $0.events.contains { $0.type == EV.KEY } })
        // Each forwarded frame once: the loop writes nothing of it again (at its time).
        let forwardedAt = Set(written.filter(\.forwarded).map(\.time))
        #expect(!written.contains { !$0.forwarded && forwardedAt.contains($0.time) }, "a forwarded frame was written again")
        #expect(LoopRecording.states(written.map(\.events)) == LoopRecording.states(frames))
    }

    @Test func aLandingOnAnArmedDeviceTakesTheLoopsPathAndAClaimedCountDisarmsIt() {
        // Fingers landing 80 ms apart: one, two (below the claimed three: still armed after
        // the landing), then three, a claimed count.
        let fingers: [TouchScript.Finger] = (0..<3).map {
            .moving(20 + 12 * Double($0), 25, dx: 0.8, dy: 0, down: 80 * Int64($0), up: 400)
        }
        let frames = TouchScript(device: pad, fingers: fingers).frames()
        let run = LoopRecording.run(frames, device: pad, policy: Self.swipes)
        let written = run.io.written.filter { !$0.atStop }
        #expect(!written.contains { $0.forwarded && (changesContacts($0.events) || $0.events.contains { $0.type == EV.KEY }) })
        let third = TouchScript(device: pad, fingers: fingers).start + 160_000
        #expect(written.contains { $0.forwarded && $0.time < third }, "nothing was forwarded before the claimed count")
        #expect(!written.contains { $0.forwarded && $0.time >= third }, "motion forwarded with a claimed count down")
        // Armed while one or two fingers moved, disarmed when the third landed, never armed twice in a row.
        let armings = run.io.armings.map(\.armed)
        #expect(armings.first == true && armings.last == false)
        #expect(zip(armings, armings.dropFirst()).allSatisfy { $0 != $1 })
        #expect(run.gestures.contains { $0.outline == "swipe begin 3" })
    }

    @Test func aClaimedSwipeIsNeverForwarded() {
        let fingers: [TouchScript.Finger] = (0..<3).map { .moving(20 + 10 * Double($0), 25, dx: 1, dy: 0, down: 0, up: 270, moveFrom: 20) }
        let run = LoopRecording.run(TouchScript(device: pad, fingers: fingers).frames(), device: pad, policy: Self.swipes)
        #expect(!run.io.written.contains { $0.forwarded })
        #expect(run.io.armings.isEmpty)
    }

    @Test func aTouchscreensFingerIsNeverForwarded() throws {
        let screen = try RecordedDevices.maXTouch
        let frames = TouchScript(device: screen, fingers: [.moving(30, 20, dx: 0.7, dy: 0, down: 0, up: 300)]).frames()
        let run = LoopRecording.run(frames, device: screen, policy: Self.swipes)
        #expect(!run.io.written.contains { $0.forwarded })
    }
}
