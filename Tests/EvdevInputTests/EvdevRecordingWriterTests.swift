import Testing
@testable import EvdevInput

@Suite struct EvdevRecordingWriterTests {
    static let header = EvdevRecording.Header(node: "/dev/input/event5", device: SampleDevices.synapticsTouchpad)
    static let lines = [
        EvdevRecording.Line(frame: EvdevFrame(timeMicroseconds: 1_700_000_000_100_000, events: [
            EvdevEvent(type: EvdevEvent.abs, code: EvdevEvent.absMTTrackingID, value: 12),
            EvdevEvent(type: EvdevEvent.abs, code: EvdevEvent.absMTPositionX, value: 2368),
        ])),
        EvdevRecording.Line(frame: EvdevFrame(timeMicroseconds: 1_700_000_001_110_500, events: [
            EvdevEvent(type: EvdevEvent.abs, code: EvdevEvent.absMTTrackingID, value: -1),
        ]), resynced: true),
    ]

    @Test func evemuHeaderDescribesTheDevice() {
        let text = EvdevRecordingWriter(format: .evemu, header: Self.header).header
        let rows = text.split(separator: "\n").map(String.init)
        #expect(rows[0] == "# EVEMU 1.3")
        #expect(rows.contains("N: SynPS/2 Synaptics TouchPad"))
        #expect(rows.contains("I: 0011 0002 0007 01b1"))
        #expect(rows.contains("P: 05 00 00 00 00 00 00 00"))   // POINTER (bit 0) + BUTTONPAD (bit 2)
        #expect(rows.contains("B: 00 0b 00 00 00 00 00 00 00"))   // EV_SYN, EV_KEY, EV_ABS
        #expect(rows.contains("B: 01 20 e5 00 00 00 00 00 00"))   // BTN_TOOL_FINGER, QUINTTAP, TOUCH, DOUBLE/TRIPLE/QUADTAP
        #expect(rows.contains("B: 03 03 00 00 00 00 80 60 02"))   // ABS_X/Y, MT_SLOT, MT_POSITION_X/Y, MT_TRACKING_ID
        #expect(rows.filter { $0.hasPrefix("B: 01 ") }.count == 12)   // KEY_MAX 0x2ff: 96 bytes
        #expect(rows.contains("A: 00 1266 5676 0 0 45"))
        #expect(rows.contains("A: 2f 0 1 0 0 0"))
    }

    @Test func evemuEventsAreRelativeHexAndPadded() {
        var writer = EvdevRecordingWriter(format: .evemu, header: Self.header)
        #expect(writer.text(for: Self.lines[0]) == "E: 0.000000 0003 0039 0012\nE: 0.000000 0003 0035 2368\nE: 0.000000 0000 0000 0000\n")
        #expect(writer.text(for: Self.lines[1]) == "# resynced after SYN_DROPPED: the state after lost events\nE: 1.010500 0003 0039 -001\nE: 1.010500 0000 0000 0000\n")
    }

    @Test func libinputRecordHasDeviceAndFrames() {
        var writer = EvdevRecordingWriter(format: .libinput, header: Self.header)
        let header = writer.header
        #expect(header.hasPrefix("version: 1\nndevices: 1\ndevices:\n- node: /dev/input/event5\n  evdev:\n"))
        #expect(header.contains("    name: \"SynPS/2 Synaptics TouchPad\"\n    id: [17, 2, 7, 433]\n"))
        #expect(header.contains("      3: [0, 1, 47, 53, 54, 57]\n"))
        #expect(header.contains("      0: [1266, 5676, 0, 0, 45]\n"))
        #expect(header.hasSuffix("    properties: [0, 2]\n  events:\n"))
        _ = writer.text(for: Self.lines[0])
        #expect(writer.text(for: Self.lines[1]) == """
              # resynced after SYN_DROPPED: the state after lost events
              - evdev:
                - [  1,  10500,   3,  57,     -1]
                - [  1,  10500,   0,   0,      0]

            """)
    }

    @Test func jsonFormatIsTheJSONLinesRecording() throws {
        var writer = EvdevRecordingWriter(format: .json, header: Self.header)
        let text = writer.header + Self.lines.map { writer.text(for: $0) }.joined()
        let (header, lines) = try EvdevRecording.decode(text)
        #expect(header == Self.header && lines == Self.lines)
    }
}
