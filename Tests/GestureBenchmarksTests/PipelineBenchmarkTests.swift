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
            #expect(stage.seconds > 0 && stage.seconds.isFinite)
            // Each rate is the run's own count over the pass it reports: this fails for
            // a rate that used another count, another pass's time, or a stale figure.
            #expect(abs(stage.eventsPerSecond * stage.seconds - Double(result.events)) <= 1e-6 * Double(result.events))
            #expect(abs(stage.framesPerSecond * stage.seconds - Double(result.frames)) <= 1e-6 * Double(result.frames))
        }
    }

    @Test func devicesWithoutSlotsCannotBeMeasured() throws {
        #expect(PipelineBenchmark.run(device: try RecordedDevices.mouse, frameCount: 1_000, passes: 1) == nil)
    }
}
