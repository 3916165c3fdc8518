import Foundation
import GestureTraces
import TestSupport
import Testing
import TouchInput

@Suite("evemu events without a header find their .desc")
struct TraceEvemuDescriptionTests {
    /// A folder with `Pad.desc` (the X1 Carbon), `Pad.laptop.desc` (the RMI4
    /// pad) and headerless events named `events`.
    static func folder(events: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("evemu-desc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Trace(devices: [try RecordedDevices.x1Carbon], frames: []).write(to: folder.appendingPathComponent("Pad.desc"), format: .evemu)
        try Trace(devices: [try RecordedDevices.rmi4], frames: []).write(
            to: folder.appendingPathComponent("Pad.laptop.desc"), format: .evemu)
        try "E: 0.000000 0003 0039 0001\nE: 0.000000 0000 0000 0000\n"
            .write(to: folder.appendingPathComponent(events), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func candidatesGoFromTheLongestNameToTheShortest() {
        let names = Trace.descriptionCandidates(of: URL(fileURLWithPath: "/d/Pad.laptop.scroll.events")).map(\.lastPathComponent)
        #expect(names == ["Pad.laptop.scroll.desc", "Pad.laptop.desc", "Pad.desc"])
        #expect(Trace.descriptionCandidates(of: URL(fileURLWithPath: "/d/recording")).map(\.lastPathComponent) == ["recording.desc"])
    }

    @Test func eventsWithoutHeaderPairWithTheDescNamedByTheirStem() {
        let events = URL(fileURLWithPath: "/data/touchpads/SynPS2_Synaptics_TouchPad.two-finger-vert-scroll.events")
        #expect(Trace.siblingDescription(of: events).lastPathComponent == "SynPS2_Synaptics_TouchPad.desc")
    }

    @Test(
        "beside Pad.desc and Pad.laptop.desc, the longest matching name wins",
        arguments: [
            ("Pad.laptop.scroll.events", "rmi4"),
            ("Pad.scroll.events", "x1carbon"),
            ("Pad.laptop.events", "rmi4"),
        ])
    func longestMatchingNameWins(events: String, device: String) throws {
        let folder = try Self.folder(events: events)
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = try Trace.load(contentsOf: folder.appendingPathComponent(events))
        #expect(trace.devices[0].name == (try RecordedDevices.named(device)).name)
    }

    @Test func aDescriptionGivenOverridesTheNames() throws {
        let folder = try Self.folder(events: "Pad.laptop.scroll.events")
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = try Trace.load(
            contentsOf: folder.appendingPathComponent("Pad.laptop.scroll.events"),
            deviceDescription: folder.appendingPathComponent("Pad.desc"))
        #expect(trace.devices[0].name == (try RecordedDevices.x1Carbon).name)
    }

    @Test func withoutADescriptionTheErrorNamesEveryCandidate() throws {
        let folder = try Self.folder(events: "Other.laptop.scroll.events")
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: TraceError.self) {
            try Trace.load(contentsOf: folder.appendingPathComponent("Other.laptop.scroll.events"))
        }
        #expect(error.kind == .missingDeviceDescription(expected: "Other.laptop.scroll.desc, Other.laptop.desc or Other.desc"))
    }
}
