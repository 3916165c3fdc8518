import Foundation
import GestureRecognition
import GestureTraces
import TestSupport
import Testing
import TouchInput

/// What a replay keeps of the frames, for a watcher of the daemon (`gestures ui`).
@Suite struct GestureReplayFramesTests {
    static let trace = SharedData.repositoryRoot.appendingPathComponent("Recordings/synthetic/x1carbon.3-finger-swipe-left.jsonl")

    @Test func aReplayKeepsNoFrameUnlessAsked() throws {
        let run = GestureReplay().run(try Trace.load(contentsOf: Self.trace))
        #expect(run.frames.isEmpty)
        #expect(!run.gestures.isEmpty)
    }

    @Test func aReplayAskedToKeepFramesHasEveryFrameTheDecoderMadeAndTheSameGestures() throws {
        let trace = try Trace.load(contentsOf: Self.trace)
        let kept = GestureReplay().run(trace, keepingFrames: true)
        var decoder = MultitouchDecoder(device: trace.devices[0])
        let decoded = trace.frames.flatMap(\.events).compactMap { decoder.process($0) }
        #expect(kept.frames.map(\.value) == decoded)
        #expect(kept.frames.count == trace.frames.count)
        #expect(kept.outputs == GestureReplay().run(trace).outputs)
        let origin = try #require(trace.frames.first?.events.first?.microseconds)
        #expect(kept.originMicroseconds == origin)
    }
}
