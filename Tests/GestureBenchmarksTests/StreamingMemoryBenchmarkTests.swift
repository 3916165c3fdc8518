import Foundation
import GestureBenchmarks
import TestSupport
import Testing

@Suite struct StreamingMemoryBenchmarkTests {
    @Test func aTraceOfTheAskedSizeIsStreamedThroughThePipeline() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gestures-bench-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try StreamingMemoryBenchmark.run(device: try RecordedDevices.rmi4, targetBytes: 300_000, directory: directory)
        #expect(result.bytes >= 300_000)
        #expect(result.frames > 0 && result.events > result.frames)
        #expect(result.gestureEvents > 0)
        #if os(Linux)
        let peak = try #require(result.peakWhileReplayingBytes)
        #expect(peak >= (ProcessMemory.residentBytes ?? 0) / 2)
        #endif
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "the trace is removed")
    }

    @Test func thePeakIsAtLeastWhatIsResident() throws {
        #if os(Linux)
        let resident = try #require(ProcessMemory.residentBytes)
        let peak = try #require(ProcessMemory.peakResidentBytes)
        #expect(peak >= resident)
        #endif
    }
}
