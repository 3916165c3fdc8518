import DesktopDaemon
import EvdevInput
import Foundation
import GestureRecognition
import Testing
import TouchInput

/// Virtual devices that cannot be made, as without /dev/uinput.
final class MissingInputDevices: VirtualInputDevices {
    func prepare() -> String? {
        "cannot make the virtual keyboard and pointer for keys, button and drag actions, which will not run: no /dev/uinput"
    }
    func write(_ frames: [[InputEvent]], to device: VirtualInputDevice) throws(EvdevError) {
        throw EvdevError.uinputUnavailable(errno: 2)
    }
}

@Suite("Input actions that fail (issue 26, class 9; issue 21)")
struct InputActionFailureTests {
    @Test("a drag over a long swipe without uinput logs one failure and counts one failed action")
    func failingDragIsOneFailure() throws {
        let log = LogLines()
        let daemon = GestureDaemon(
            configuration: try configuration(withBindings(#"{"gesture": "swipe", "fingers": 3, "action": {"drag": "left"}}"#)),
            launcher: RecordingLauncher(), inputDevices: MissingInputDevices(), log: log.log)
        let steps = (1...80).map { (Double($0), 0.0) }
        let events = Stream.swipe(fingers: 3, steps: steps, direction: .right)
        try daemon.run(ClosureGestureSource { sink in events.forEach { sink.deliver($0, InputDevice(id: 1, name: "pad")) } })
        let failures = log.all.filter { $0.hasPrefix("failed") }
        #expect(failures.count == 1, "\(log.all.count) lines: \(failures.prefix(3))")
        #expect(daemon.runner.counts.failed == 1)
    }

    @Test("every failing keys action counts, though the same failure is logged once")
    func failingKeysCountEach() throws {
        let log = LogLines()
        let daemon = GestureDaemon(
            configuration: try configuration(withBindings(#"{"gesture": "tap", "fingers": 3, "action": {"keys": ["leftmeta", "right"]}}"#)),
            launcher: RecordingLauncher(), inputDevices: MissingInputDevices(), log: log.log)
        try daemon.run(
            ClosureGestureSource { sink in
                for _ in 0..<5 { sink.deliver(GestureEvent(type: .tap, time: .zero, fingers: 3), InputDevice(id: 1, name: "pad")) }
            })
        #expect(daemon.runner.counts.failed == 5)
        #expect(log.all.filter { $0.hasPrefix("failed") }.count == 1)
        #expect(log.all.contains { $0.hasPrefix("cannot make the virtual keyboard") })
        // A sentence quoted inside a line keeps its punctuation whole: no '.;', '.,' or '..'.
        for line in log.all { #expect(![".;", ".,", "..", ".:"].contains { line.contains($0) }, "\(line)") }
        #expect(
            log.all.contains {
                $0.hasSuffix("owning /dev/uinput. Input actions that fail the same way are counted in the summary, not logged again.")
            }, "\(log.all)")
    }

    @Test("the daemon's log escapes control characters, whatever a line holds")
    func logIsText() {
        let log = LogLines()
        log.log.write("fired \u{1B}]0;title\u{07} and\nmore")
        #expect(log.all == [#"fired \u{1b}]0;title\u{7} and more"#])
    }
}
