import InputInterception
import Testing

@Suite struct LostEventsWarningTests {
    private let start = ContinuousClock.Instant.now

    @Test func theFirstLossIsWarnedAboutInOneSentence() {
        var warning = LostEventsWarning()
        #expect(
            warning.sentence(node: "/dev/input/event5", cancelling: "the gesture in progress", now: start)
                == "the kernel dropped events from /dev/input/event5 (this program fell behind); the gesture in progress is cancelled.")
    }

    @Test("further losses within the interval are not warned about, whichever device", arguments: [0, 1, 5, 9])
    func lossesWithinTheIntervalAreQuiet(seconds: Int) {
        var warning = LostEventsWarning()
        _ = warning.sentence(node: "/dev/input/event5", cancelling: "a stroke in progress", now: start)
        #expect(
            warning.sentence(
                node: "/dev/input/event7", cancelling: "a stroke in progress",
                now: start + .seconds(seconds)) == nil)
    }

    @Test func aLossAfterTheIntervalIsWarnedAboutAgain() {
        var warning = LostEventsWarning()
        _ = warning.sentence(node: "/dev/input/event5", cancelling: "a stroke in progress", now: start)
        _ = warning.sentence(node: "/dev/input/event5", cancelling: "a stroke in progress", now: start + .seconds(4))
        let later = start + LostEventsWarning.interval
        #expect(warning.sentence(node: "/dev/input/event5", cancelling: "a stroke in progress", now: later) != nil)
        // The interval counts from the latest warning, not the first loss.
        #expect(warning.sentence(node: "/dev/input/event5", cancelling: "a stroke in progress", now: later + .seconds(9)) == nil)
    }
}
