import Foundation
import GestureBenchmarks
import TestSupport
import Testing

/// Serialized: both tests reset the process's peak, which is one for the
/// whole process (other suites running beside only add to it).
@Suite(.serialized) struct StreamingMemoryBenchmarkTests {
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
            let megabytes = 64
            // Touch every page of 64 MB, then free it: resident falls back, the peak must not.
            // (Compared with the resident size while the pages are held, not before: tests
            // running beside may free their own memory meanwhile.)
            var held = 0
            do {
                let bytes = [UInt8](unsafeUninitializedCapacity: megabytes << 20) { buffer, count in
                    for page in stride(from: 0, to: buffer.count, by: 4096) { buffer[page] = 1 }
                    count = buffer.count
                }
                held = try #require(ProcessMemory.residentBytes)
                #expect(bytes[4096] == 1)
            }
            #expect(held >= (megabytes - 4) << 20, "\(held >> 20) MB resident with \(megabytes) MB touched")
            let peak = try #require(ProcessMemory.peakResidentBytes)
            // 4 MB of slack: the kernel counts each thread's pages in batches, so two readings may differ a little.
            #expect(peak + (4 << 20) >= held, "peak \(peak >> 20) MB, \(held >> 20) MB resident while the pages were held")
        #else
            // Off Linux there is no /proc/self/status: the figures are absent, never made up.
            #expect(ProcessMemory.peakResidentBytes == nil && ProcessMemory.residentBytes == nil)
        #endif
    }
}
