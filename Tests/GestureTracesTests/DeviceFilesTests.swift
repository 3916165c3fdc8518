import Foundation
import GestureTraces
import TestSupport
import Testing
import TouchInput

/// The device files in `Recordings/devices/` are the devices the synthetic
/// traces were written on: editing one without running
/// `Tools/make-synthetic-traces.py` again fails here.
@Suite struct DeviceFilesTests {
    /// Every synthetic trace (not the expected outputs), by file name; an error when there is none.
    static func syntheticTraces() throws -> [String] {
        try TestFiles.names(
            in: TestFiles.recordings.appendingPathComponent("synthetic"), endingIn: ".jsonl", excluding: [".expected.jsonl"], minimum: 60)
    }

    @Test func everyDeviceFileIsATraceOfOneDeviceAndNoFrames() throws {
        let names = try RecordedDevices.names()
        #expect(names.count >= 5)
        for name in names {
            let trace = try Trace.load(contentsOf: RecordedDevices.directory.appendingPathComponent(name + ".jsonl"))
            #expect(trace.devices.count == 1, "\(name)")
            #expect(trace.frames.isEmpty, "\(name)")
        }
    }

    @Test(arguments: try syntheticTraces())
    func syntheticTraceIsOnTheDeviceItsNameBeginsWith(file: String) throws {
        let trace = try Trace.load(contentsOf: RecordingsReplayTests.root.appendingPathComponent("synthetic/" + file))
        let prefix = String(file.prefix { $0 != "." })
        let candidates = try RecordedDevices.names().filter { $0 == prefix || $0.hasPrefix(prefix + "-") }
        let matching = try candidates.filter { try RecordedDevices.named($0) == trace.devices.first }
        #expect(trace.devices.count == 1)
        #expect(matching.count == 1, "\(file)'s device is none of \(candidates) in Recordings/devices")
    }
}
