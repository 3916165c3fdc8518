import Foundation
import GestureBenchmarks
import GestureRecognition
import GestureTraces
import TestSupport
import Testing

@Suite struct BeginDelayBenchmarkTests {
    @Test func aSyntheticSwipeBeginsOnTheFrameItCrossesTheThreshold() throws {
        let url = RecordedDevices.directory.deletingLastPathComponent()
            .appendingPathComponent("synthetic").appendingPathComponent("rmi4.3-finger-swipe-up-right.jsonl")
        let delays = BeginDelayBenchmark.measure(try Trace.load(contentsOf: url))
        #expect(delays == [BeginDelayBenchmark.Delay(type: .swipe, frames: 0, milliseconds: 0)])
    }

    @Test func summariesCountEachKind() {
        let summaries = BeginDelayBenchmark.summarize([
            .init(type: .swipe, frames: 0, milliseconds: 0),
            .init(type: .swipe, frames: 2, milliseconds: 16),
            .init(type: .pinch, frames: 1, milliseconds: 8),
        ])
        #expect(summaries.map(\.type) == [.swipe, .pinch])
        #expect(summaries[0].begins == 2 && summaries[0].meanFrames == 1 && summaries[0].meanMilliseconds == 8)
        #expect(summaries[0].maximumFrames == 2 && summaries[0].histogram == [0: 1, 2: 1])
        #expect(summaries[1].histogram == [1: 1])
    }
}
