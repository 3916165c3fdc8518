import DesktopDaemon
import Testing

@Suite struct LineQueueTests {
    @Test func linesComeOutInTheOrderTheyWentIn() {
        let queue = LineQueue(capacity: 8)
        for line in ["a", "b", "c"] { queue.push(line) }
        #expect((0..<3).map { _ in queue.pop(timeout: .zero) } == [.line("a"), .line("b"), .line("c")])
        #expect(queue.pop(timeout: .zero) == .timedOut)
    }

    @Test func aReaderThatFallsBehindLosesTheOldestLinesAndTheyAreCounted() {
        let queue = LineQueue(capacity: 2)
        for line in ["a", "b", "c", "d", "e"] { queue.push(line) }
        #expect(queue.pop(timeout: .zero) == .line("d"))
        #expect(queue.pop(timeout: .zero) == .line("e"))
        #expect(queue.dropped == 3)
    }

    @Test func aClosedQueueGivesWhatWaitsThenClosedAndTakesNoMore() {
        let queue = LineQueue(capacity: 4)
        queue.push("a")
        queue.close()
        queue.push("b")
        #expect(queue.pop(timeout: .seconds(5)) == .line("a"))
        #expect(queue.pop(timeout: .seconds(5)) == .closed)
    }
}
