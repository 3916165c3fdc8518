import Foundation
import GestureTraces
import TestSupport
import Testing
import TouchInput

/// The device files in `Recordings/devices/` are the devices the synthetic
/// traces were written on: editing one without running
/// `Tools/make-synthetic-traces.py` again fails here.
@Suite struct DeviceFilesTests {
    /// Every synthetic trace (not the expected outputs), by file name.
    static let syntheticTraces: [String] = {
        let folder = RecordingsReplayTests.root.appendingPathComponent("synthetic")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") && !$0.hasSuffix(".expected.jsonl") }.sorted()
    }()

    @Test func everyDeviceFileIsATraceOfOneDeviceAndNoFrames() throws {
        let names = try RecordedDevices.names()
        #expect(names.count >= 5)
        for name in names {
            let trace = try Trace.load(contentsOf: RecordedDevices.directory.appendingPathComponent(name + ".jsonl"))
            #expect(trace.devices.count == 1, "\(name)")
            #expect(trace.frames.isEmpty, "\(name)")
        }
    }

    @Test(arguments: syntheticTraces)
    func syntheticTraceIsOnTheDeviceItsNameBeginsWith(file: String) throws {
        let trace = try Trace.load(contentsOf: RecordingsReplayTests.root.appendingPathComponent("synthetic/" + file))
        let prefix = String(file.prefix { $0 != "." })
        let candidates = try RecordedDevices.names().filter { $0 == prefix || $0.hasPrefix(prefix + "-") }
        let matching = try candidates.filter { try RecordedDevices.named($0) == trace.devices.first }
        #expect(trace.devices.count == 1)
        #expect(matching.count == 1, "\(file)'s device is none of \(candidates) in Recordings/devices")
    }
}
