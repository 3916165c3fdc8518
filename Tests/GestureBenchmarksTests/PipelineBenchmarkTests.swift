import GestureBenchmarks
import GestureTraces
import TestSupport
import Testing
import TouchInput

@Suite struct PipelineBenchmarkTests {
    @Test func stagesDoTheWorkTheyAreTimedFor() throws {
        let pad = try RecordedDevices.rmi4
        let frameCount = 2_000
        let result = try #require(PipelineBenchmark.run(device: pad, frameCount: frameCount, passes: 1))
        let stream = try #require(MixedGestureStream(device: pad))
        let events = stream.events(frameCount: frameCount)
        #expect(result.events == events.count)
        #expect(result.frames == frameCount)
        #expect(
            result.readAndSum.output
                == events.reduce(0) {
                    $0 &+ Int($1.type) &+ Int($1.code) &+ Int($1.value) &+ Int($1.microseconds)
                })
        #expect(result.decoder.output == (0..<frameCount).reduce(0) { $0 + stream.frame($1).contacts.count })
        // The gestures of a replay, less those that only finishing the input ends.
        let replayed = GestureReplay().gestures(in: Trace(device: pad, events: events))
        var pipeline = try #require(GesturePipeline(device: pad, originMicroseconds: 0))
        let unfinished = events.reduce(0) { $0 + pipeline.process($1).count }
        #expect(result.decoderAndEngine.output == unfinished)
        #expect(unfinished > 0 && unfinished <= replayed.count)
        for stage in [result.readAndSum, result.decoder, result.decoderAndEngine] {
            #expect(stage.eventsPerSecond > 0 && stage.eventsPerSecond.isFinite)
            // Both rates come from one pass: events per frame, as the run counted them (this fails
            // if the fastest pass were chosen for each rate apart, or a rate used another count).
            let ratio = stage.eventsPerSecond / stage.framesPerSecond
            let expected = Double(result.events) / Double(result.frames)
            #expect(abs(ratio - expected) <= 1e-9 * expected, "\(ratio) events a frame, the run has \(expected)")
        }
    }

    @Test func devicesWithoutSlotsCannotBeMeasured() throws {
        #expect(PipelineBenchmark.run(device: try RecordedDevices.mouse, frameCount: 1_000, passes: 1) == nil)
    }
}
