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

    @Test func thePeakSeesMemoryTouchedAndFreedSinceTheReset() throws {
        #if os(Linux)
            ProcessMemory.resetPeak()
            let before = try #require(ProcessMemory.residentBytes)
            let megabytes = 64
            // Touch every page of 64 MB, then free it: resident falls back, the peak must not.
            do {
                let bytes = [UInt8](unsafeUninitializedCapacity: megabytes << 20) { buffer, count in
                    for page in stride(from: 0, to: buffer.count, by: 4096) { buffer[page] = 1 }
                    count = buffer.count
                }
                #expect(bytes[4096] == 1)
            }
            let peak = try #require(ProcessMemory.peakResidentBytes)
            #expect(peak >= before + (megabytes - 4) << 20, "peak \(peak >> 20) MB, \(before >> 20) MB resident before")
        #else
            // Off Linux there is no /proc/self/status: the figures are absent, never made up.
            #expect(ProcessMemory.peakResidentBytes == nil && ProcessMemory.residentBytes == nil)
        #endif
    }
}
