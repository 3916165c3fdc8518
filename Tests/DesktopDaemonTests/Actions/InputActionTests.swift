import DesktopDaemon
import EvdevInput
import Foundation
import GestureRecognition
import Synchronization
import Testing
import TouchInput

/// Virtual input devices that keep what is written to them.
final class RecordingInputDevices: VirtualInputDevices {
    private let written = Mutex<[(VirtualInputDevice, [InputEvent])]>([])

    func prepare() -> String? { "made the recording devices" }

    func write(_ frames: [[InputEvent]], to device: VirtualInputDevice) throws(EvdevError) {
        written.withLock { $0 += frames.map { (device, $0) } }
    }

    /// The frames written to `device`, as `code=value` words.
    func frames(of device: VirtualInputDevice) -> [[String]] {
        written.withLock { $0.filter { $0.0 == device }.map { $0.1.map { "\($0.code)=\($0.value)" } } }
    }

    /// Waits (up to 5 s) until `condition` holds for what was written.
    func waitUntil(_ condition: (RecordingInputDevices) -> Bool) -> Bool {
        for _ in 0..<500 {
            if condition(self) { return true }
            usleep(10_000)
        }
        return condition(self)
    }
}

@Suite("Input actions: keys, clicks and drags through the daemon's virtual devices")
struct InputActionTests {
    private let pad = InputDevice(id: 1, name: "pad")

    @Test("a chord is pressed in order and released in reverse, one change a frame")
    func chordFrames() {
        let frames = InputStep.keys([125, 106]).frames.map { $0.map { "\($0.code)=\($0.value)" } }
        #expect(frames == [["125=1"], ["106=1"], ["106=0"], ["125=0"]])
        #expect(InputStep.click(BTN.LEFT).frames.map { $0.map(\.value) } == [[1], [0]])
    }

    @Test("a keys binding fires its chord on the keyboard, a button binding clicks the pointer")
    func keysAndClicks() throws {
        let devices = RecordingInputDevices(), log = LogLines()
        let daemon = GestureDaemon(
            configuration: try configuration(
                withBindings(
                    """
                    {"gesture": "tap", "fingers": 3, "action": {"keys": ["leftmeta", "right"]}},
                    {"gesture": "tap", "fingers": 2, "action": {"button": "middle"}}
                    """)), launcher: RecordingLauncher(), inputDevices: devices, log: log.log)
        try daemon.run(
            ClosureGestureSource { sink in
                sink.deliver(GestureEvent(type: .tap, time: .zero, fingers: 3), InputDevice(id: 1, name: "pad"))
                sink.deliver(GestureEvent(type: .tap, time: .zero, fingers: 2), InputDevice(id: 1, name: "pad"))
            })
        #expect(devices.frames(of: .keyboard) == [["125=1"], ["106=1"], ["106=0"], ["125=0"]])
        #expect(devices.frames(of: .pointer) == [["274=1"], ["274=0"]])
        #expect(log.all.contains { $0.hasPrefix("fired bindings[0] (") && $0.hasSuffix("): keys leftmeta+right") })
        #expect(log.all.contains("made the recording devices"))
    }

    @Test("a drag presses at the begin, moves with the swipe and releases after the fingers lift")
    func drag() throws {
        let devices = RecordingInputDevices(), log = LogLines()
        let daemon = GestureDaemon(
            configuration: try configuration(withBindings(#"{"gesture": "swipe", "fingers": 3, "action": {"drag": "left"}}"#)),
            launcher: RecordingLauncher(), inputDevices: devices, log: log.log)
        let events = Stream.swipe(fingers: 3, steps: [(1, 0), (2, 0.5), (3.5, 1)], direction: .right)
        try daemon.run(ClosureGestureSource { sink in events.forEach { sink.deliver($0, InputDevice(id: 1, name: "pad")) } })
        #expect(devices.waitUntil { $0.frames(of: .pointer).last == ["272=0"] })
        let frames = devices.frames(of: .pointer)
        #expect(frames.first == ["272=1"])
        // 3.5 mm right and 1 mm down at 39.37 counts per mm, fractions carried.
        let motion = frames.dropFirst().dropLast().flatMap { $0 }
        let dx = motion.filter { $0.hasPrefix("0=") }.map { Int($0.dropFirst(2))! }.reduce(0, +)
        let dy = motion.filter { $0.hasPrefix("1=") }.map { Int($0.dropFirst(2))! }.reduce(0, +)
        #expect(dx == 137 && dy == 39, "\(frames)")
        #expect(log.all.filter { $0.contains("fired") }.count == 1)
    }

    @Test("a cancelled swipe releases its drag")
    func cancelledDragReleases() throws {
        var matcher = BindingMatcher(
            configuration: try configuration(withBindings(#"{"gesture": "swipe", "fingers": 3, "action": {"drag": "right"}}"#)))
        let steps = Stream.swipe(fingers: 3, steps: [(2, 0)], direction: nil, cancelled: true).flatMap { matcher.process($0, from: pad) }
            .map(\.input)
        #expect(steps == [.dragPress(BTN.RIGHT), .dragMove(dxMillimeters: 2, dyMillimeters: 0), .dragRelease])
    }

    @Test("a drag begun again within the release delay keeps the button down")
    func dragContinues() {
        let devices = RecordingInputDevices()
        let performer = InputActionPerformer(devices: devices, log: LogLines().log, releaseDelay: .seconds(30))
        performer.perform(.dragPress(BTN.LEFT), for: "b")
        performer.perform(.dragMove(dxMillimeters: 1, dyMillimeters: 0), for: "b")
        performer.perform(.dragRelease, for: "b")
        performer.perform(.dragPress(BTN.LEFT), for: "b")
        performer.perform(.dragMove(dxMillimeters: 1, dyMillimeters: 0), for: "b")
        performer.waitUntilIdle()
        #expect(devices.frames(of: .pointer) == [["272=1"], ["0=39"], ["0=39"]])
    }
}
