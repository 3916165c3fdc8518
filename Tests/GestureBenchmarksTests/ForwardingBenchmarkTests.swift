import TestSupport
import Testing
import TouchInput

@testable import GestureBenchmarks

@Suite struct ForwardingBenchmarkTests {
    @Test("each stage writes what it is timed for: every frame copied, and the same frames to the clone with or without the loop")
    func stagesWriteWhatTheyAreTimedFor() throws {
        let pad = try RecordedDevices.rmi4
        let frameCount = 2 * ForwardingBenchmark.framesPerTouch
        let frames = try #require(ForwardingBenchmark.motion(on: pad, frameCount: frameCount))
        let result = try #require(ForwardingBenchmark.run(device: pad, frameCount: frameCount, passes: 1))
        #expect(result.frames == frameCount)
        #expect(result.copy.output == frames.reduce(0) { $0 + $1.count })
        #expect(result.loop.output == result.device.output, "the loop and the session alone give the clone different events")
        // Only 3-finger swipes are claimed: one finger's frames all reach the clone, without their SYN_REPORTs
        // when the loop writes them rather than the reader.
        #expect(result.loop.output > frames.reduce(0) { $0 + $1.count(where: { !$0.isSynReport }) } / 2)
        #expect(result.loop.output <= result.copy.output)
        for stage in [result.copy, result.device, result.loop] {
            #expect(stage.nanosecondsPerFrame > 0 && stage.nanosecondsPerFrame.isFinite)
        }
    }
}
