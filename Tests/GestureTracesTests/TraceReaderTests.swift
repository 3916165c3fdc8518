import Foundation
import GestureTraces
import Testing
import TouchInput

@Suite struct TraceReaderTests {
    static var pad: DeviceDescription {
        var pad = DeviceDescription(
            name: "Pad \"quoted\"\nsecond line", id: .init(bus: 3, vendor: 0x5ac, product: 0x30e, version: 1),
            properties: [INPUT_PROP.POINTER])
        pad.enable(EV.SYN, SYN.REPORT)
        pad.enable(EV.KEY, BTN.TOOL_FINGER)
        pad.enable(ABS.MT_SLOT, AbsInfo(minimum: 0, maximum: 15))
        pad.enable(ABS.MT_POSITION_X, AbsInfo(minimum: -2909, maximum: 3167, fuzz: 4, flat: 0, resolution: 46))
        pad.enable(ABS.MT_POSITION_Y, AbsInfo(minimum: -2456, maximum: 2565, resolution: 45))
        return pad
    }

    static func frame(_ time: Int64, _ events: [(UInt16, UInt16, Int32, Int64)]) -> Trace.Frame {
        Trace.Frame(device: 0, events: events.map { InputEvent(type: $0.0, code: $0.1, value: $0.2, microseconds: time + $0.3) })
    }

    static let sample = Trace(
        devices: [pad],
        frames: [
            frame(1_358_916_661_266_155, [(3, 47, 0, 0), (3, 57, 774, 0), (3, 53, -2000, 1), (1, 325, 1, 1), (0, 0, 0, 3)]),
            frame(1_358_916_661_290_475, [(3, 53, -1990, 0), (0, 0, 0, 0)]),
            frame(1_358_916_661_300_000, [(3, 57, -1, 0)]),
        ])

    @Test func writesOneHeaderOneLinePerFrameAndAnEndLine() {
        let text = String(decoding: Self.sample.jsonData(), as: UTF8.self)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("{\"format\":\"gestures-trace\",\"version\":1,"))
        #expect(lines[1] == "{\"d\":0,\"t\":1358916661266155,\"e\":[[3,47,0],[3,57,774],[3,53,-2000,1],[1,325,1,1],[0,0,0,3]]}")
        #expect(lines[4] == "{\"end\":{\"frames\":3,\"events\":8}}")
    }

    @Test func readsBackWhatItWrote() throws {
        #expect(try Trace.decode(Self.sample.jsonData()) == Self.sample)
    }

    @Test func ignoresUnknownKeysAndBlankLines() throws {
        var text = String(decoding: Self.sample.jsonData(), as: UTF8.self)
        text = text.replacingOccurrences(of: "{\"d\":0,", with: "{\"note\":{\"a\":[1,2.5,\"x\\\"y\",null,true]},\"d\":0,")
        text = text.replacingOccurrences(of: "\"version\":1,", with: "\"version\":1,\"recorder\":\"future\",")
        text = text.replacingOccurrences(of: "\n{\"end\"", with: "\n\n  \n{\"end\"")
        #expect(try Trace.decode(Data(text.utf8)) == Self.sample)
    }

    @Test func streamsFromAFileThroughASmallBuffer() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("reader-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        var frames: [Trace.Frame] = []
        for index in 0..<20_000 {
            frames.append(Self.frame(Int64(index) * 8000, [(3, 53, Int32(index % 3000), 0), (0, 0, 0, 0)]))
        }
        let trace = Trace(devices: [Self.pad], frames: frames)
        try trace.write(to: url)
        let reader = try TraceReader(contentsOf: url)
        #expect(reader.devices == [Self.pad])
        var count = 0
        while let frame = try reader.nextFrame() {
            #expect(frame == frames[count])
            count += 1
        }
        #expect(count == frames.count)
        #expect(try reader.nextFrame() == nil)
    }

    @Test func enforcesTheEventsPerFrameLimitWithTheLineAndFrame() throws {
        var limits = TraceReader.Limits()
        limits.maximumEventsPerFrame = 4
        let error = try #require(throws: TraceError.self) { try Trace.decode(Self.sample.jsonData(), limits: limits) }
        #expect(error.kind == .tooManyEvents(limit: 4))
        #expect(error.line == 2 && error.frame == 0)
    }

    @Test func enforcesTheDeviceAndFileSizeLimits() throws {
        var limits = TraceReader.Limits()
        limits.maximumDevices = 0
        #expect(throws: TraceError(.tooManyDevices(found: 1, limit: 0), line: 1)) {
            try Trace.decode(Self.sample.jsonData(), limits: limits)
        }
        limits = TraceReader.Limits()
        limits.maximumFileBytes = 100
        let error = try #require(throws: TraceError.self) { try Trace.decode(Self.sample.jsonData(), limits: limits) }
        guard case .fileTooLarge = error.kind else { Issue.record("expected fileTooLarge, got \(error)"); return }
    }

    @Test func lineLimitStopsAnEndlessLine() throws {
        var limits = TraceReader.Limits()
        limits.maximumLineBytes = 64
        let error = try #require(throws: TraceError.self) { try Trace.decode(Self.sample.jsonData(), limits: limits) }
        #expect(error.kind == .lineTooLong(limit: 64))
    }

    @Test func evemuExportWritesMinusOneAsEvemuDoesAndKeepsSubMicrosecondOrder() throws {
        let text = String(decoding: try Self.sample.encoded(as: .evemu), as: UTF8.self)
        #expect(text.contains("E: 1358916661.300000 0003 0039 -001\n"))
        #expect(text.contains("E: 1358916661.266156 0003 0035 -2000\n"))
        #expect(text.contains("A: 35 -2909 3167 4 0 46\n"))
        #expect(try Trace.decode(Data(text.utf8)).frames == Self.sample.frames)
    }

    @Test(arguments: [("trace.jsonl", TraceFormat.json), ("a.yml", .libinput), ("a.yaml", .libinput), ("x.events", .evemu), ("x.png", nil)])
    func formatFromExtension(name: String, format: TraceFormat?) {
        #expect(TraceFormat(pathExtension: URL(fileURLWithPath: name).pathExtension) == format)
    }

    @Test(arguments: [
        ("# EVEMU 1.3\nN: pad\n", TraceFormat.evemu), ("\n  {\"format\"", .json),
        ("# libinput record\nversion: 1\n", .libinput), ("# only\n# comments\n", nil),
    ])
    func formatFromContent(content: String, format: TraceFormat?) {
        #expect(TraceFormat.detect(Array(content.utf8)) == format)
    }
}
