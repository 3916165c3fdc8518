import Foundation
import GestureRecognition
import GestureTraces
import InputChecks
import Testing
import TouchInput

/// The replay output format: what `gestures replay` prints and every
/// `*.expected.jsonl` holds.
@Suite struct GestureEventJSONLineTests {
    @Test("events print the JSON contract's keys in order")
    func jsonLineFollowsContract() {
        let end = GestureEvent(
            type: .swipe, phase: .end, time: .milliseconds(412), fingers: 3, cancelled: false,
            direction: .upLeft, dxMillimeters: -31.50004, dyMillimeters: 1.2, edge: .right)
        #expect(
            end.jsonLine
                == #"{"type":"swipe","phase":"end","time_ms":412,"fingers":3,"cancelled":false,"direction":"up_left","dx_mm":-31.5,"dy_mm":1.2,"edge":"right"}"#
        )
        let tap = GestureEvent(type: .tap, time: .microseconds(120_500), fingers: 2)
        #expect(tap.jsonLine == #"{"type":"tap","time_ms":120.5,"fingers":2}"#)
        let stroke = GestureEvent(type: .stroke, time: .zero, fingers: 1, template: "a \"b\"", score: 0.91234)
        #expect(stroke.jsonLine == #"{"type":"stroke","time_ms":0,"fingers":1,"template":"a \"b\"","score":0.912}"#)
        let sequence = GestureEvent(type: .sequence, time: .milliseconds(2), fingers: 3, name: "back\n")
        #expect(sequence.jsonLine == #"{"type":"sequence","time_ms":2,"fingers":3,"name":"back\n"}"#)
    }

    @Test("events read back from the line they print")
    func eventsRoundTrip() throws {
        let events = [
            GestureEvent(type: .pinch, phase: .end, time: .milliseconds(80), fingers: 4, cancelled: true, scale: 1.5, angleDegrees: -12.25),
            GestureEvent(
                type: .swipe, phase: .update, time: .microseconds(1_234_567), fingers: 5,
                direction: .downRight, dxMillimeters: 3.5, dyMillimeters: 4, edge: .top),
            GestureEvent(type: .stroke, time: .seconds(3), fingers: 1, template: "circle", score: 0.875),
            GestureEvent(type: .stroke, time: .seconds(3), fingers: 0, template: "circle", score: 0.875, source: .mouse),
            GestureEvent(type: .sequence, time: .zero, fingers: 3, name: "up-up"),
        ]
        for event in events { #expect(try GestureEvent(jsonLine: event.jsonLine) == event) }
    }

    @Test("a mouse's stroke says its source and has no fingers; a touch line has no source")
    func mouseStrokeLine() throws {
        let stroke = GestureEvent(type: .stroke, time: .milliseconds(708), fingers: 0, template: "circle", score: 0.9991, source: .mouse)
        #expect(stroke.jsonLine == #"{"type":"stroke","time_ms":708,"source":"mouse","template":"circle","score":0.999}"#)
        #expect(stroke.description == "708 ms  stroke  mouse  circle  score 0.999")
        #expect(!GestureEvent(type: .tap, time: .zero, fingers: 2).jsonLine.contains("source"))
        // A touch line without fingers is still an error.
        #expect(throws: JSONText.ReadError.self) { try GestureEvent(jsonLine: #"{"type":"tap","time_ms":1}"#) }
    }

    @Test("a mouse decision prints one line with its figures and reads back from it, points aside")
    func mouseDecisionLine() throws {
        let decision = MouseDecision(
            kind: .rejected, time: .microseconds(804_000), lengthCounts: 994.2712, template: "pigtail",
            score: 0.3214, reason: "below the threshold: pigtail scores 0.3214 of 0.75", points: [.zero])
        #expect(
            decision.jsonLine
                == #"{"mouse":"rejected","time_ms":804,"length_counts":994.271,"template":"pigtail","score":0.321,"reason":"below the threshold: pigtail scores 0.3214 of 0.75"}"#
        )
        let back = try MouseDecision(jsonLine: decision.jsonLine)
        #expect(back.kind == .rejected && back.time == decision.time && back.template == "pigtail" && back.reason == decision.reason)
        let press = MouseDecision(kind: .press, time: .milliseconds(300), held: .milliseconds(300), reason: "held still")
        #expect(try MouseDecision(jsonLine: press.jsonLine) == press)
        #expect(throws: JSONText.ReadError.self) { try MouseDecision(jsonLine: #"{"mouse":"wave","time_ms":1,"reason":""}"#) }
        #expect(try GestureReplay.Output(jsonLine: press.jsonLine) == .mouse(press))
    }

    @Test("keys may come in any order and unknown ones are ignored")
    func readingIsLenientAboutOrder() throws {
        let event = try GestureEvent(jsonLine: #"{"fingers":2,"future":[1],"time_ms":7.5,"type":"tap"}"#)
        #expect(event == GestureEvent(type: .tap, time: .microseconds(7500), fingers: 2))
    }

    @Test(
        "a line without a required key, or with a mistyped word, says which",
        arguments: [
            (#"{"time_ms":1,"fingers":2}"#, "type: is required"),
            (#"{"type":"tap","fingers":2}"#, "time_ms: is required"),
            (#"{"type":"tap","time_ms":1}"#, "fingers: is required"),
            (
                #"{"type":"wave","time_ms":1,"fingers":2}"#,
                "type: unknown gesture 'wave'; expected one of swipe, pinch, hold, tap, stroke, sequence"
            ),
            (#"{"type":"siwpe","time_ms":1,"fingers":2}"#, "type: unknown gesture 'siwpe'; did you mean 'swipe'?"),
            (#"{"type":"swipe","phase":"ned","time_ms":1,"fingers":2}"#, "phase: unknown phase 'ned'; did you mean 'end'?"),
            (
                #"{"type":"swipe","direction":"rihgt","time_ms":1,"fingers":2}"#,
                "direction: unknown direction 'rihgt'; did you mean 'right'?"
            ),
            (#"{"type":"swipe","edge":"tpo","time_ms":1,"fingers":2}"#, "edge: unknown edge 'tpo'; did you mean 'top'?"),
            ("not json", "line 1, column 1: "),
        ])
    func malformedLinesAreErrors(line: String, phrase: String) {
        do {
            _ = try GestureEvent(jsonLine: line)
            Issue.record("\(line) was read")
        } catch {
            #expect(error.description.contains(phrase), "\(error.description)")
        }
    }

    @Test("a line's time may be as large as any event time, and no larger", arguments: [9.2e15, -9.2e15, 1e300, 123.456])
    func lineTimes(milliseconds: Double) throws {
        let line = #"{"type":"tap","time_ms":\#(milliseconds),"fingers":1}"#
        if abs(milliseconds) <= 9.2e15 {
            let event = try GestureEvent(jsonLine: line)
            #expect(abs(event.timeMilliseconds - milliseconds) <= abs(milliseconds) * 1e-12)
        } else {
            #expect(throws: JSONText.ReadError.self) { try GestureEvent(jsonLine: line) }
        }
    }
}
