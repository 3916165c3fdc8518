import Foundation
import GestureBenchmarks
import TestSupport
import Testing

@Suite struct TraceFormatBenchmarkTests {
    @Test func everyFormatReadsBackWhatItWrote() throws {
        let pad = try RecordedDevices.rmi4
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gestures-bench-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = try TraceFormatBenchmark.run(device: pad, frameCount: 300, passes: 1, directory: directory)
        let events = try #require(MixedGestureStream(device: pad)).events(frameCount: 300).count
        #expect(rows.map(\.way) == TraceFormatBenchmark.Way.allCases)
        for row in rows {
            #expect(row.events == events, "\(row.way)")
            #expect(row.bytes > events * 8, "\(row.way): at least 8 bytes an event in any text format")
            for figure in [
                row.writeMegabytesPerSecond, row.writeBaselineMegabytesPerSecond,
                row.readMegabytesPerSecond, row.readBaselineMegabytesPerSecond,
            ] {
                #expect(figure > 0 && figure.isFinite, "\(row.way)")
            }
        }
        #expect(rows[0].bytes == rows[1].bytes, "whole and streamed JSON are the same bytes")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "the files are removed")
    }
}
