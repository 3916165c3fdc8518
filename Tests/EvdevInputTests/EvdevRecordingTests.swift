import Testing
@testable import EvdevInput

@Suite struct EvdevRecordingTests {
    static let frames: [EvdevRecording.Line] = [
        .init(frame: EvdevFrame(timeMicroseconds: 1_700_000_000_123_456, events: [
            EvdevEvent(type: EvdevEvent.abs, code: EvdevEvent.absMTSlot, value: 1),
            EvdevEvent(type: EvdevEvent.abs, code: EvdevEvent.absMTTrackingID, value: 12),
            EvdevEvent(type: EvdevEvent.abs, code: EvdevEvent.absMTPositionX, value: -2900),
            EvdevEvent(type: EvdevEvent.key, code: EvdevEvent.btnTouch, value: 1),
        ])),
        .init(frame: EvdevFrame(timeMicroseconds: 1_700_000_000_133_456, events: [
            EvdevEvent(type: EvdevEvent.abs, code: EvdevEvent.absMTTrackingID, value: -1),
        ]), resynced: true),
        .init(frame: EvdevFrame(timeMicroseconds: 1_700_000_000_143_456, events: [])),
    ]

    @Test func recordingRoundTripsLosslessly() throws {
        let header = EvdevRecording.Header(node: "/dev/input/event5", device: SampleDevices.synapticsTouchpad)
        let text = ([EvdevRecording.encode(header)] + Self.frames.map(EvdevRecording.encode)).joined(separator: "\n") + "\n"
        let (decodedHeader, lines) = try EvdevRecording.decode(text)
        #expect(decodedHeader == header)
        #expect(lines == Self.frames)
    }

    @Test func frameLineIsCompactAndMarksResyncOnlyWhenSet() {
        #expect(EvdevRecording.encode(Self.frames[1]) == #"{"time":1700000000133456,"events":[[3,57,-1]],"resynced":true}"#)
        #expect(EvdevRecording.encode(Self.frames[2]) == #"{"time":1700000000143456,"events":[]}"#)
    }

    @Test func unsupportedVersionIsRejectedBeforeTheRest() {
        let text = #"{"format":"gestures-evdev-record","version":3,"device":"nonsense"}"#
        #expect(throws: EvdevRecording.DecodingError(line: 1, reason: "unsupported version 3, expected 1")) {
            try EvdevRecording.decode(text)
        }
    }

    @Test func badFrameLineReportsItsLineNumber() throws {
        let header = EvdevRecording.encode(EvdevRecording.Header(node: "n", device: SampleDevices.mouse))
        let text = header + "\n" + EvdevRecording.encode(Self.frames[0]) + "\n" + #"{"time":1,"events":[[3,0]]}"#
        #expect(throws: EvdevRecording.DecodingError(line: 3, reason: "an event is not [type, code, value] in range")) {
            try EvdevRecording.decode(text)
        }
    }

    @Test func emptyFileHasNoHeader() {
        #expect(throws: EvdevRecording.DecodingError.self) { try EvdevRecording.decode("") }
    }
}
